// The group as a run's ending tells it (group-shown.ts): in the summary, its docs pull request and the
// commits this run sent with their comparison; in a new job's note, the group its pull request joins.
import { describe, expect, it } from 'vitest'
import type { GroupPullRequest, GroupRun } from '../../../src/kernel/group.js'
import { groupNoteOf, groupShown } from '../../../src/ending/group-shown.js'
import type { GroupEnding } from '../../../src/kernel/group.js'
import { readRunner } from '../../../src/github/runner.js'

const MARK = 'a'.repeat(40)
const COVERS = 'b'.repeat(40)
const runner = readRunner({ GITHUB_SERVER_URL: 'https://github.example', GITHUB_REPOSITORY: 'octo-org/cli' })
const open = { url: 'https://github.example/octo-org/docs-site/pull/31', jobId: 'job_g' } as GroupPullRequest
const groupWith = (fields: Partial<GroupRun> = {}): GroupRun => ({
  settings: { name: 'docs-follow-code', repository: 'octo-org/docs-site' },
  lookup: { kind: 'none', previous: null, unverified: [], bound: null },
  open: null,
  mark: MARK,
  covers: COVERS,
  ancestry: 'ahead',
  ...fields
})
const ended = (prLink: string | null): GroupEnding => ({
  ending: 'final',
  jobId: 'job_new',
  job: { status: 'completed', prLink }
})
const NEW_PR = 'https://github.example/octo-org/docs-site/pull/40'

describe('the group in the summary', () => {
  it('names the commits a message sent, linked to their comparison on this GitHub', () => {
    expect(groupShown(groupWith({ open }), ended(null), 'message', runner)).toEqual({
      name: 'docs-follow-code',
      pullRequest: open.url,
      sent: {
        from: MARK,
        to: COVERS,
        compare: `https://github.example/octo-org/cli/compare/${MARK}...${COVERS}`
      }
    })
  })

  it("names the pull request a create's job opened, and no commits when nothing was delivered", () => {
    expect(groupShown(groupWith(), ended(NEW_PR), 'create', runner).pullRequest).toBe(NEW_PR)
    expect(groupShown(groupWith({ open }), ended(null), undefined, runner)).toMatchObject({
      pullRequest: open.url,
      sent: null
    })
  })

  it('names no commits for a request on the code pull request, which carries none (its covers is the mark)', () => {
    expect(groupShown(groupWith({ open, covers: MARK }), ended(null), 'message', runner).sent).toBeNull()
  })
})

describe("the group in a new job's note", () => {
  it("makes a create's pull request the group's, with this run's commit as its mark", () => {
    expect(groupNoteOf(groupWith(), 'create')).toEqual({
      name: 'docs-follow-code',
      mark: COVERS,
      repository: 'octo-org/docs-site'
    })
  })

  it('says nothing of the group after a message, without a group, or when the group could not be looked for', () => {
    expect(groupNoteOf(groupWith({ open }), 'message')).toBeUndefined()
    expect(groupNoteOf(null, 'create')).toBeUndefined()
    const failure = { kind: 'server' } as Extract<GroupRun['lookup'], { kind: 'unreadable' }>['failure']
    expect(groupNoteOf(groupWith({ lookup: { kind: 'unreadable', failure } }), 'create')).toBeUndefined()
  })
})
