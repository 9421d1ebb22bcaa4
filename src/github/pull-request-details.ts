// What the agent did, as GitHub shows it: the title, state, files changed and lines added and removed
// of the pull request a job opened, for the summary and the final reply. One bounded read of
// `GET /repos/{owner}/{repo}/pulls/{number}` with the run's token, on the GitHub the workflow runs on;
// a pull request the token may not read (403, 404) is one debug line, never a warning: the run shows
// the bare link, as before. The answer is outside text: its shape is checked, its title neutralised.
import { pullRequestName, type PullRequestRef, repositoryPath } from './pull-request-ref.js'
import { UNUSABLE_API_URL, type ReadLimits } from './reader.js'
import type { GitHubSession } from './session.js'
import { asObject, count, text } from './json-shape.js'
import { failureClause, ReadFailure } from './read-failure.js'
import { log } from '../runtime/log.js'
import { neutralise } from '../safety/neutralise.js'

export type { PullRequestRef } from './pull-request-ref.js'

/**
 * The reads of the agent's own pull request: its comments are read to find the job's note, before a
 * follow-up and before the note is left (thread/agent-note-record.ts), at most `maxPages` pages of
 * `perPage` comments (the note comes early in a pull request's life), each request and all of them
 * within their limits. Once the job has completed, the pull request itself is read once for the
 * summary and the reply (below), within `requestTimeoutMs`.
 */
export const AGENT_PULL_REQUEST_READS = { maxPages: 5, perPage: 100, requestTimeoutMs: 5000, totalMs: 8000 } as const

/** Where the pull request is in its life: `draft` and `merged` are said before open and closed. */
export type PullRequestState = 'open' | 'draft' | 'merged' | 'closed'

/** The pull request as GitHub showed it, checked. */
export interface PullRequestDetails {
  number: number
  /** Neutralised: one line, no control character or workflow command, secrets blanked, at most 200 characters. */
  title: string
  state: PullRequestState
  changedFiles: number
  additions: number
  deletions: number
}

/** The longest title shown: a title is at most 256 characters on GitHub, but the summary row is one line. */
const MAX_TITLE = 200

/** One request, bounded like the other reads of the agent's pull request; a pull request's JSON is a few KB. */
export const DETAILS_LIMITS: ReadLimits = {
  maxRequests: 1,
  totalMs: AGENT_PULL_REQUEST_READS.requestTimeoutMs,
  requestMs: AGENT_PULL_REQUEST_READS.requestTimeoutMs,
  maxBodyBytes: 1024 * 1024
}

/**
 * The details in GitHub's answer, when it has the shape of the pull request asked for: its number, a
 * title, a state of open or closed, and counts of files and lines. Null otherwise.
 */
export function pullRequestDetails(answer: unknown, number: number): PullRequestDetails | null {
  const pull = asObject(answer)
  const changedFiles = count(pull.changed_files)
  const additions = count(pull.additions)
  const deletions = count(pull.deletions)
  const title = neutralise(text(pull.title), MAX_TITLE)
  if (pull.number !== number || !title || changedFiles === undefined || additions === undefined) return null
  if (deletions === undefined || (pull.state !== 'open' && pull.state !== 'closed')) return null
  const merged = pull.merged === true || (typeof pull.merged_at === 'string' && pull.merged_at !== '')
  const state: PullRequestState = merged
    ? 'merged'
    : pull.state === 'closed'
      ? 'closed'
      : pull.draft === true
        ? 'draft'
        : 'open'
  return { number, title, state, changedFiles, additions, deletions }
}

export interface ReadOptions {
  /** The name of the input the token came from, for the line that says why it could not read. */
  tokenInput: string
  limits?: ReadLimits
}

/**
 * Reads the pull request's details with the session's token, from GITHUB_API_URL, within DETAILS_LIMITS and `signal`
 * (the run's cancel). Null, with one line saying why, when it cannot: never throws.
 */
export async function readPullRequestDetails(
  pr: PullRequestRef,
  github: Pick<GitHubSession, 'token' | 'reader'>,
  signal: AbortSignal,
  { tokenInput, limits = DETAILS_LIMITS }: ReadOptions
): Promise<PullRequestDetails | null> {
  const what = `pull request ${pullRequestName(pr)}`
  if (!github.token) {
    log.debug(`Not reading ${what}: ${tokenInput} is empty; the summary shows its link only.`)
    return null
  }
  const reader = github.reader(limits, signal)
  if (!reader) {
    log.debug(`Not reading ${what}: ${UNUSABLE_API_URL}; the summary shows its link only.`)
    return null
  }
  try {
    const path = `${repositoryPath(pr)}/pulls/${pr.number}`
    const answer = await reader.get(path, what, 'pull-requests: read')
    const details = pullRequestDetails(answer, pr.number)
    if (!details)
      throw new ReadFailure('malformed', what, 'pull-requests: read', {
        status: 200,
        detail: 'not a pull request of that number'
      })
    return details
  } catch (error) {
    if (!(error instanceof ReadFailure)) throw error
    const line = `Could not read ${failureClause(error, tokenInput)}. The summary shows its link only.`
    // A token that may not read it (another repository, a private one) is the common case, not a fault.
    const quiet = error.kind === 'forbidden' || error.kind === 'not-found' || error.kind === 'cancelled'
    if (quiet) log.debug(line)
    else log.info(line)
    return null
  } finally {
    await reader.close()
  }
}

/** The details in one line of the action's own words: `open · 3 files changed, +12 −4`. */
export function changeLine(details: PullRequestDetails): string {
  const files = `${details.changedFiles} ${details.changedFiles === 1 ? 'file' : 'files'} changed`
  return `${details.state} · ${files}, +${details.additions} −${details.deletions}`
}
