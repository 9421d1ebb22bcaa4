// The reply's calls to GitHub beside the live comment's own (github/live-comment.ts): where it goes
// (under a comment on the diff, or on the conversation), the 👀 reaction on what asked, and the read
// of a reply a reporting run may have taken over meanwhile.
import type { Octokit } from '../github/octokit.js'
import type { CommentPlace, LiveComment } from '../github/live-comment.js'
import type { TriggeringComment } from './trigger.js'

// A reply is a courtesy: each GitHub call is bounded, and once the run has ended, whatever is left
// of them (the final reply included) shares the ending's bound with its other calls (ending-bound.ts).
export const REPLY_CALL_MS = 10_000

/**
 * The reply's body when a reporting run has written it (it holds the thread's signed record of a job,
 * which a queued request's own reply never does, or no longer links this run); null when it has not,
 * or it cannot be read.
 */
export async function readTakenOver(
  octokit: Octokit,
  comment: TriggeringComment,
  id: number,
  runUrl: string
): Promise<string | null> {
  const [owner, repo] = comment.repository.split('/')
  try {
    const read = await octokit.rest.issues.getComment({
      owner,
      repo,
      comment_id: id,
      request: { signal: AbortSignal.timeout(REPLY_CALL_MS) }
    })
    const body = read.data.body ?? ''
    return body && (body.includes('<!-- docs-agent-record: thread ') || !body.includes(`](${runUrl})`)) ? body : null
  } catch {
    return null
  }
}

/** The 👀 reaction on the comment that asked; who the action writes as, when GitHub's answer says. */
export async function react(
  octokit: Octokit,
  comment: TriggeringComment,
  call: LiveComment<{ octokit: Octokit }>['call']
): Promise<string | undefined> {
  const [owner, repo] = comment.repository.split('/')
  const what = comment.kind === 'issue comment' ? 'comment' : comment.kind === 'label' ? 'request' : comment.kind
  const reacted = await call(`react to the ${what} on the ${describeThread(comment)}`, (signal) => {
    const target = { owner, repo, comment_id: comment.id, content: 'eyes' as const, request: { signal } }
    // A label asked: the 👀 goes on the issue or pull request itself.
    if (comment.kind === 'label') {
      return octokit.rest.reactions.createForIssue({
        owner,
        repo,
        issue_number: comment.thread.number,
        content: 'eyes',
        request: { signal }
      })
    }
    return comment.kind === 'review comment'
      ? octokit.rest.reactions.createForPullRequestReviewComment(target)
      : octokit.rest.reactions.createForIssueComment(target)
  })
  const login = (reacted?.data as { user?: { login?: unknown } | null } | undefined)?.user?.login
  return typeof login === 'string' ? login : undefined
}

/** Where the reply goes: under the comment on the diff (its review thread), or on the conversation. */
export function placeReplyOn(comment: TriggeringComment): CommentPlace {
  const [owner, repo] = comment.repository.split('/')
  const issue = { owner, repo, issue_number: comment.thread.number }
  if (comment.kind !== 'review comment') {
    return {
      post: (octokit, body, signal) => octokit.rest.issues.createComment({ ...issue, body, request: { signal } }),
      edit: (octokit, id, body, signal) =>
        octokit.rest.issues.updateComment({ owner, repo, comment_id: id, body, request: { signal } }),
      list: (octokit, since, signal) =>
        octokit.rest.issues.listComments({ ...issue, since, per_page: 100, request: { signal } })
    }
  }
  const pull = { owner, repo, pull_number: comment.thread.number }
  return {
    post: (octokit, body, signal) =>
      octokit.rest.pulls.createReplyForReviewComment({
        ...pull,
        comment_id: comment.replyTo ?? comment.id,
        body,
        request: { signal }
      }),
    edit: (octokit, id, body, signal) =>
      octokit.rest.pulls.updateReviewComment({ owner, repo, comment_id: id, body, request: { signal } }),
    list: (octokit, since, signal) =>
      octokit.rest.pulls.listReviewComments({ ...pull, since, per_page: 100, request: { signal } })
  }
}

/** The thread a reply is on, in the words of the log: `issue #7`, `pull request #7`. */
export function describeThread(comment: TriggeringComment): string {
  return `${comment.thread.kind} #${comment.thread.number}`
}
