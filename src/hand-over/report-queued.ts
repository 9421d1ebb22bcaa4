// A queued create (the rate limit refused it in a run that handed it over): a reporting run sends it
// exactly once, never before the service's Retry-After, and never once it was withdrawn. In order:
// the create is claimed first (a 👀 reaction on the record, which GitHub gives once per identity: a
// claim of its own, apart from the 🚀 of telling the ending), then the record is read again, so that
// whatever a run before this claim wrote is seen; the time and the thread are checked under the
// claim; the record is marked `sending` with the claim's id, then the create goes out. A made
// create's claim is never given up: a run that listed the record as queued and claims after it gets
// the claim refused. A create refused again is queued again and its claim given up; a claim older
// than the lease whose record says it was sending means the create may have gone out: it is told as
// such and never sent again. A made job becomes the thread's job at once: its reply gets the thread's
// record and says the job was created, so a request there meanwhile goes to it.
// The claim and the mark are report-queued-claim.ts, a made create's record and reply
// report-queued-made.ts, a withdrawal report-queued-withdrawal.ts.
import { failureClause, ReadFailure } from '../github/read-failure.js'
import type { GitHubReader } from '../github/reader.js'
import { describeWriteFailure } from '../github/write-failure.js'
import { Input } from '../kernel/action-names.js'
import { WRITE_ACCESS } from '../kernel/write-access.js'
import type { RecordPayload } from '../github/signed-record.js'
import type { IndexedRecord, RecordClaim } from './index-records.js'
import { dropQueuedPrompt, readQueuedPrompt } from './queued-prompt-parts.js'
import { wordServiceFailure } from '../ending/service-failure-words.js'
import type { Deadline } from '../runtime/deadline.js'
import { log } from '../runtime/log.js'
import type { JobService } from '../service/job-service.js'
import { ServiceError } from '../service/service-error.js'
import { CLAIM_LEASE_MS, tellRecordedEnding, type ReportPlace, type Telling } from './report-job.js'
import { claimCreate, dropCreateClaim, markSending } from './report-queued-claim.js'
import { recordMade } from './report-queued-made.js'
import { partsPlace } from './report-queued-place.js'
import { findWithdrawal, tellWithdrawal } from './report-queued-withdrawal.js'

/** What became of a queued create: made (the record is open now), still queued, or told as an ending. */
export type QueuedResult = { made: string; status: string } | { queued: true } | { told: Telling; reason: string }

/** The reads around one queued create: the thread and its asking comment, and a long prompt's parts. */
const QUEUED_READS = { maxRequests: 16, totalMs: 30_000, requestMs: 10_000, maxBodyBytes: 4 * 1024 * 1024 }

/** Sends the queued create of `indexed`, exactly once (see the file's opening comment). */
export async function createQueued(
  place: ReportPlace,
  creator: JobService,
  indexed: IndexedRecord,
  deadline: Deadline
): Promise<QueuedResult> {
  if (notYet(indexed.record)) return { queued: true }
  const reader = place.github.reader(QUEUED_READS, place.signal)
  if (!reader) return { queued: true }
  try {
    return await createClaimed(place, { creator, indexed, deadline, reader })
  } finally {
    await reader.close()
  }
}

