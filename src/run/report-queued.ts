// A queued create (the rate limit refused it in a run that handed it over): a reporting run tries it
// once, when the service's Retry-After (if it gave one) allows, and at most once in all: the record
// is claimed first (a reaction GitHub gives once), and a claim left by a run that never finished means
// the create may have gone out, so it is never sent again; that is told on the thread instead.
import type { RecordPayload } from '../request/signed-record.js'
import type { IndexedRecord } from '../report/job-index.js'
import { wordServiceFailure } from '../report/service-failure-words.js'
import type { Deadline } from '../runtime/deadline.js'
import { log } from '../runtime/log.js'
import type { JobService } from '../service/job-service.js'
import { ServiceError } from '../service/service-error.js'
import { CLAIM_LEASE_MS, tellRecordedEnding, type ReportPlace } from './report-job.js'

/** What became of a queued create: made (the record is open now), still queued, or told as an ending. */
export type QueuedResult =
  { made: string; status: string } | { queued: true } | { told: 'told' | 'done' | 'claimed'; reason: string }

/** Tries the queued create of `indexed` (see the file's opening comment). */
export async function createQueued(
  place: ReportPlace,
  creator: JobService,
  indexed: IndexedRecord,
  deadline: Deadline
): Promise<QueuedResult> {
  const { index, issue, signal } = place
  const record = indexed.record
  if (record.notBefore && Date.parse(record.notBefore) > Date.now()) return { queued: true }
  const now = await index.reread(issue, indexed.commentId)
  if (!now || now.state !== 'queued') return { told: 'done', reason: '' }
  const claim = await index.claim(indexed.commentId, signal)
  if (!claim.claimed) {
    if (Date.now() - claim.since < CLAIM_LEASE_MS) return { told: 'claimed', reason: '' }
    // The run that claimed it never finished: its create may have gone out, and is never sent again.
    const reason = QUEUED_UNSURE
    const told = await tellRecordedEnding(place, { ...indexed, record: now }, { unknown: reason }, true)
    return { told, reason }
  }
  const prompt = now.prompt ?? ''
  try {
    const job = await creator.createJob(prompt, deadline)
    const opened: RecordPayload = { ...withoutQueue(now), job: job.id, state: 'open' }
    await index.write(issue, indexed.commentId, opened, signal)
    await index.dropClaim(indexed.commentId, claim.reactionId, signal)
    log.info(`Created the queued job ${job.id}: it is reported like the others.`)
    return { made: job.id, status: job.status }
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error
    if (error.kind === 'notTaken') {
      const notBefore = error.retryAfterMs ? new Date(Date.now() + error.retryAfterMs).toISOString() : undefined
      await index.write(issue, indexed.commentId, { ...now, ...(notBefore ? { notBefore } : {}) }, signal)
      await index.dropClaim(indexed.commentId, claim.reactionId, signal)
      log.info(`The queued create was refused again (${wordServiceFailure(error)}): the next reporting run tries it.`)
      return { queued: true }
    }
    // Refused for good, or its answer lost (a job may exist): told, and never sent again.
    const reason = wordServiceFailure(error)
    return { told: await tellRecordedEnding(place, { ...indexed, record: now }, { unknown: reason }, true), reason }
  }
}

const QUEUED_UNSURE =
  'A reporting run started this queued create and never finished, so the job may or may not have been created; ' +
  "it is not sent again. Look for it among the project's newest jobs before asking again."

function withoutQueue(record: RecordPayload): RecordPayload {
  const { prompt: _prompt, notBefore: _notBefore, ...rest } = record
  return rest
}
