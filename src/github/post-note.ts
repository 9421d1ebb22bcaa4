// The one way the run leaves a note (on the agent's pull request, or on the thread that asked): one
// comment, posted once through the writing client, within one GitHub call's time. What the note says,
// and whether it is wanted, is the caller's; so is the notice when it could not be left. And the
// bounded writes the note and the group's record make: one call's time each (writeOnce), tried once
// more after a failure GitHub may not repeat (writeTwice).
import type { PullRequestRef } from './pull-request-details.js'
import { AGENT_PULL_REQUEST_READS } from './pull-request-details.js'
import type { Octokit } from './octokit.js'
import type { GitHubSession } from './session.js'
import { timeLimit } from '../runtime/deadline.js'
import { EndingOver } from './ending-bound.js'

const { requestTimeoutMs } = AGENT_PULL_REQUEST_READS

/**
 * Posts `body` (given the server's address, for the links it holds) as one comment on the issue or
 * pull request `thread`; returns the client, for what follows the note (a label). Throws when GitHub
 * refused it or the time ran out.
 */
export async function postNote(
  github: Pick<GitHubSession, 'client' | 'serverUrl'>,
  thread: PullRequestRef,
  body: (serverUrl: string) => string,
  signal: AbortSignal
): Promise<Octokit> {
  const octokit = await github.client()
  const text = body(github.serverUrl)
  await writeOnce(signal, (limited) =>
    octokit.rest.issues.createComment({
      owner: thread.owner,
      repo: thread.repo,
      issue_number: thread.number,
      body: text,
      request: { signal: limited }
    })
  )
  return octokit
}

/**
 * Runs one GitHub write within one call's time limit and `signal`: the limit is held for the whole
 * call (see timeLimit), since a timeout signal held by a combined signal alone may be lost.
 */
export async function writeOnce<T>(signal: AbortSignal, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const limit = timeLimit(requestTimeoutMs, signal)
  try {
    return await call(limit.signal)
  } finally {
    limit.clear()
  }
}

/**
 * Runs a GitHub write as writeOnce does, once more when GitHub answered with a server error or the
 * connection failed: a write GitHub refused (4xx) is not tried again. The second try stays within
 * `signal` (the ending's bound).
 */
export async function writeTwice<T>(signal: AbortSignal, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  try {
    return await writeOnce(signal, call)
  } catch (error) {
    const status = (error as { status?: unknown }).status
    if (signal.aborted || (typeof status === 'number' && status < 500)) throw error
    return writeOnce(signal, call)
  }
}

/** Why a note was not left when the end of the run's time for GitHub cut it (ending-bound.ts), else null. */
export function noteCutBy(signal: AbortSignal): string | null {
  return signal.reason instanceof EndingOver ? signal.reason.message : null
}
