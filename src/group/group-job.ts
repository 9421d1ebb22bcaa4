// A group: runs with the same `group` input, for one repository and project, share one docs pull
// request while it is open. The service cannot list jobs, so the group's pull request is found on
// GitHub: the action labels the agent's pull request with the group's label when it leaves its note
// there, and one listing of the open pull requests with that label (the issues API, not the search
// API, whose index lags) names the candidates; only a signed group marker on one makes it the group's
// (group-marker.ts). Here: the label, the commit a run covers, and the code pull request of an event.
import { sha } from '../github/json-shape.js'
import type { PullRequestRef } from '../github/pull-request-details.js'
import type { Runner } from '../github/runner.js'

/** GitHub's longest label is 50 characters; the group input is checked to fit after this. */
export const GROUP_LABEL_PREFIX = 'docs-agent:'

/** The label the group's pull request carries. */
export function groupLabel(group: string): string {
  return `${GROUP_LABEL_PREFIX}${group}`
}

/**
 * The commit whose changes this run tells of: a push's `after`, a pull request's head, or the run's
 * commit (GITHUB_SHA). It becomes the group's mark once the prompt is delivered.
 */
export function coveredCommit(runner: Runner): string {
  const { event } = runner
  if (event.name === 'push') return event.after || sha(runner.sha)
  if (event.name === 'pull_request' || event.name === 'pull_request_target') {
    return event.pullRequest?.head.sha || sha(runner.sha)
  }
  return sha(runner.sha)
}

/** The code pull request a `pull_request` event is about, and whether it was closed (merged or not). */
export interface CodePullRequest {
  pr: PullRequestRef
  closed: boolean
  merged: boolean
}

/** The event's pull request, when the run is for a `pull_request` (or `pull_request_target`) event. */
export function codePullRequestOf(runner: Runner): CodePullRequest | null {
  const { event } = runner
  if (event.name !== 'pull_request' && event.name !== 'pull_request_target') return null
  const number = event.pullRequest?.number
  const [owner, repo] = runner.repository.split('/')
  if (!number || !owner || !repo) return null
  return { pr: { owner, repo, number }, closed: event.action === 'closed', merged: event.pullRequest?.merged === true }
}
