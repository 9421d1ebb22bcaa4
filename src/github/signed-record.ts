// Signed records bound to the comment that holds them. A record is a small versioned JSON payload
// (the job, its state, where to report) in a hidden line of a comment the action wrote, signed with
// an HMAC keyed from the API key over this GitHub's host, the repository, the thread's number, the
// project, what the record is for (its kind), the id of the comment that holds it, and the payload.
// The action posts a comment first, then edits the record in with that comment's id: a copy re-posted
// by anyone (another comment, so another id) verifies for nothing, so the action never trusts, nor
// edits, another author's comment. What the signature proves is in docs/security.md.
import { decodePayload as decodeJson, encodePayload, signFields } from '../safety/sign-fields.js'
import { asObject, count, sha, text } from './json-shape.js'
import { scanCommentsNewestFirst, type CommentPagesOptions, type ThreadRef } from './comment-pages.js'
import type { GitHubReader } from './reader.js'
import { isJobId } from '../safety/job-id.js'
import { findNotePlace, sameText } from './note-place.js'
import type { Runner } from './runner.js'

/**
 * What a record is for: its kind is signed, so a record of one kind never reads as another. A
 * `prompt` line is no record: it holds one part of a queued create's prompt (hand-over/queued-prompt.ts).
 */
export type RecordKind = 'thread' | 'index' | 'group' | 'prompt'

/**
 * `open` while the job works or is followed; `final` once its ending is told; `queued` for a create
 * the service refused with a 429 in a run that hands its job over (no job yet).
 */
export type RecordState = 'open' | 'final' | 'queued'

/** The record's payload (version 1). Fields a reader does not know are dropped. */
export interface RecordPayload {
  /** The job ('' only while `queued`). */
  job: string
  state: RecordState
  /** When the record was first written (ISO time). */
  created: string
  /** Where to report on a thread: the or pull request's number, and the reply's comment id. */
  thread?: { number: number; comment: number }
  /** The group's name and mark, for a group's record. */
  group?: string
  mark?: string
  /** The commit whose status tells the ending. */
  commit?: string
  /** A queued create's prompt, secrets blanked, when it fits in the record (else promptParts). */
  prompt?: string
  /**
   * A longer queued prompt: the comments in the index that hold its parts, in order, and the digest of
   * the parts together (hand-over/queued-prompt.ts).
   */
  promptParts?: number[]
  promptDigest?: string
  /** Where a queued request was asked: the thread, and the comment that asked (gone: withdrawn). */
  asking?: { number: number; comment?: number; onDiff?: boolean }
  /** A queued create about to be sent under this claim (its reaction's id): sent, maybe, if the claim's run never finished. */
  sending?: number
  /** A digest of the request text that asked for the job (an issue's title and body), to know it again. */
  asked?: string
  /** A queued create is not tried before this time (ISO time), from the service's Retry-After. */
  notBefore?: string
  /** How many reporting runs in a row read the job as unknown to the service (404). */
  misses?: number
  /** Once final: the ending told (the job's status, or `unknown`). */
  told?: string
  /** Who asked, for the note a reporting run leaves: the asking run's id, and what asked, worded by that run. */
  askedBy?: { run?: string; what: string }
  /** Once final: the pull request the job opened, for the index's list of endings. */
  prLink?: string
}

/** What a record's signature covers besides its kind, its comment and its payload. */
export interface RecordPlace {
  /** The host of the GitHub the workflow runs on (GITHUB_SERVER_URL's). */
  host: string
  /** The thread (issue or pull request) that holds the record. */
  thread: ThreadRef
  projectId: string
}

/** Who may sign and check records: the project's API key, from which the record key is derived. */
export type RecordKey = { apiKey: string }

/** What a record's signature is bound to: the key it is signed with, its place, its kind and the comment that holds it. */
export interface RecordAddress {
  key: RecordKey
  place: RecordPlace
  kind: RecordKind
  commentId: number
}

/** A record that verified, with the comment that holds it. */
export interface FoundRecord {
  record: RecordPayload
  commentId: number
}

const VERSION = 'docs-agent-record-v1'
const STATES: readonly RecordState[] = ['open', 'final', 'queued']
/** A comment holds at most 65,536 characters; a queued prompt is the largest part of a record. */
export const MAX_ENCODED = 60_000
const LINE = new RegExp(
  `<!-- docs-agent-record: (thread|index|group|prompt) ([A-Za-z0-9_-]{1,${MAX_ENCODED}}) v1\\.([A-Za-z0-9_-]{1,100}) -->`,
  'g'
)

/**
 * The hidden line that holds `payload` in the comment `commentId` at `place`, signed. It holds
 * neither the API key nor the key it is signed with.
 */
export function signRecord(address: RecordAddress, payload: RecordPayload): string {
  const encoded = encodePayload(payload)
  return `<!-- docs-agent-record: ${address.kind} ${encoded} v1.${recordSignature(address, encoded)} -->`
}

/**
 * The records of `kind` in the body of the comment `commentId` at `place`: those that verify (in
 * the order written), and how many lines looked like records and did not (a copy from another
 * comment, another place or project, a rotated key, a forgery, a payload of the wrong shape).
 */