async function createClaimed(
  place: ReportPlace,
  {
    creator,
    indexed,
    deadline,
    reader
  }: { creator: JobService; indexed: IndexedRecord; deadline: Deadline; reader: GitHubReader }
): Promise<QueuedResult> {
  const { index, issue, signal } = place
  const { commentId } = indexed
  let claim: RecordClaim
  try {
    claim = await claimCreate(place, commentId)
  } catch (error) {
    // GitHub may have given the claim despite its failure: then it holds the create for its lease, and
    // is taken over after it (nothing was sent under it), never sent twice.
    log.warning(
      `Could not claim the queued create: ${describeWriteFailure(error, WRITE_ACCESS.index)} The next reporting run tries it.`
    )
    return { queued: true }
  }
  // Read after the claim: what the run before it wrote (made, told, queued again) is seen.
  const now = await index.reread(issue, commentId)
  if (!now || now.state !== 'queued') return { told: 'done', reason: '' }
  if (!claim.claimed) {
    if (Date.now() - claim.since < CLAIM_LEASE_MS) return { told: 'claimed', reason: '' }
    if (now.sending === claim.reactionId) {
      // The run that claimed it started the create and never finished: it may have gone out, and is never sent again.
      log.warning(QUEUED_UNSURE)
      const told = await tellRecordedEnding(place, { commentId, record: now }, { unknown: QUEUED_UNSURE }, true)
      await dropQueuedPrompt(partsPlace(place), now, signal)
      return { told, reason: QUEUED_UNSURE }
    }
    // The claim's run never sent it (or was refused, and ended before giving its claim up): the claim goes.
    await dropCreateClaim(place, commentId, claim.reactionId)
    claim = await claimCreate(place, commentId)
    if (!claim.claimed) return { told: 'claimed', reason: '' }
  }
  if (notYet(now)) {
    await dropCreateClaim(place, commentId, claim.reactionId)
    return { queued: true }
  }
  let withdrawn: string | null
  let prompt: string | null
  try {
    withdrawn = await findWithdrawal(place, reader, now)
    prompt = withdrawn ? null : await readQueuedPrompt(reader, partsPlace(place), now)
  } catch (error) {
    if (!(error instanceof ReadFailure) || error.kind === 'cancelled') throw error
    // Unread, so unchecked: nothing is sent, and the next reporting run reads them again.
    log.warning(
      `Could not read the queued request before its create: ${failureClause(error, Input.githubToken)}. The next reporting run tries it.`
    )
    await dropCreateClaim(place, commentId, claim.reactionId)
    return { queued: true }
  }
  if (withdrawn) {
    await tellWithdrawal(place, { commentId, record: now }, withdrawn)
    return { told: 'told', reason: withdrawn }
  }
  if (!prompt) {
    const told = await tellRecordedEnding(place, { commentId, record: now }, { unknown: UNREADABLE_PROMPT }, true)
    await dropQueuedPrompt(partsPlace(place), now, signal)
    return { told, reason: UNREADABLE_PROMPT }
  }
  if (!(await markSending(place, commentId, { ...now, sending: claim.reactionId }))) {
    await dropCreateClaim(place, commentId, claim.reactionId)
    return { queued: true }
  }
  let written = false
  try {
    const job = await creator.createJob(prompt, deadline, { onSending: (inFlight) => (written ||= inFlight) })
    await recordMade(place, { commentId, record: now }, job)
    return { made: job.id, status: job.status }
  } catch (error) {
    if (!(error instanceof ServiceError)) {
      // Stopped (a cancel) before any of the create was written: it never reached the service, so the
      // claim goes, and the mark names no claim: the next run sends it.
      if (!written) await dropCreateClaim(place, commentId, claim.reactionId)
      throw error
    }
    if (error.kind === 'notTaken') {
      const notBefore = error.retryAfterMs ? new Date(Date.now() + error.retryAfterMs).toISOString() : undefined
      const { sending: _sending, ...queued } = now
      const again = { ...queued, ...(notBefore ? { notBefore } : {}) }
      // Queued again before the claim goes: a record left marked as sending would read as maybe sent.
      // Where GitHub refuses both writes the claim goes all the same, so the mark names no claim: the
      // service said it did not take the create, and the next run sends it (perhaps before the
      // Retry-After, which the service then refuses again) rather than tell it as maybe made.
      await index
        .write(issue, commentId, again, signal)
        .catch(() => index.write(issue, commentId, again, signal))
        .catch((error: unknown) => {
          if (signal.aborted) throw error
          log.warning(
            `Could not queue the refused create again: ${describeWriteFailure(error, WRITE_ACCESS.index)} ` +
              'The next reporting run sends it once more.'
          )
        })
      await dropCreateClaim(place, commentId, claim.reactionId)
      log.info(`The queued create was refused again (${wordServiceFailure(error)}): the next reporting run tries it.`)
      return { queued: true }
    }
    // Refused for good, or its answer lost (a job may exist): told, and never sent again.
    const why = wordServiceFailure(error)
    const told = await tellRecordedEnding(place, { commentId, record: now }, { unknown: why }, true)
    await dropQueuedPrompt(partsPlace(place), now, signal)
    return { told, reason: why }
  }
}

/** Whether the service's Retry-After has not passed yet. */
function notYet(record: RecordPayload): boolean {
  return !!record.notBefore && Date.parse(record.notBefore) > Date.now()
}

const QUEUED_UNSURE =
  'A reporting run started this queued create and never finished, so the job may or may not have been created; ' +
  "it is not sent again. Look for it among the project's newest jobs before asking again."

const UNREADABLE_PROMPT =
  "The queued request's prompt could not be read back from the index (a part of it is gone or does not verify), " +
  'so it is not sent. No job was created: ask again.'
