// Whether GitHub is answering this run. A request GitHub left unanswered within its limit, with no
// answer to any request since, means GitHub is not waited for again: the ending's calls (the reply,
// the pull request's details, the note) are not made. Any answer, an error status included, says
// GitHub is there again. Both GitHub clients note it: the reader (reader.ts) and Octokit (octokit.ts).

let unanswered = false

/** GitHub answered a request (any status). */
export function noteGitHubAnswered(): void {
  unanswered = false
}

/** GitHub left a request unanswered within its time limit. */
export function noteGitHubSilent(): void {
  unanswered = true
}

/** Whether the last thing GitHub did in this run was to leave a request unanswered. */
export function gitHubIsSilent(): boolean {
  return unanswered
}

/** Whether `signal` ended a request by its time limit (timeLimit's reason), rather than by a cancel or the run's end. */
export function endedByTimeLimit(signal: AbortSignal | undefined | null): boolean {
  return !!signal?.aborted && (signal.reason as { name?: unknown } | undefined)?.name === 'TimeoutError'
}
