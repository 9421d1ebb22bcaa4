// A reporting run started by a pull request's event (the agent's pull request opened or updated)
// tells the job that opened that pull request at once, even when its record is past the run's share:
// the records after the share are read, at most PULL_REQUEST_SCAN of them, until its job is found.
import type { Runner } from '../github/runner.js'
import type { Job } from '../service/job-record.js'
import type { JobService } from '../service/job-service.js'
import { ServiceError } from '../service/service-error.js'
import type { IndexedRecord } from './index-records.js'
import type { ReportPlace } from './report-job.js'
import { reportOne } from './report-one-record.js'
import type { ReportedRow } from './reporting-summary.js'

/**
 * The most records past a run's share read to find the job of the pull request whose event started
 * the run: a read each, and nothing told but that job.
 */
export const PULL_REQUEST_SCAN = 100

/** The page of the pull request whose event started the run (opened, synchronize), or null. */
export function pullRequestOfEvent(runner: Runner): string | null {
  const { event } = runner
  if (event.name !== 'pull_request' && event.name !== 'pull_request_target') return null
  return event.pullRequest?.htmlUrl || null
}

/**
 * The job whose pull request is `prLink`, among the records past the run's share (at most
 * PULL_REQUEST_SCAN of them, each job read once): told as the share's are; null when none is.
 */
export async function reportPullRequestJob(
  place: ReportPlace,
  service: JobService,
  rest: IndexedRecord[],
  prLink: string
): Promise<{ commentId: number; row: ReportedRow } | null> {
  for (const indexed of rest.slice(0, PULL_REQUEST_SCAN)) {
    if (indexed.record.state !== 'open') continue
    place.signal.throwIfAborted()
    let job: Job
    try {
      job = await service.getJob(indexed.record.job, place.signal)
    } catch (error) {
      // Read again, and told as usual, by a run whose share it is in.
      if (error instanceof ServiceError) continue
      throw error
    }
    if (job.prLink === prLink)
      return { commentId: indexed.commentId, row: await reportOne(place, service, indexed, job) }
  }
  return null
}
