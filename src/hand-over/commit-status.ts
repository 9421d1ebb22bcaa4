// The job on the commit it was asked for: a commit status (context `docs-agent`) set pending when a
// run hands its job over, and completed when its ending is told, so that the job shows in a pull
// request's checks. On a pull request the status goes on its head commit: GitHub shows statuses on
// a pull request only there, and GITHUB_SHA is the merge commit it made for the event.
import type { RunnerEvent } from '../github/event.js'
import { asArray, asObject, isZeroSha } from '../github/json-shape.js'
import { repositoryPath } from '../github/pull-request-ref.js'
import type { GitHubReader } from '../github/reader.js'
import { assertNever } from '../runtime/assert-never.js'
import type { Octokit } from '../github/octokit.js'
import { timeLimit } from '../runtime/deadline.js'
import { neutralise } from '../safety/neutralise.js'
import { wordToldEnding } from '../ending/ending-words.js'

/** The context the statuses are set under: one per commit, the newest wins. */
export const STATUS_CONTEXT = 'docs-agent'

/** One status write's own time limit. */
const STATUS_CALL_MS = 10_000

/** The commit a run was for: the pushed commit, or a pull request's head; '' for any other event. */
export function commitOfRun({ event }: { event: RunnerEvent }): string {
  switch (event.name) {
    case 'push':
      return event.after.length === 40 && !isZeroSha(event.after) ? event.after : ''
    case 'pull_request':
    case 'pull_request_target': {
      const head = event.pullRequest?.head.sha ?? ''
      return head.length === 40 ? head : ''
    }
    case 'issue_comment':
    case 'pull_request_review_comment':
    case 'pull_request_review':
    case 'issues':
    case 'release':
    case 'other':
      return ''
    default:
      return assertNever(event, 'event')
  }
}

/** The job as its status names it: the sentence starts with it. */
const JOB = 'The documentation job'

export type CommitState = 'pending' | 'success' | 'failure'

/** The state and the description a job's status shows on the commit. */
export function statusOfJob(status: string | null): { state: CommitState; description: string } {
  switch (status) {
    case null:
      return { state: 'failure', description: wordToldEnding('unknown', JOB).short }
    case 'active':
      return { state: 'pending', description: 'The documentation job is working.' }
    case 'completed':
      return { state: 'success', description: wordToldEnding(status, JOB).short }
    default:
      // GitHub takes at most 140 characters.
      return { state: 'failure', description: wordToldEnding(status, JOB, neutralise(status, 40)).short }
  }
}

/** Where a status goes and what it says: the commit of `repository`, its state, and the page it links to. */
export interface CommitStatusWrite {
  repository: string
  commit: string
  status: { state: CommitState; description: string }
  targetUrl: string
  signal: AbortSignal
}

/** Sets the status on `commit` of `repository`; throws what GitHub answered. */
export async function setCommitStatus(
  octokit: Octokit,
  { repository, commit, status, targetUrl, signal }: CommitStatusWrite
): Promise<void> {
  const [owner, repo] = repository.split('/')
  const limit = timeLimit(STATUS_CALL_MS, signal)
  try {
    await octokit.rest.repos.createCommitStatus({
      owner,
      repo,
      sha: commit,
      state: status.state,
      context: STATUS_CONTEXT,
      description: status.description,
      target_url: targetUrl,
      request: { signal: limit.signal }
    })
  } finally {
    limit.clear()
  }
}

/**
 * Whether `commit` of `repository` shows `status` already: its newest status of the docs-agent
 * context has that state and description. A status GitHub may have set despite a 5xx is read back
 * this way rather than set twice. Throws the read's ReadFailure.
 */
export async function commitShows(
  reader: GitHubReader,
  { repository, commit, status }: Pick<CommitStatusWrite, 'repository' | 'commit' | 'status'>
): Promise<boolean> {
  const [owner, repo] = repository.split('/')
  const path = `${repositoryPath({ owner, repo })}/commits/${commit}/statuses?per_page=100`
  // Newest first, as GitHub lists them: the first of the context is the one the commit shows.
  const listed = asArray(await reader.get(path, "the commit's statuses", 'statuses: read')).map(asObject)
  const newest = listed.find((entry) => entry.context === STATUS_CONTEXT)
  return newest?.state === status.state && newest.description === status.description
}
