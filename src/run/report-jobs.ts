// The reporting run's stage: the index's open records, oldest first, at most REPORT_JOBS_PER_RUN of
// them (the rest are left for the next run, as actions/stale's operations-per-run), each job read
// once, and each that has ended told where it was asked for (report-job.ts). A job the service no
// longer knows is told as such after UNKNOWN_AFTER_MISSES runs in a row read it so: a record is never
// dropped untold. A run started by a pull request's event (the agent's pull request opened or
// updated) also looks past its share for the job that opened that pull request, and tells it at once.
import type { Runner } from '../github/runner.js'
import type { ReportSettings } from '../inputs/report-settings.js'
import { openJobIndex, openIndexReader, type IndexedRecord } from '../report/job-index.js'
import type { ReportedRow } from '../report/reporting-summary.js'
import { wordServiceFailure } from '../report/service-failure-words.js'
import { ActionError } from '../runtime/errors.js'
import { log } from '../runtime/log.js'
import { isFinal, type Job } from '../service/job-record.js'
import type { JobService } from '../service/job-service.js'
import { ServiceError } from '../service/service-error.js'
import { reportPlaceOf, tellRecordedEnding, type JobEnding, type ReportPlace } from './report-job.js'
import { createQueued } from './report-queued.js'
import type { Deadline } from '../runtime/deadline.js'
import type { GitHubSession } from '../github/session.js'

/** The most jobs one reporting run reads: each is a read of the service and, once ended, a few GitHub writes. */
export const REPORT_JOBS_PER_RUN = 20

/**
 * The most records past a run's share read to find the job of the pull request whose event started
 * the run: a read each, and nothing told but that job.
 */
export const PULL_REQUEST_SCAN = 100

/** Reporting runs in a row that read a job as unknown (404) before its ending is told as such. */
export const UNKNOWN_AFTER_MISSES = 3

/** One job a reporting run read, as the summary and the `reported` output show it. */
export type ReadJob = ReportedRow

/** What a reporting run found and did. */
export interface ReportRun {
  jobs: ReadJob[]
  /** Records that failed to verify, or named another project or repository: ignored. */
  ignored: number
  /** Open records beyond this run's share, left for the next. */
  left: number
}

/** Reads the index and tells each ended job's ending (see the file's opening comment). */
export async function reportJobs(
  settings: ReportSettings,
  services: { reader: JobService; creator: JobService },
  deadline: Deadline,
  { runner, github }: { runner: Runner; github: GitHubSession }
): Promise<ReportRun> {
  const { signal } = deadline
  const { repository } = runner
  if (!/^[\w.-]+\/[\w.-]+$/.test(repository)) {
    throw new ActionError(
      'GITHUB_REPOSITORY is not set to owner/name: a reporting run runs in a workflow of the repository.'
    )
  }
  const reader = openIndexReader(github, signal)
  if (!reader) throw new ActionError('GITHUB_API_URL is not an address the token may go to: nothing can be reported.')
  try {
    const { index, octokit } = await openJobIndex(github, reader, { key: settings, repository })
    const found = await index.read()
    const pending = found.records.filter(({ record }) => record.state !== 'final')
    const share = pending.slice(0, REPORT_JOBS_PER_RUN)
    const run: ReportRun = { jobs: [], ignored: found.ignored, left: pending.length - share.length }
    if (found.issue === null || share.length === 0) return run
    const place = reportPlaceOf({ octokit, reader, index, issue: found.issue, settings, signal, runner, github })
    for (const indexed of share) {
      signal.throwIfAborted()
      const queued = indexed.record.state === 'queued'
      run.jobs.push(
        await (queued ? reportQueued(place, services, indexed, deadline) : reportOne(place, services.reader, indexed))
      )
    }
    const asking = pullRequestOfEvent(runner)
    if (asking && !run.jobs.some((job) => job.prLink === asking)) {
      const found = await reportPullRequestJob(place, services.reader, pending.slice(share.length), asking)
      if (found) {
        run.jobs.push(found)
        run.left -= 1
      }
    }
    return run
  } finally {
    await reader.close()
  }
}

/** Reads one record's job once (unless the caller just read it), and tells its ending when it has ended. */
async function reportOne(
  place: ReportPlace,
  service: JobService,
  indexed: IndexedRecord,
  read?: Job
): Promise<ReadJob> {
  const { record } = indexed
  const row = (status: string, outcome: ReadJob['outcome'], job: Job | null = null): ReadJob => ({
    id: record.job,
    status,
    prLink: job?.prLink ?? null,
    thread: record.thread?.number ?? null,
    commit: record.commit ?? null,
    outcome
  })
  let ending: JobEnding
  try {
    const job = read ?? (await service.getJob(record.job, place.signal))
    if (!isFinal(job.status)) {
      if (record.misses) await place.index.write(place.issue, indexed.commentId, { ...record, misses: 0 }, place.signal)
      return row(job.status, 'working', job)
    }
    ending = { job }
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error
    if (error.kind !== 'notFound') {
      log.warning(
        `Could not read job ${record.job}: ${wordServiceFailure(error)} It is read again by the next reporting run.`
      )
      return row('unread', 'unread')
    }
    const misses = (record.misses ?? 0) + 1
    if (misses < UNKNOWN_AFTER_MISSES) {
      log.warning(
        `The service does not know job ${record.job} (read ${misses} of ${UNKNOWN_AFTER_MISSES} times): it is read again by the next reporting run.`
      )
      await place.index.write(place.issue, indexed.commentId, { ...record, misses }, place.signal)
      return row('unread', 'unread')
    }
    ending = { unknown: unknownJobSentence(record.job, misses) }
  }
  const telling = await tellRecordedEnding(place, indexed, ending)
  const job = 'job' in ending ? ending.job : null
  return row(job?.status ?? 'unknown', telling, job)
}

/** The page of the pull request whose event started the run (opened, synchronize), or null. */
function pullRequestOfEvent(runner: Runner): string | null {
  const { event } = runner
  if (event.name !== 'pull_request' && event.name !== 'pull_request_target') return null
  return event.pullRequest?.htmlUrl || null
}

/**
 * The job whose pull request is `prLink`, among the records past the run's share (at most
 * PULL_REQUEST_SCAN of them, each job read once): told as the share's are; null when none is.
 */
async function reportPullRequestJob(
  place: ReportPlace,
  service: JobService,
  rest: IndexedRecord[],
  prLink: string
): Promise<ReadJob | null> {
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
    if (job.prLink === prLink) return reportOne(place, service, indexed, job)
  }
  return null
}

/** A queued create, tried once; once made, its job is read as the others are. */
async function reportQueued(
  place: ReportPlace,
  services: { reader: JobService; creator: JobService },
  indexed: IndexedRecord,
  deadline: Deadline
): Promise<ReadJob> {
  const asked = { prLink: null, thread: indexed.record.thread?.number ?? null, commit: indexed.record.commit ?? null }
  const result = await createQueued(place, services.creator, indexed, deadline)
  if ('queued' in result) return { id: '', status: 'queued', ...asked, outcome: 'queued' }
  if ('told' in result) return { id: '', status: 'not created', ...asked, outcome: result.told }
  return { id: result.made, status: result.status, ...asked, outcome: 'working' }
}

/** The ending of a job the service no longer knows. */
export function unknownJobSentence(jobId: string, misses: number): string {
  return (
    `The service no longer knows job ${jobId}: ${misses} reporting runs in a row read it as not found (404). ` +
    `It may have been deleted, or the project or key changed. Ask again to start a new job.`
  )
}
