// The claim on a queued create, which makes it go out exactly once: a 👀 reaction on its record,
// which GitHub gives once per identity (a claim of its own, apart from the 🚀 of telling the ending),
// given up when the create was not sent; and the record's mark that it is being sent under the claim,
// written before the create goes out, so that a run that finds the claim lapsed and the mark set knows
// the create may have gone out.
import { describeWriteFailure } from '../github/write-failure.js'
import type { RecordPayload } from '../github/signed-record.js'
import { WRITE_ACCESS } from '../kernel/write-access.js'
import { timeLimit } from '../runtime/deadline.js'
import { log } from '../runtime/log.js'
import type { ReportPlace } from './report-job.js'
import type { RecordClaim } from './index-records.js'

/**
 * Marks the record as sending under the claim; false when the mark could not be written (nothing is
 * sent then). A write GitHub may have made despite its failure is read back.
 */
export async function markSending(place: ReportPlace, commentId: number, marked: RecordPayload): Promise<boolean> {
  const { index, issue, signal } = place
  try {
    await index.write(issue, commentId, marked, signal)
    return true
  } catch (error) {
    const back = await index.reread(issue, commentId).catch(() => null)
    if (back?.sending === marked.sending && back?.state === 'queued') return true
    log.warning(
      `Could not mark the queued create as being sent: ${describeWriteFailure(error, WRITE_ACCESS.index)} ` +
        'It is not sent; the next reporting run tries it.'
    )
    return false
  }
}

/** Claims the create of a record (index-records.ts): `claimed` when GitHub gave this run the reaction first (201). */
export async function claimCreate(place: ReportPlace, commentId: number): Promise<RecordClaim> {
  return await place.index.claim(commentId, place.signal, 'create')
}

/**
 * Gives up a claim on a create that was not sent, within its own short bound (a cancel has aborted the
 * run's signal by then, yet a mark left naming the claim would tell the create as maybe sent). One
 * that cannot be given up holds the create for its lease; the record was not marked as sending under
 * it, so the run after the lease takes it over.
 */
export async function dropCreateClaim(place: ReportPlace, commentId: number, reactionId: number): Promise<void> {
  const limit = timeLimit(DROP_CLAIM_MS)
  try {
    await place.index.dropClaim(commentId, reactionId, limit.signal)
  } catch (error) {
    log.warning(
      `Could not give up the claim on a queued create: ${describeWriteFailure(error, WRITE_ACCESS.index)} ` +
        'It is tried again once the claim lapses (20 minutes).'
    )
  } finally {
    limit.clear()
  }
}

/** How long giving up a claim may take, a cancelled run's included. */
const DROP_CLAIM_MS = 3000
