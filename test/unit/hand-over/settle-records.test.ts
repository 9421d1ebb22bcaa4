// A held run that followed a handed-over job to its end tells that job's open records in the index, as
// a reporting run would, exactly once: the records an earlier run's hand-over left (hand-over/hand-over.ts)
// on the stand-in GitHub are claimed before the run tells its own ending, told (the note on the agent's
// pull request, the commit status), and marked final; a second run finds them done.
import { describe, expect, it } from 'vitest'
import { readRunner } from '../../../src/github/runner.js'
import type { GitHubSession } from '../../../src/github/session.js'
import type { RunOutcome } from '../../../src/kernel/run-outcome.js'
import { handOverJob } from '../../../src/hand-over/hand-over.js'
import { claimRecordsOfJob } from '../../../src/hand-over/settle-records.js'
import type { Job } from '../../../src/service/job-record.js'
import { pushEvent, standInCommit, writeEventFile } from '../../support/stand-in-github.js'
import { INDEX_SETTINGS, readIndexRecords, REPO, serviceJob } from '../../support/job-index-world.js'
import { captureLog, cleanUpAfterEach, startUnitGitHub, type StandInGitHub } from '../../support/unit-github.js'

const pushed = standInCommit('Add the --dry-run flag')
const settings = INDEX_SETTINGS
const job = (status: string): Job => serviceJob('job_9', status, status === 'completed' ? 31 : undefined)
const final: RunOutcome = { ending: 'final', job: job('completed'), jobId: 'job_9' }

let gh: StandInGitHub | undefined
cleanUpAfterEach()

const runner = () =>
  readRunner({
    GITHUB_REPOSITORY: REPO,
    GITHUB_RUN_ID: '42',
    GITHUB_EVENT_NAME: 'push',
    GITHUB_EVENT_PATH: writeEventFile(pushEvent({ commits: [pushed] }))
  })

/** A stand-in GitHub where an earlier run (wait: false) handed job_9 over. */
async function handedOver() {
  const started = await startUnitGitHub()
  gh = started.gh
  await handOverJob({
    outcome: { ending: 'created', job: job('active'), jobId: 'job_9' },
    settings,
    ask: null,
    group: null,
    prompt: 'Document the flag',
    creates: true,
    runner: runner(),
    github: started.session
  })
  return started.session
}

async function records(session: GitHubSession) {
  return (await readIndexRecords(session)).map((record) => [record.job, record.state, record.told])
}

describe("settling a handed-over job's records", () => {
  it('claims, tells and marks final the records of the job the run followed; a second run finds them done', async () => {
    const log = captureLog()
    const session = await handedOver()
    const settling = await claimRecordsOfJob(final, settings, false, { runner: runner(), github: session })
    expect(settling.elsewhere).toBe(false)
    await settling.tell()
    expect(await records(session)).toEqual([['job_9', 'final', 'completed']])
    expect(gh?.threadComments(31)).toHaveLength(1)
    expect(gh?.statuses.map((s) => s.state)).toEqual(['pending', 'success'])
    expect(log.lines).toContain('Reported the ending of job job_9 (completed).')

    const again = await claimRecordsOfJob(final, settings, false, { runner: runner(), github: session })
    await again.tell()
    expect(gh?.threadComments(31)).toHaveLength(1)
    expect(gh?.statuses.map((s) => s.state)).toEqual(['pending', 'success'])
  })

  it("another run's claim made meanwhile: this run tells nothing, and leaves the note to that run", async () => {
    captureLog()
    const session = await handedOver()
    const first = await claimRecordsOfJob(final, settings, false, { runner: runner(), github: session })
    const second = await claimRecordsOfJob(final, settings, false, { runner: runner(), github: session })
    expect(second.elsewhere).toBe(true)
    await second.tell()
    expect(gh?.threadComments(31)).toEqual([])
    await first.tell()
    expect(gh?.threadComments(31)).toHaveLength(1)
  })

  it.each<[string, RunOutcome, boolean]>([
    ['a job this run created', final, true],
    ['a job not yet at its end', { ending: 'timeout', job: job('active'), jobId: 'job_9' }, false]
  ])('has nothing to settle for %s, and reads nothing', async (_name, outcome, created) => {
    const session = await handedOver()
    const before = gh?.requests.length
    const settling = await claimRecordsOfJob(outcome, settings, created, { runner: runner(), github: session })
    await settling.tell()
    expect(settling.elsewhere).toBe(false)
    expect(gh?.requests.length).toBe(before)
    expect(await records(session)).toEqual([['job_9', 'open', undefined]])
  })
})
