// Where a signed note is, and the primitives its signature is made and checked with: the note's place
// (this GitHub's host, the pull request, the project), the key's shape, ids percent-encoded for a
// marker, signatures compared in constant time, a prLink read as a pull request on this GitHub, and
// the reader the notes are read with. The agent's pull request's note (thread/agent-note-record.ts),
// a thread's records (github/signed-record.ts) and the group's markers (group/) are all built on them.
import { timingSafeEqual } from 'node:crypto'
import type { GitHubReader, ReadLimits } from './reader.js'
import { AGENT_PULL_REQUEST_READS, type PullRequestRef } from './pull-request-details.js'
import type { Runner } from './runner.js'
import type { GitHubSession } from './session.js'

/** What a note's signature covers besides the job: where the note is, and for which project. */
export interface NotePlace {
  /** The host of the GitHub the workflow runs on (GITHUB_SERVER_URL's). */
  host: string
  pr: PullRequestRef
  projectId: string
}

/** Who may sign and check notes: the project's API key (the settings' apiKey), from which the note key is derived. */
export interface NoteKey {
  apiKey: string
}

const { maxPages, requestTimeoutMs, totalMs } = AGENT_PULL_REQUEST_READS
const LIMITS: ReadLimits = {
  maxRequests: maxPages + 1,
  totalMs,
  requestMs: requestTimeoutMs,
  maxBodyBytes: 8 * 1024 * 1024
}

/** Where a note is, for its signature: null when this GitHub's address cannot be read. */
export function findNotePlace(
  pr: PullRequestRef,
  { projectId }: { projectId: string },
  runner: Pick<Runner, 'serverUrl'>
): NotePlace | null {
  try {
    return { host: new URL(runner.serverUrl).host, pr, projectId }
  } catch {
    return null
  }
}

/** A job id as the marker holds it: percent-encoded, so no id can end the HTML comment or hold a blank. */
export function encodeId(jobId: string): string {
  return encodeURIComponent(jobId).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}

export function decodeId(encoded: string): string | null {
  try {
    return decodeURIComponent(encoded)
  } catch {
    return null
  }
}

/** Compares two signatures in constant time. */
export function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * The pull request a prLink names, when it is one on this GitHub (`serverUrl`'s host):
 * `https://host/owner/repo/pull/7`. A link to another host (GitLab, another GitHub) is not ours to note.
 */
export function parsePullRequestLink(prLink: string, serverUrl: string): PullRequestRef | null {
  let server: URL
  try {
    server = new URL(serverUrl)
  } catch {
    return null
  }
  const prefix = `https://${server.host}/`
  if (!prLink.startsWith(prefix)) return null
  const found = /^([A-Za-z0-9][A-Za-z0-9-]*)\/([A-Za-z0-9._-]+)\/pull\/([1-9][0-9]{0,9})$/.exec(
    prLink.slice(prefix.length)
  )
  return found ? { owner: found[1], repo: found[2], number: Number(found[3]) } : null
}

/** A reader of GitHub's API within the agent's pull request's limits; null when GITHUB_API_URL is unusable. */
export function openReader(github: Pick<GitHubSession, 'reader'>, signal: AbortSignal): GitHubReader | null {
  return github.reader(LIMITS, signal)
}
