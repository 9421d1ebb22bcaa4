// The pure parts of a group: its label, the signed group marker (what it covers, and that it leaves the
// job's marker as it was), and moving the mark by rewriting the marker in a note.
import { describe, expect, it } from 'vitest'
import { signMarker, readMarkedJobs } from '../../../src/thread/agent-note-record.js'
import type { NotePlace } from '../../../src/github/note-place.js'
import { GROUP_LABEL_PREFIX, groupLabel } from '../../../src/group/group-job.js'
import { groupMarker, markedGroups, withGroupMarker } from '../../../src/group/group-marker.js'

const KEY = { apiKey: 'svc_stand_in_key' }
const PLACE: NotePlace = { host: 'github.com', pr: { owner: 'octo-org', repo: 'docs', number: 7 }, projectId: 'docs' }
const MARK = 'a'.repeat(40)
const GROUP = 'docs-follow-code'

describe('the group marker', () => {
  it('names the job and the mark, and verifies for its place and group under the same key', () => {
    const line = groupMarker(KEY, PLACE, { jobId: 'job_1', group: GROUP, mark: MARK })
    expect(line).toMatch(new RegExp(`^<!-- docs-agent-group: ${GROUP} job_1 ${MARK} g1\\.[A-Za-z0-9_-]{43} -->$`))
    expect(markedGroups(`${line}\ntext`, KEY, PLACE, GROUP)).toEqual([{ jobId: 'job_1', mark: MARK, verified: true }])
  })

  it.each([
    ['another key', { apiKey: 'svc_other' }, PLACE, GROUP],
    ['another pull request', KEY, { ...PLACE, pr: { ...PLACE.pr, number: 8 } }, GROUP],
    ['another repository', KEY, { ...PLACE, pr: { ...PLACE.pr, repo: 'handbook' } }, GROUP],
    ['another GitHub', KEY, { ...PLACE, host: 'ghe.example' }, GROUP],
    ['another project', KEY, { ...PLACE, projectId: 'other' }, GROUP]
  ])('does not verify under %s', (_, key, place) => {
    const line = groupMarker(KEY, PLACE, { jobId: 'job_1', group: GROUP, mark: MARK })
    expect(markedGroups(line, key, place, GROUP)).toEqual([{ jobId: 'job_1', mark: MARK, verified: false }])
  })

  it("is not read as another group's, and a mark or job changed by hand does not verify", () => {
    const line = groupMarker(KEY, PLACE, { jobId: 'job_1', group: GROUP, mark: MARK })
    expect(markedGroups(line, KEY, PLACE, 'code-pr-7')).toEqual([])
    const moved = line.replace(MARK, 'b'.repeat(40))
    expect(markedGroups(moved, KEY, PLACE, GROUP)).toEqual([{ jobId: 'job_1', mark: 'b'.repeat(40), verified: false }])
    const otherJob = line.replace(' job_1 ', ' job_2 ')
    expect(markedGroups(otherJob, KEY, PLACE, GROUP)[0].verified).toBe(false)
  })

  it('holds a job id of any shape, and no mark as -', () => {
    const line = groupMarker(KEY, PLACE, { jobId: 'job 1/%', group: GROUP, mark: '' })
    expect(line).toContain(' job%201%2F%25 - g1.')
    expect(markedGroups(line, KEY, PLACE, GROUP)).toEqual([{ jobId: 'job 1/%', mark: '', verified: true }])
  })

  it("leaves the job's marker as it was: a note with both still routes /docs comments to the job", () => {
    const note = `${signMarker(KEY, PLACE, 'job_1')}\n${groupMarker(KEY, PLACE, { jobId: 'job_1', group: GROUP, mark: MARK })}\n📝 text`
    expect(readMarkedJobs(note, KEY, PLACE)).toEqual([{ jobId: 'job_1', verified: true }])
  })
})

describe('moving the mark', () => {
  it("rewrites this group's marker only, keeping the rest of the note", () => {
    const other = groupMarker(KEY, PLACE, { jobId: 'job_1', group: 'another', mark: MARK })
    const note = `${signMarker(KEY, PLACE, 'job_1')}\n${groupMarker(KEY, PLACE, { jobId: 'job_1', group: GROUP, mark: MARK })}\n${other}\n📝 text`
    const next = withGroupMarker(
      note,
      GROUP,
      groupMarker(KEY, PLACE, { jobId: 'job_1', group: GROUP, mark: 'c'.repeat(40) })
    )
    expect(markedGroups(next, KEY, PLACE, GROUP)).toEqual([{ jobId: 'job_1', mark: 'c'.repeat(40), verified: true }])
    expect(markedGroups(next, KEY, PLACE, 'another')).toEqual([{ jobId: 'job_1', mark: MARK, verified: true }])
    expect(readMarkedJobs(next, KEY, PLACE)).toEqual([{ jobId: 'job_1', verified: true }])
    expect(next.endsWith('\n📝 text')).toBe(true)
  })

  it('adds the signMarker at the top of a note that has none', () => {
    const line = groupMarker(KEY, PLACE, { jobId: 'job_1', group: GROUP, mark: MARK })
    expect(withGroupMarker('📝 text', GROUP, line)).toBe(`${line}\n📝 text`)
  })
})

describe('the label', () => {
  it("fits GitHub's 50 characters for the longest group the input takes", () => {
    expect(groupLabel('x'.repeat(39))).toHaveLength(50)
    expect(groupLabel(GROUP)).toBe(`${GROUP_LABEL_PREFIX}${GROUP}`)
  })
})
