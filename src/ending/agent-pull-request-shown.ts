// What the agent did, for the summary and the final reply: the pull request a completed job opened,
// read from GitHub when it is on the GitHub the workflow runs on. Any other ending, or a link to
// another host, reads nothing.
import { parsePullRequestLink } from '../github/note-place.js'
import { Input } from '../kernel/action-names.js'
import { readPullRequestDetails, type PullRequestDetails } from '../github/pull-request-details.js'
import type { RunOutcome } from '../kernel/run-outcome.js'
import type { GitHubSession } from '../github/session.js'
import { hasCompleted } from '../service/job-record.js'

/** The details of the pull request the job opened, when the run completed with one the token can read; null otherwise. */
export async function agentPullRequestShown(
  outcome: RunOutcome,
  github: GitHubSession,
  signal: AbortSignal
): Promise<PullRequestDetails | null> {
  const { job } = outcome
  if (!opensPullRequest(outcome) || !job?.prLink) return null
  const pr = parsePullRequestLink(job.prLink, github.serverUrl)
  if (!pr) return null
  return readPullRequestDetails(pr, github, signal, { tokenInput: Input.githubToken })
}

/** Whether the run ended with a completed job that opened a pull request: the ending reads it and notes it. */
export function opensPullRequest(outcome: RunOutcome): boolean {
  return outcome.ending === 'final' && hasCompleted(outcome.job.status) && !!outcome.job.prLink
}
