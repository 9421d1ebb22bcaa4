// The claim on a queued create, which makes it go out exactly once: a 👀 reaction on its record,
// which GitHub gives once per identity (a claim of its own, apart from the 🚀 of telling the ending),
// given up when the create was not sent; and the record's mark that it is being sent under the claim,
// written before the create goes out, so that a run that finds the claim lapsed and the mark set knows
// the create may have gone out.
import { text } from '../github/json-shape.js'
import { describeWriteFailure } from '../github/write-failure.js'
import type { RecordPayload } from '../github/signed-record.js'
import { WRITE_ACCESS } from '../kernel/write-access.js'
import { log } from '../runtime/log.js'
import type { ReportPlace } from './report-job.js'
import { ownerAndRepo } from './report-queued-place.js'

/** The reaction that claims a queued create: apart from the telling's, which the made job's ending takes later. */
const CREATE_CLAIM = 'eyes'

/** A claim on a record's create, as GitHub answered it. */
export interface Claim {
  claimed: boolean
  since: number
  reactionId: number
}

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

/** Claims the create of a record: `claimed` when GitHub gave this run the reaction first (201). */
export async function claimCreate(place: ReportPlace, commentId: number): Promise<Claim> {
  const answer = await place.octokit.rest.reactions.createForIssueComment({
    ...ownerAndRepo(place.repository),
    comment_id: commentId,
    content: CREATE_CLAIM,
    request: { signal: place.signal }
  })
  const since = Date.parse(text(answer.data.created_at))
  return {
    claimed: answer.status === 201,
    since: Number.isFinite(since) ? since : Date.now(),
    reactionId: answer.data.id
  }
}

/**
 * Gives up a claim on a create that was not sent. One that cannot be given up holds the create for its
 * lease; the record was not marked as sending under it, so the run after the lease takes it over.
 */
export async function dropCreateClaim(place: ReportPlace, commentId: number, reactionId: number): Promise<void> {
  try {
    await place.octokit.rest.reactions.deleteForIssueComment({
      ...ownerAndRepo(place.repository),
      comment_id: commentId,
      reaction_id: reactionId,
      request: { signal: place.signal }
    })
  } catch (error) {
    log.warning(
      `Could not give up the claim on a queued create: ${describeWriteFailure(error, WRITE_ACCESS.index)} ` +
        'It is tried again once the claim lapses (20 minutes).'
    )
  }
}
