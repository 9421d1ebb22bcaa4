// One record of a reporting run's share, read and told: its job read once (or its queued create tried
// once, report-queued.ts), and, when it has ended, its ending told where it was asked for
// (report-job.ts). A job the service no longer knows is told as such only after UNKNOWN_AFTER_MISSES
// runs in a row read it so, the count kept in its record: a record is never dropped untold. Each
// record gives one row of the run's summary and outputs.
import { describeWriteFailure } from '../github/write-failure.js'
import { wordServiceFailure } from '../ending/service-failure-words.js'
import { WRITE_ACCESS } from '../kernel/write-access.js'
import type { Deadline } from '../runtime/deadline.js'
import { ActionError } from '../runtime/errors.js'
import { log } from '../runtime/log.js'
import { isFinal, type Job } from '../service/job-record.js'
import type { JobService } from '../service/job-service.js'
import { ServiceError } from '../service/service-error.js'
import type { IndexedRecord } from './index-records.js'
import { tellRecordedEnding, type JobEnding, type ReportPlace } from './report-job.js'
import { createQueued } from './report-queued.js'
import type { ReportedRow } from './reporting-summary.js'

/** Reporting runs in a row that read a job as unknown (404) before its ending is told as such. */
export const UNKNOWN_AFTER_MISSES = 3

/** Reads one record's job once (unless the caller just read it), and tells its ending when it has ended. */
export async function reportOne(
  place: ReportPlace,
  service: Pick<JobService, 'getJob'>,
  indexed: IndexedRecord,
  read?: Job
): Promise<ReportedRow> {
  const { record } = indexed
  const row = (status: string, outcome: ReportedRow['outcome'], job: Job | null = null): ReportedRow => ({
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
      if (record.misses) await countMisses(place, indexed, 0)
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
      await countMisses(place, indexed, misses)
      return row('unread', 'unread')
    }
    ending = { unknown: unknownJobSentence(record.job, misses) }
  }
  const telling = await tellRecordedEnding(place, indexed, ending)
  const job = 'job' in ending ? ending.job : null
  return row(job?.status ?? 'unknown', telling, job)
}

/**
 * Writes how many runs in a row read the record's job as unknown. Never throws but for a cancel: a
 * count GitHub did not take is a warning, and the record stays open with the count it had (the job
 * is told as unknown a run later, never dropped).
 */
async function countMisses(place: ReportPlace, indexed: IndexedRecord, misses: number): Promise<void> {
  try {
    await place.index.write(place.issue, indexed.commentId, { ...indexed.record, misses }, place.signal)
  } catch (error) {
    if (place.signal.aborted) throw error
    log.warning(
      `Could not write in job ${indexed.record.job}'s record how many runs read it as unknown: ` +
        `${describeWriteFailure(error, WRITE_ACCESS.index)} Its record stays open, and the next reporting run reads it again.`
    )
  }
}

/** A queued create, tried once; once made, its job is read as the others are. */
export async function reportQueued(
  place: ReportPlace,
  services: { reader: JobService; creator: JobService },
  indexed: IndexedRecord,
  deadline: Deadline
): Promise<ReportedRow> {
  const asked = { prLink: null, thread: indexed.record.thread?.number ?? null, commit: indexed.record.commit ?? null }
  let result: Awaited<ReturnType<typeof createQueued>>
  try {
    result = await createQueued(place, services.creator, indexed, deadline)
  } catch (error) {
    // A GitHub write of the queued path that failed (a 5xx): one record's, not the run's; the others are told.
    if (place.signal.aborted || error instanceof ActionError) throw error
    log.warning(
      `Could not finish the queued request of record ${indexed.commentId}: ${describeWriteFailure(error, WRITE_ACCESS.index)} ` +
        'Its record stays in the index, for a later reporting run.'
    )
    return { id: '', status: 'queued', ...asked, outcome: 'unfinished' }
  }
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
