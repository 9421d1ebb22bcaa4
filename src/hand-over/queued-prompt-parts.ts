// The comments of the index that hold a long queued prompt (hand-over/queued-prompt.ts): written by the
// run that queues the create, before its record (which lists them), read back by the reporting run
// that sends it, and deleted once the create is made or told: the index keeps no prompt it needs no more.
import { asObject, text } from '../github/json-shape.js'
import type { Octokit } from '../github/octokit.js'
import { repositoryPath } from '../github/pull-request-ref.js'
import type { GitHubReader } from '../github/reader.js'
import { packPrompt, unpackPrompt } from './queued-prompt.js'
import {
  readPromptPart,
  signPromptPart,
  type RecordKey,
  type RecordPayload,
  type RecordPlace
} from '../github/signed-record.js'
import { log } from '../runtime/log.js'
import { randomUUID } from 'node:crypto'
import { writeTwice } from '../github/post-note.js'
import { mayHaveWritten } from '../github/write-failure.js'

/** Where the parts are: the index issue (its place, for the signatures), and the key they are signed with. */
export interface PartsPlace {
  octokit: Octokit
  key: RecordKey
  place: RecordPlace
}

/** What a person reads on a part's comment. */
const PART_TEXT = '📋 Part of a queued documentation agent request, kept until a reporting run creates its job.'

/**
 * The record with its prompt kept: in the record itself when it fits, else in comments of its own
 * (posted, then signed for their own ids), which the record then lists. A prompt that cannot be kept
 * at all was never queued (follow/send-and-follow.ts): it throws.
 */
export async function keepQueuedPrompt(
  { octokit, key, place }: PartsPlace,
  record: RecordPayload,
  signal: AbortSignal
): Promise<RecordPayload> {
  if (!record.prompt) return record
  const packed = packPrompt(record.prompt)
  if ('inline' in packed) return record
  if ('tooLong' in packed) throw new Error('A prompt too long to keep was queued.')
  const { owner, repo } = place.thread
  const ids: number[] = []
  for (const part of packed.parts) {
    const commentId = await postPart({ octokit, place }, signal)
    const line = signPromptPart({ key, place, commentId }, part)
    await writeTwice(signal, (limited) =>
      octokit.rest.issues.updateComment({
        owner,
        repo,
        comment_id: commentId,
        body: `${line}\n${PART_TEXT}`,
        request: { signal: limited }
      })
    )
    ids.push(commentId)
  }
  const { prompt: _prompt, ...rest } = record
  return { ...rest, promptParts: ids, promptDigest: packed.digest }
}

/**
 * Posts a part's comment, still unsigned; one GitHub may have made despite its error (a 5xx, no
 * answer) is looked for by the marker only it holds, never posted twice.
 */
async function postPart({ octokit, place }: Omit<PartsPlace, 'key'>, signal: AbortSignal): Promise<number> {
  const { owner, repo, number } = place.thread
  const marker = `<!-- docs-agent-part-pending: ${randomUUID()} -->`
  const since = new Date(Date.now() - 60_000).toISOString()
  try {
    const posted = await octokit.rest.issues.createComment({
      owner,
      repo,
      issue_number: number,
      body: `${PART_TEXT}\n${marker}`,
      request: { signal }
    })
    return posted.data.id
  } catch (error) {
    if (!mayHaveWritten(error) || signal.aborted) throw error
    const listed = await octokit.rest.issues.listComments({
      owner,
      repo,
      issue_number: number,
      since,
      per_page: 100,
      request: { signal }
    })
    const found = listed.data.find((comment) => (comment.body ?? '').includes(marker))
    if (!found) throw error
    return found.id
  }
}

/**
 * The prompt a queued record keeps, read back: its own, or its parts' (each read once, each verified
 * for its comment, the whole for the record's digest); null when a part is gone or does not add up.
 */
export async function readQueuedPrompt(
  reader: GitHubReader,
  { key, place }: Omit<PartsPlace, 'octokit'>,
  record: RecordPayload
): Promise<string | null> {
  if (!record.promptParts) return record.prompt || null
  if (!record.promptDigest) return null
  const parts: string[] = []
  for (const commentId of record.promptParts) {
    const path = `${repositoryPath(place.thread)}/issues/comments/${commentId}`
    let body: string
    try {
      body = text(asObject(await reader.get(path, 'a part of a queued prompt', 'issues: read')).body)
    } catch (error) {
      if ((error as { status?: unknown }).status === 404) return null
      throw error
    }
    const part = readPromptPart(body, { key, place, commentId })
    if (part === null) return null
    parts.push(part)
  }
  return unpackPrompt(parts, record.promptDigest)
}

/** Deletes the comments that held a queued prompt, once it is needed no more; one that cannot be deleted is only clutter. */
export async function dropQueuedPrompt(
  { octokit, place }: Omit<PartsPlace, 'key'>,
  record: RecordPayload,
  signal: AbortSignal
): Promise<void> {
  const { owner, repo } = place.thread
  for (const commentId of record.promptParts ?? []) {
    try {
      await octokit.rest.issues.deleteComment({ owner, repo, comment_id: commentId, request: { signal } })
    } catch (error) {
      log.debug(`Could not delete comment ${commentId}, part of a queued prompt no longer needed: ${String(error)}`)
    }
  }
}