export function readRecords(body: string, address: RecordAddress): { records: RecordPayload[]; unverified: number } {
  const { kind } = address
  const records: RecordPayload[] = []
  let unverified = 0
  for (const [, lineKind, encoded, signature] of body.matchAll(LINE)) {
    if (lineKind !== kind) continue
    const record = sameText(signature, recordSignature(address, encoded)) ? decodePayload(encoded) : null
    if (record) records.push(record)
    else unverified++
  }
  return { records, unverified }
}

/** The hidden line that holds `part` (base64url text) of a queued prompt in the comment the address names, signed. */
export function signPromptPart(address: Omit<RecordAddress, 'kind'>, part: string): string {
  const signed = { ...address, kind: 'prompt' as const }
  return `<!-- docs-agent-record: prompt ${part} v1.${recordSignature(signed, part)} -->`
}

/** The part of a queued prompt the comment the address names holds, when its line verifies; null otherwise. */
export function readPromptPart(body: string, address: Omit<RecordAddress, 'kind'>): string | null {
  const signed = { ...address, kind: 'prompt' as const }
  for (const [, lineKind, encoded, signature] of body.matchAll(LINE)) {
    if (lineKind === 'prompt' && sameText(signature, recordSignature(signed, encoded))) return encoded
  }
  return null
}

/** `body` with its record lines of `kind` replaced by `line` (or `line` added at its end when it has none). */
export function withRecord(body: string, kind: RecordKind, line: string): string {
  const others = body.replace(LINE, (whole, lineKind: string) => (lineKind === kind ? '' : whole)).trimEnd()
  return `${others}\n${line}`
}

/**
 * The newest record of `kind` that verifies among the thread's comments (read newest first, within
 * `pages.maxPages`: see scanCommentsNewestFirst), how many did not verify on the way, and whether the
 * search was complete (no page newer than the record, or than the oldest page read, went unread).
 * A failed read throws its ReadFailure.
 */
export async function findNewestRecord(
  reader: GitHubReader,
  { key, place, kind, pages }: Omit<RecordAddress, 'commentId'> & { pages: CommentPagesOptions }
): Promise<{ found: FoundRecord | null; unverified: number; complete: boolean }> {
  let found: FoundRecord | null = null
  let unverified = 0
  const scan = await scanCommentsNewestFirst(reader, place.thread, pages, (comment) => {
    const read = readRecords(comment.body, { key, place, kind, commentId: comment.id })
    unverified += read.unverified
    const record = read.records.at(-1)
    if (record) found = { record, commentId: comment.id }
    return found !== null
  })
  return { found, unverified, complete: scan.complete }
}

/**
 * HMAC-SHA256 under a key derived from the API key (HMAC(apiKey, "docs-agent-record-v1")), over the
 * host, the repository, the thread's number, the project, the kind, the comment's id and the encoded
 * payload. Names are compared as GitHub does, whatever their case.
 */
function recordSignature({ key, place, kind, commentId }: RecordAddress, encoded: string) {
  return signFields(key.apiKey, VERSION, [
    place.host.toLowerCase(),
    `${place.thread.owner}/${place.thread.repo}`.toLowerCase(),
    place.thread.number,
    place.projectId,
    kind,
    commentId,
    encoded
  ])
}

/** The payload, checked field by field; null when it is not a version 1 record of the right shape. */
function decodePayload(encoded: string): RecordPayload | null {
  const raw = asObject(decodeJson(encoded))
  const state = STATES.find((s) => s === raw.state)
  const job = text(raw.job)
  if (raw.v !== 1 || !state || (job === '' ? state !== 'queued' : !isJobId(job))) return null
  const record: RecordPayload = { job, state, created: text(raw.created) }
  const thread = asObject(raw.thread)
  const number = count(thread.number)
  const comment = count(thread.comment)
  if (number !== undefined && comment !== undefined) record.thread = { number, comment }
  const misses = count(raw.misses)
  if (misses !== undefined) record.misses = misses
  const sending = count(raw.sending)
  if (sending !== undefined) record.sending = sending
  const parts = Array.isArray(raw.promptParts) ? raw.promptParts.map(count) : []
  if (parts.length && parts.every((part) => part !== undefined)) record.promptParts = parts as number[]
  const asking = asObject(raw.asking)
  const askedOn = count(asking.number)
  if (askedOn !== undefined) {
    const comment = count(asking.comment)
    record.asking = {
      number: askedOn,
      ...(comment !== undefined ? { comment } : {}),
      ...(asking.onDiff === true ? { onDiff: true } : {})
    }
  }
  for (const field of ['group', 'mark', 'prompt', 'promptDigest', 'asked', 'notBefore', 'told', 'prLink'] as const) {
    if (typeof raw[field] === 'string') record[field] = raw[field]
  }
  if (sha(raw.commit)) record.commit = sha(raw.commit)
  const askedBy = asObject(raw.askedBy)
  if (typeof askedBy.what === 'string') {
    record.askedBy = { what: askedBy.what, ...(typeof askedBy.run === 'string' ? { run: askedBy.run } : {}) }
  }
  return record
}

/** Where a record is, for its signature: null when this GitHub's address (GITHUB_SERVER_URL) cannot be read. */
export function findRecordPlace(
  thread: ThreadRef,
  { projectId }: { projectId: string },
  runner: Pick<Runner, 'serverUrl'>
): RecordPlace | null {
  // The same host, read the same way, as a note's place.
  const note = findNotePlace(thread, { projectId }, runner)
  return note && { host: note.host, thread, projectId }
}
