// What the code pull request's one comment shows of its group's docs, before and after a run
// (groupStatusBefore, groupStatusAfter), and its text (groupStatusBody): which docs pull request, which
// job, up to which commit the docs were told of, and whether this push's changes wait for the next run.
import { describe, expect, it } from 'vitest'
import type { GroupEnding, GroupPullRequest, GroupRun } from '../../../src/kernel/group.js'
import { groupStatusAfter, groupStatusBefore, groupStatusBody } from '../../../src/group/group-status.js'

const MARK = 'a'.repeat(40)
const COVERS = 'b'.repeat(40)
const open: GroupPullRequest = {
  pr: { owner: 'octo-org', repo: 'docs-site', number: 31 },
  url: 'https://github.example/octo-org/docs-site/pull/31',
  jobId: 'job_g',
  mark: MARK,
  commentId: 9001,
  body: '',
  open: true
}
const groupWith = (found: GroupPullRequest | null): GroupRun => ({
  settings: { name: 'docs-follow-code', repository: 'octo-org/docs-site' },
  lookup: found ? { kind: 'found', found } : { kind: 'none', previous: null, unverified: [], bound: null },
  open: found,
  mark: MARK,
  covers: COVERS,
  ancestry: 'ahead'
})
const opened = {
  pr: { owner: 'octo-org', repo: 'docs-site', number: 40 },
  url: 'https://github.example/octo-org/docs-site/pull/40'
}
const completed = (fields: Partial<GroupEnding> = {}): GroupEnding => ({
  ending: 'final',
  jobId: 'job_g',
  job: { status: 'completed', prLink: null },
  ...fields
})

describe("the code pull request's comment for its group", () => {
  it("shows, while the run goes, the group's job and that this push's changes are on their way", () => {
    expect(groupStatusBefore(groupWith(open))).toEqual({
      group: 'docs-follow-code',
      docs: { url: open.url, number: 31 },
      jobId: 'job_g',
      status: '',
      coveredUpTo: MARK,
      waiting: false,
      sending: true
    })
    expect(groupStatusBefore(groupWith(null))).toMatchObject({ docs: null, jobId: '', coveredUpTo: MARK })
  })

  it("after a message the service took: the group's docs pull request, covering this run's commit", () => {
    const after = groupStatusAfter(completed({ followUp: true }), groupWith(open), true, null)
    expect(after).toEqual({
      group: 'docs-follow-code',
      docs: { url: open.url, number: 31 },
      jobId: 'job_g',
      status: 'completed',
      coveredUpTo: COVERS,
      waiting: false
    })
  })

  it('after a create: the pull request the new job opened, and the new job', () => {
    const after = groupStatusAfter(completed({ jobId: 'job_new' }), groupWith(null), true, opened)
    expect(after).toMatchObject({ docs: { url: opened.url, number: 40 }, jobId: 'job_new', coveredUpTo: COVERS })
  })

  it("a run that sent nothing: the mark stays, and only a held run's changes wait for the next run", () => {
    const waitedOut: GroupEnding = { ending: 'held', hold: { why: 'waited-out' }, jobId: 'job_g', job: null }
    expect(groupStatusAfter(waitedOut, groupWith(open), false, null)).toMatchObject({
      coveredUpTo: MARK,
      waiting: true,
      status: ''
    })
    const covered: GroupEnding = { ending: 'held', hold: { why: 'covered' }, jobId: 'job_g', job: null }
    expect(groupStatusAfter(covered, groupWith(open), false, null)).toMatchObject({ coveredUpTo: MARK, waiting: false })
  })

  it("says it in the action's words, with the job and its status in code spans and the marker first", () => {
    const body = groupStatusBody({
      ...groupStatusAfter(completed({ followUp: true }), groupWith(open), true, null),
      signature: 'c2lnbmF0dXJl'
    })
    expect(body.split('\n')[0]).toBe('<!-- docs-agent-group-status: docs-follow-code s1.c2lnbmF0dXJl -->')
    expect(body).toContain(`- Docs pull request: [#31](${open.url}), open`)
    expect(body).toContain('- Job: `job_g`, `completed`')
    expect(body).toContain(`- The docs cover the changes up to ${COVERS.slice(0, 7)}.`)
    expect(body).not.toContain('next run')
    const waiting = groupStatusBody({ ...groupStatusBefore(groupWith(null)), sending: false, waiting: true })
    expect(waiting).toContain('- Docs pull request: none open yet')
    expect(waiting).toContain('- Job: none yet')
    expect(waiting).toContain("- This push's changes go with the group's next run: the job was still busy.")
  })
})
