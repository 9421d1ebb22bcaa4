// A pull request on the GitHub the workflow runs on, and its page: the one reference type every
// stage names a pull request by (a thread, the agent's pull request, a group's docs or code).

/** A pull request on the GitHub the workflow runs on. */
export interface PullRequestRef {
  owner: string
  repo: string
  number: number
}

/** The REST API's path of a repository, `/repos/owner/name`, each part encoded: every request's path starts with it. */
export function repositoryPath({ owner, repo }: Pick<PullRequestRef, 'owner' | 'repo'>): string {
  return `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`
}

/** How the log and the notices name a pull request: `#7 of owner/repo`. */
export function pullRequestName(pr: PullRequestRef): string {
  return `#${pr.number} of ${pr.owner}/${pr.repo}`
}

/** The pull request's page on the GitHub at `serverUrl` (runner.ts: no trailing slash). */
export function pullRequestUrl(pr: PullRequestRef, serverUrl: string): string {
  return `${serverUrl}/${pr.owner}/${pr.repo}/pull/${pr.number}`
}
