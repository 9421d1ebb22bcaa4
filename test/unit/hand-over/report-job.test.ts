// Telling one handed-over job's ending exactly once, on the stand-in GitHub: the record is read again
// right before (one another run told meanwhile is done), a reaction claims the telling (one another
// run holds is left to it), and the record is marked final last.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { readRunner } from '../../../src/github/runner.js'
import type { GitHubSession } from '../../../src/github/session.js'
import { openIndexReader, openJobIndex } from '../../../src/hand-over/job-index.js'
import { handOverJob } from '../../../src/hand-over/hand-over.js'
import { reportPlaceOf, tellRecordedEnding } from '../../../src/hand-over/report-job.js'
import type { Job } from '../../../src/service/job-record.js'
import { INDEX_SETTINGS, REPO, serviceJob } from '../../support/job-index-world.js'
import { captureLog, startUnitGitHub, type StandInGitHub } from '../../support/unit-github.js'

const settings = INDEX_SETTINGS
const job = (status: string): Job => serviceJob('job_9', status, status === 'completed' ? 31 : undefined)
const runner = readRunner({ GITHUB_REPOSITORY: REPO, GITHUB_RUN_ID: '42', GITHUB_EVENT_NAME: 'workflow_dispatch' })

let gh: StandInGitHub | undefined
const closing: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closing.splice(0)) await close()
  await gh?.close()
  gh = undefined
  vi.restoreAllMocks()
})

/** A reporting run's place, over an index where an earlier run handed job_9 over; and the record as it read it. */
async function place(session: GitHubSession) {
  const reader = openIndexReader(session, new AbortController().signal)
  if (!reader) throw new Error('no reader')
  closing.push(() => reader.close())
  const { index, octokit } = await openJobIndex(session, reader, { key: settings, repository: REPO })
  const found = await index.read()
  const signal = new AbortController().signal
  const at = reportPlaceOf({
    octokit,
    reader,
    index,
    issue: found.issue ?? 0,
    settings,
    signal,
    runner,
    github: session
  })
  const indexed = found.records[0]
  if (!indexed) throw new Error('no record')
  return { at, indexed }
}

async function handedOver(options: Parameters<typeof startUnitGitHub>[0] = {}) {
  const started = await startUnitGitHub(options)
  gh = started.gh
  await handOverJob({
    outcome: { ending: 'created', job: job('active'), jobId: 'job_9' },
    settings,
    ask: null,
    group: null,
    prompt: 'Document it',
    creates: true,
    runner,
    github: started.session
  })
  return started.session
}

describe("telling a handed-over job's ending", () => {
  it('is told by the first of two runs that read the record open; the second finds it done', async () => {
    captureLog()
    const session = await handedOver()
    const first = await place(session)
    const second = await place(session)
    expect(await tellRecordedEnding(first.at, first.indexed, { job: job('completed') })).toBe('told')
    expect(await tellRecordedEnding(second.at, second.indexed, { job: job('completed') })).toBe('done')
    expect(gh?.threadComments(31)).toHaveLength(1)
  })

  it('is left to the run that holds a live claim: nothing is told twice', async () => {
    captureLog()
    const session = await handedOver()
    const first = await place(session)
    const second = await place(session)
    // The first run has claimed the record (its reaction) and is telling it now.
    await first.at.index.claim(first.indexed.commentId, first.at.signal)
    expect(await tellRecordedEnding(second.at, second.indexed, { job: job('completed') })).toBe('claimed')
    expect(gh?.threadComments(31)).toEqual([])
  })

  it('is left open, its claim given up, when a write fails; the next run tells it, and the note is not left twice', async () => {
    const log = captureLog()
    // The note on the pull request is made, and GitHub answers 502.
    const made = { status: 502, message: 'Server Error', made: true, times: 1 }
    const session = await handedOver({
      faults: { 'comment-create': { ...made, when: (req) => req.path.includes('/issues/31/comments') } }
    })
    const first = await place(session)
    expect(await tellRecordedEnding(first.at, first.indexed, { job: job('completed') })).toBe('unfinished')
    expect((await first.at.index.reread(first.at.issue, first.indexed.commentId))?.state).toBe('open')
    expect(log.warnings.filter((w) => w.includes('Its record stays open and unclaimed'))).toHaveLength(1)
    // The claim is given up: the next run claims it (201) and tells it.
    const second = await place(session)
    expect(await tellRecordedEnding(second.at, second.indexed, { job: job('completed') })).toBe('told')
    expect(gh?.threadComments(31)).toHaveLength(1)
  })
})
