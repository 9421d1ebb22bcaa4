// A queued request withdrawn before its create is never made: the comment that asked is gone
// (deleted), or the thread was closed as not planned, or closed and locked. Read right before the
// create; once found, the reply says why no job was made and the record is finished.
import { asObject, text } from '../github/json-shape.js'
import { repositoryPath } from '../github/pull-request-ref.js'
import { ReadFailure } from '../github/read-failure.js'
import type { GitHubReader } from '../github/reader.js'
import type { RecordPayload } from '../github/signed-record.js'
import { describeWriteFailure } from '../github/write-failure.js'
import { writeWithdrawnReply } from '../ending/thread-words.js'
import { WRITE_ACCESS } from '../kernel/write-access.js'
import { timeLimit } from '../runtime/deadline.js'
import { log } from '../runtime/log.js'
import type { IndexedRecord } from './index-records.js'
import { dropQueuedPrompt } from './queued-prompt-parts.js'
import type { ReportPlace } from './report-job.js'
import { ownerAndRepo, partsPlace, REPLY_CALL_MS } from './report-queued-place.js'

/**
 * Why the request was withdrawn, read right before its create; null while it stands. Withdrawn: the
 * comment that asked is gone (deleted), or the thread was closed as not planned, or closed and locked.
 */
export async function findWithdrawal(
  place: ReportPlace,
  reader: GitHubReader,
  record: RecordPayload
): Promise<string | null> {
  const asking = record.asking
  if (!asking) return null
  const repo = repositoryPath(ownerAndRepo(place.repository))
  if (asking.comment !== undefined) {
    const path = `${repo}/${asking.onDiff ? 'pulls' : 'issues'}/comments/${asking.comment}`
    if (await isGone(reader, path, 'the comment that asked')) return withdrawnSentence(asking.number, 'deleted')
  }
  const thread = asObject(await reader.get(`${repo}/issues/${asking.number}`, 'the thread that asked', 'issues: read'))
  if (thread.state !== 'closed') return null
  if (text(thread.state_reason) === 'not_planned') return withdrawnSentence(asking.number, 'not planned')
  if (thread.locked === true) return withdrawnSentence(asking.number, 'locked')
  return null
}

/**
 * Tells a withdrawal: the reply says why no job was made, the record is finished (listed on the
 * dashboard, then leaves the index), its prompt's parts are deleted. A queued request set no commit
 * status, so none is left pending. A failed reply is a warning: the record is finished all the same.
 */
export async function tellWithdrawal(place: ReportPlace, indexed: IndexedRecord, reason: string): Promise<void> {
  const { record } = indexed
  const reply = record.thread
  if (reply) {
    const limit = timeLimit(REPLY_CALL_MS, place.signal)
    try {
      await place.octokit.rest.issues.updateComment({
        ...ownerAndRepo(place.repository),
        comment_id: reply.comment,
        body: writeWithdrawnReply(reason, place.settings.noteTrigger, place.runUrl),
        request: { signal: limit.signal }
      })
    } catch (error) {
      log.warning(
        `Could not tell on the reply on #${reply.number} that its queued request was withdrawn: ` +
          describeWriteFailure(error, WRITE_ACCESS.thread)
      )
    } finally {
      limit.clear()
    }
  }
  await place.index.finish(place.issue, indexed, { status: 'withdrawn', prLink: null }, place.signal)
  await dropQueuedPrompt(partsPlace(place), record, place.signal)
  log.info(reason)
}

async function isGone(reader: GitHubReader, path: string, what: string): Promise<boolean> {
  try {
    await reader.get(path, what, 'issues: read')
    return false
  } catch (error) {
    if (error instanceof ReadFailure && error.status === 404) return true
    throw error
  }
}

/** The ending of a queued request withdrawn before its create. */
function withdrawnSentence(thread: number, how: 'deleted' | 'not planned' | 'locked'): string {
  const why =
    how === 'deleted'
      ? `the comment that asked for it on #${thread} was deleted`
      : how === 'not planned'
        ? `#${thread}, where it was asked for, was closed as not planned`
        : `#${thread}, where it was asked for, was closed and locked`
  return `The queued request was withdrawn before its job was created: ${why}. No job was created, and none will be.`
}
