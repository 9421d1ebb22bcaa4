// One GitHub session per run (openGitHubSession): the token and this GitHub's addresses, built once
// by the mode and handed to every stage that reads or writes GitHub, so that no stage opens a client
// of its own. Reads go through a bounded reader (reader.ts: a budget of requests and time per stage,
// capped answers, no redirects), one per stage with that stage's limits; writes through one Octokit
// client (octokit.ts), loaded at the first write only: most runs write nothing before the create.
import { pullRequestUrl, type PullRequestRef } from './pull-request-ref.js'
import { githubClient, type Octokit } from './octokit.js'
import { openGitHubReader, type GitHubReader, type ReadLimits } from './reader.js'
import type { Runner } from './runner.js'

export interface GitHubSession {
  /** The run's token (githubToken); empty when the workflow gives none: then nothing is read or written. */
  readonly token: string
  /** This GitHub's address (runner.ts), for links. */
  readonly serverUrl: string
  /** Its API's address: the only place the token is sent. */
  readonly apiUrl: string
  /** A reader within one stage's `limits` and `signal`; null when the API's address is not one the token may go to. */
  reader(limits: ReadLimits, signal?: AbortSignal): GitHubReader | null
  /** The client for writes, loaded once, at the first write. */
  client(): Promise<Octokit>
  /** A pull request's page on this GitHub. */
  pullUrl(pr: PullRequestRef): string
}

/** What a stage that reads the event and talks to GitHub takes: the runner and the run's session. */
export interface GitHubRun {
  runner: Runner
  github: GitHubSession
}

/** The session of a run with `token`, on the GitHub the runner names. */
export function openGitHubSession(
  token: string,
  { serverUrl, apiUrl }: Pick<Runner, 'serverUrl' | 'apiUrl'>
): GitHubSession {
  let loading: Promise<Octokit> | null = null
  return {
    token,
    serverUrl,
    apiUrl,
    reader: (limits, signal) => openGitHubReader(apiUrl, token, limits, signal),
    client: () => (loading ??= import('@actions/github').then((github) => githubClient(github, token, apiUrl))),
    pullUrl: (pr) => pullRequestUrl(pr, serverUrl)
  }
}
