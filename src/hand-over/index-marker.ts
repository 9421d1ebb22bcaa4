// The index issue's own signed marker: one hidden line in its body that says "this is the index the
// action made, for this project, in this issue", and holds the index's state (the reporting workflow
// and whether it is on, the rotation's cursor, the open jobs as last seen, the endings told lately:
// what the dashboard shows). It is signed with an HMAC keyed from the API key over this GitHub's
// host, the repository, the issue's number, the project and the payload, and written after the issue
// is made (its number is in the signature). A label put on another issue, or the body copied into
// one, makes no index: without the key nobody signs a marker, and a marker verifies in its own issue
// only. What the signature proves is in docs/security.md.
import { decodePayload, encodePayload, signFields } from '../safety/sign-fields.js'
import { asArray, asObject, count, sha, text } from '../github/json-shape.js'
import { sameText } from '../github/note-place.js'
import { pullRequestLink } from '../service/pull-request-link.js'
import { isJobId } from '../safety/job-id.js'

/** Which index a marker is for: the key it is signed with, and where. */
export interface IndexAddress {
  key: { apiKey: string }
  /** This GitHub's host (GITHUB_SERVER_URL's). */
  host: string
  /** owner/name. */
  repository: string
  issue: number
  projectId: string
}

/** A job the index holds a record of, as the dashboard last showed it. */
export interface OpenEntry {
  /** The record's comment. */
  comment: number
  /** '' for a create that waits (queued). */
  job: string
  /** When it was handed over (ISO time). */
  since: string
  /** Its status as last read (`queued`, `active`, …). */
  status: string
  thread?: { number: number; comment: number }
  commit?: string
}

/** An ending told, for the dashboard's list of recent endings. */
export interface RecentEntry {
  /** The record's comment (gone once told): two runs never list one ending twice. */
  comment: number
  job: string
  status: string
  prLink?: string
  thread?: { number: number; comment: number }
  commit?: string
  /** When it was told (ISO time). */
  at: string
}

/** The index's state, kept in its marker. */
export interface IndexState {
  /** The reporting workflow's file, as its run named itself (`.github/workflows/report-later.yml`); null before one ran. */
  workflow: string | null
  /** Whether the workflow was left on. */
  on: boolean
  /** False once GitHub refused to turn it off (no `actions: write`): it then stays on, on its schedule. */
  switchable: boolean
  /** The last record the previous reporting run read: the next run's share starts after it. */
  cursor: number
  open: OpenEntry[]
  /** Newest first, at most MAX_RECENT. */
  recent: RecentEntry[]
}

/** How many endings the dashboard keeps; how many open jobs it lists (the records themselves are all read). */
export const MAX_RECENT = 15
export const MAX_OPEN_SHOWN = 50

/** The state of an index no reporting run has written yet. */
export function emptyIndexState(): IndexState {
  return { workflow: null, on: true, switchable: true, cursor: 0, open: [], recent: [] }
}

const VERSION = 'docs-agent-index-v1'
const LINE = /<!-- docs-agent-index: ([A-Za-z0-9_-]{1,60000}) v1\.([A-Za-z0-9_-]{1,100}) -->/g

/** The hidden line that holds `state`, signed for the index at `address`. */
export function signIndexMarker(address: IndexAddress, state: IndexState): string {
  const bounded = { ...state, open: state.open.slice(0, MAX_OPEN_SHOWN), recent: state.recent.slice(0, MAX_RECENT) }
  const encoded = encodePayload(bounded)
  return `<!-- docs-agent-index: ${encoded} v1.${markerSignature(address, encoded)} -->`
}

/** The state in `body`'s marker when one verifies for `address`; null when none does. */
export function readIndexMarker(body: string, address: IndexAddress): IndexState | null {
  let found: IndexState | null = null
  for (const [, encoded, signature] of body.matchAll(LINE)) {
    if (!sameText(signature, markerSignature(address, encoded))) continue
    found = decodeState(encoded) ?? found
  }
  return found
}

/** Whether `body` holds a line shaped as a marker at all (a copy, or another project's index). */
export function looksLikeIndex(body: string): boolean {
  return new RegExp(LINE.source).test(body)
}

function markerSignature({ key, host, repository, issue, projectId }: IndexAddress, encoded: string): string {
  return signFields(key.apiKey, VERSION, [host.toLowerCase(), repository.toLowerCase(), issue, projectId, encoded])
}

function decodeState(encoded: string): IndexState | null {
  const raw = asObject(decodePayload(encoded))
  if (raw.v !== 1) return null
  const workflow = text(raw.workflow)
  return {
    workflow: /^\.github\/workflows\/[^/]+\.ya?ml$/.test(workflow) ? workflow : null,
    on: raw.on !== false,
    switchable: raw.switchable !== false,
    cursor: count(raw.cursor) ?? 0,
    open: asArray(raw.open)
      .map(readOpen)
      .filter((e): e is OpenEntry => e !== null),
    recent: asArray(raw.recent)
      .map(readRecent)
      .filter((e): e is RecentEntry => e !== null)
  }
}

function readWhere(raw: Record<string, unknown>): Pick<OpenEntry, 'thread' | 'commit'> {
  const thread = asObject(raw.thread)
  const number = count(thread.number)
  const comment = count(thread.comment)
  const commit = sha(raw.commit)
  return {
    ...(number !== undefined && comment !== undefined ? { thread: { number, comment } } : {}),
    ...(commit ? { commit } : {})
  }
}

function readOpen(value: unknown): OpenEntry | null {
  const raw = asObject(value)
  const comment = count(raw.comment)
  const job = text(raw.job)
  if (comment === undefined || (job !== '' && !isJobId(job))) return null
  return { comment, job, since: text(raw.since), status: text(raw.status).slice(0, 40), ...readWhere(raw) }
}

function readRecent(value: unknown): RecentEntry | null {
  const raw = asObject(value)
  const comment = count(raw.comment)
  const job = text(raw.job)
  if (comment === undefined || !isJobId(job)) return null
  const prLink = pullRequestLink(text(raw.prLink))
  return {
    comment,
    job,
    status: text(raw.status).slice(0, 40),
    ...(prLink ? { prLink } : {}),
    ...readWhere(raw),
    at: text(raw.at)
  }
}
