// A held run that followed an existing job to its end (a jobId given, or a follow-up message to a
// thread's job) may follow a job an earlier run handed over: that job's open records in the index are
// told by it, as a reporting run would tell them (hand-over/report-job.ts: read again, claimed, told, marked
// final), so that a reporting run reading the same job meanwhile tells each ending once, and no
// reporting run tells it again later. The claims come before the run tells its own ending: the run
// whose claim GitHub took leaves the note on the agent's pull request, never both. A run that
// created its job has no record to settle.
import type { GitHubRun } from '../github/session.js'
import { gitHubIsSilent } from '../github/silence.js'
import type { Settings } from '../kernel/settings.js'
import { openJobIndex, openIndexReader } from './job-index.js'
import { describeWriteFailure } from '../github/write-failure.js'
import { WRITE_ACCESS } from '../kernel/write-access.js'
import type { RunOutcome } from '../kernel/run-outcome.js'
import { timeLimit } from '../runtime/deadline.js'
import { log } from '../runtime/log.js'
import type { IndexedRecord } from './index-records.js'
import { claimRecord, reportPlaceOf, tellClaimed } from './report-job.js'

/** The settling's GitHub calls together: the index's listing and comments, then each record's telling. */
export const SETTLE_MS = 15_000

/** The records a held run claimed, to tell once its own ending is told; `elsewhere`: another run is telling one. */
export interface Settling {
  /** Another run holds a claim on one of the job's records: it leaves the note on the agent's pull request. */
  elsewhere: boolean
  /** Tells the claimed records and marks them final; never throws. */
  tell(): Promise<void>
}

const NOTHING: Settling = { elsewhere: false, tell: async () => {} }

/**
 * Claims the open records of the job the run followed to its end, before the run tells its own ending
 * (so that the note on the agent's pull request is left by one run only); a failure is a notice, and a
 * reporting run tells them.
 */
export async function claimRecordsOfJob(
  outcome: RunOutcome,
  settings: Settings | null,
  createdByThisRun: boolean,
  { runner, github }: GitHubRun
): Promise<Settling> {
  if (outcome.ending !== 'final' || createdByThisRun || !settings?.githubToken || gitHubIsSilent()) return NOTHING
  const { job } = outcome
  const limit = timeLimit(SETTLE_MS)
  const reader = openIndexReader(github, limit.signal)
  const done = async () => {
    limit.clear()
    await reader?.close()
  }
  const failed = (error: unknown) =>
    log.notice(
      `Could not tell the ending of job ${job.id} where an earlier run handed it over: ${describeWriteFailure(error, WRITE_ACCESS.index)} ` +
        'A reporting run tells it.'
    )
  try {
    if (!reader) return NOTHING
    const { repository } = runner
    const { index, octokit } = await openJobIndex(github, reader, { key: settings, repository })
    const found = await index.read()
    const open = found.records.filter(({ record }) => record.job === job.id && record.state === 'open')
    if (found.issue === null || open.length === 0) {
      await done()
      return NOTHING
    }
    const place = reportPlaceOf({
      octokit,
      reader,
      index,
      issue: found.issue,
      settings,
      signal: limit.signal,
      runner,
      github
    })
    const claimed: IndexedRecord[] = []
    let elsewhere = false
    for (const indexed of open) {
      const claim = await claimRecord(place, indexed)
      if (claim === 'claimed') elsewhere = true
      else if (claim !== 'done') claimed.push({ ...indexed, record: claim.record })
    }
    return {
      elsewhere,
      tell: async () => {
        try {
          for (const indexed of claimed) await tellClaimed(place, indexed, { job })
        } catch (error) {
          failed(error)
        } finally {
          await done()
        }
      }
    }
  } catch (error) {
    failed(error)
    await done()
    return NOTHING
  }
}
