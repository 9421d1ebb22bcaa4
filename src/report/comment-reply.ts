import { login } from '../github/json-shape.js'
import type { TriggeringComment } from '../comment/trigger.js'
import { Input } from '../inputs/action-names.js'
import { formatDuration } from '../runtime/duration.js'
import { loadOctokit, runLink, type Octokit } from '../github/octokit.js'
import { log } from '../runtime/log.js'
import { blankSecrets } from '../safety/run-secrets.js'
import { RetryPolicy } from '../net/retry-policy.js'
import { describeEnding, type JobSoFar, type RunOutcome, type ValueFormat } from './run-ending.js'
import { markdownCodeSpan, neutralise } from '../safety/neutralise.js'

/**
 * The one reply a comment-triggered run keeps on its thread: posted when the run starts, edited as
 * the run goes (the job id once it exists, each change of status), and at the end (how it ended,
 * the pull request, the job id, how long it took). Nothing here waits on GitHub or throws: edits
 * are coalesced, each is bounded, and the run never waits for one but at its very end.
 */
export interface CommentReplies {
  /** The run's progress: edits the reply when what it says has changed (the job id, its status). */
  progress(job: JobSoFar): void
  /** Says how the run ended: updates the reply, or adds one if there is none. */
  finish(outcome: RunOutcome, elapsedMs: number): Promise<void>
  /** The login the token writes as, from the reply it posted; null when no reply was posted. */
  author(): Promise<string | null>
}

/** What this action reads of a comment it posted. */
interface PostedComment {
  id: number
  html_url: string
  user?: { login?: string } | null
}

// A reply is a courtesy: it must never hold the step for long, whatever the API does.
const { requestTimeoutMs, afterRunEndsMs } = RetryPolicy.githubReplies

/**
 * Puts an 👀 reaction on the comment (a review has none) and a reply linking the workflow run,
 * without waiting for either: the job is created meanwhile. A reply to a comment on the diff goes
 * under it, in its review thread; a reply to an issue comment or a review goes on the conversation.
 * Every GitHub call that fails is a warning.
 */
export function startCommentReplies(comment: TriggeringComment, token: string): CommentReplies {
  if (!token) {
    log.warning(
      `${Input.githubToken} is empty: no reaction or reply on the ${describe(comment)}. The job runs all the same.`
    )
    return { progress: () => {}, finish: async () => {}, author: async () => null }
  }
  const [owner, repo] = comment.repository.split('/')
  const issue = { owner, repo, issue_number: comment.thread.number }
  const where = describe(comment)
  const onDiff = comment.kind === 'review comment'

  // Aborted once the run has ended and the replies have had their grace: whatever GitHub call is
  // still waiting then gives up, so that none holds the step longer.
  const repliesOver = new AbortController()
  const call = <T>(what: string, request: (signal: AbortSignal) => Promise<T>) =>
    attempt(what, request, repliesOver.signal)
  const opened = (async () => {
    const loaded = await call('load the GitHub client', () => loadOctokit(token))
    if (!loaded) return null
    const { octokit } = loaded
    const runUrl = runLink(loaded.serverUrl, comment.repository, process.env.GITHUB_RUN_ID)
    if (comment.kind !== 'review') {
      await call(
        `react to the ${comment.kind === 'issue comment' ? 'comment' : comment.kind} on the ${where}`,
        (signal) => {
          const target = { owner, repo, comment_id: comment.id, content: 'eyes' as const, request: { signal } }
          return onDiff
            ? octokit.rest.reactions.createForPullRequestReviewComment(target)
            : octokit.rest.reactions.createForIssueComment(target)
        }
      )
    }
    const reply = await call(`reply on the ${where}`, (signal) => post(octokit, startedReply(runUrl), signal))
    if (reply) log.info(`Replied on the ${where}: ${neutralise(String(reply.data.html_url))}`)
    const author = login(reply?.data.user?.login) || null
    return { octokit, runUrl, replyId: reply?.data.id, author }
  })().catch((error: unknown) => {
    log.warning(`Could not answer on the ${where}: ${describeError(error)} The job is not affected.`)
    return null
  })

  /** Posts a reply: under the comment on the diff, or on the conversation. */
  const post = (octokit: Octokit, body: string, signal: AbortSignal): Promise<{ data: PostedComment }> =>
    onDiff
      ? octokit.rest.pulls.createReplyForReviewComment({
          owner,
          repo,
          pull_number: comment.thread.number,
          comment_id: comment.replyTo ?? comment.id,
          body,
          request: { signal }
        })
      : octokit.rest.issues.createComment({ ...issue, body, request: { signal } })
  /** Edits the reply where it was posted. */
  const edit = (octokit: Octokit, replyId: number, body: string, signal: AbortSignal): Promise<unknown> =>
    onDiff
      ? octokit.rest.pulls.updateReviewComment({ owner, repo, comment_id: replyId, body, request: { signal } })
      : octokit.rest.issues.updateComment({ owner, repo, comment_id: replyId, body, request: { signal } })

  // Edits are coalesced: one at a time, and each sends the newest text, so a burst of changes
  // while an edit is on its way costs one edit more, not one per change.
  let wanted = ''
  let shown = ''
  let edits: Promise<void> = Promise.resolve()
  // Once the run has ended, only the final text is wanted: a late progress must not replace it.
  let finished = false
  let editRefused = false
  const flush = async (): Promise<void> => {
    const thread = await opened
    if (!thread || thread.replyId === undefined) return
    while (wanted !== '' && wanted !== shown && !repliesOver.signal.aborted && (finished || !editRefused)) {
      const body = wanted
      // Shown or not, it is not sent again: a reply GitHub refuses once is not pressed on it.
      shown = body
      const edited = await call(`update the reply on the ${where}`, (signal) =>
        edit(thread.octokit, thread.replyId!, body, signal)
      )
      // One warning is enough: after a refused edit, only the final text is tried.
      if (edited === undefined) editRefused = true
    }
  }
  const want = (body: string): void => {
    wanted = body
    edits = edits.then(flush)
  }

  return {
    progress: (outcome) => {
      void opened.then((thread) => {
        if (thread && outcome.jobId && !finished && !editRefused) want(progressReply(outcome, thread.runUrl))
      })
    },
    finish: async (outcome, elapsedMs) => {
      finished = true
      const timer = setTimeout(
        () => repliesOver.abort(new Error(`GitHub did not answer within ${afterRunEndsMs / 1000}s of the run's end`)),
        afterRunEndsMs
      )
      try {
        const thread = await Promise.race([opened, whenAborted(repliesOver.signal)])
        if (!thread) return
        const body = outcomeReply(outcome, thread.runUrl, elapsedMs)
        if (thread.replyId !== undefined) {
          want(body)
          await Promise.race([edits, whenAborted(repliesOver.signal)])
        } else {
          await call(`reply on the ${where}`, (signal) => post(thread.octokit, body, signal))
        }
      } finally {
        clearTimeout(timer)
      }
    },
    author: async () => (await opened)?.author ?? null
  }
}

/** The first reply, at once. It never starts with the trigger, so it cannot start a run itself. */
export function startedReply(runUrl: string): string {
  return `👀 On it: a documentation agent job is starting for this request. [Follow the workflow run](${runUrl}); this comment is updated as it goes.`
}

/** The reply while the job runs: its id and its status as last read (and, after a message, that it was sent). */
export function progressReply(outcome: JobSoFar, runUrl: string): string {
  const id = ON_THE_THREAD.id(outcome.jobId)
  const status = outcome.job ? ON_THE_THREAD.status(outcome.job.status) : '`starting`'
  // After a follow-up message the job may read its old final status for a while: say what was done first.
  const state = outcome.followUp
    ? `The instruction went to job ${id} as a follow-up; it is ${status}`
    : `Job ${id} is ${status}`
  return blankSecrets(`⏳ ${state}. [Follow the workflow run](${runUrl}); this comment is updated as it goes.`)
}

// A reply is posted where the runner's masking does not apply and Markdown is rendered: the
// service's values go in code spans (no mention, link or image works there; a backslash would not
// stop a mention), and the whole body is blanked of secrets in every form.
const ON_THE_THREAD: ValueFormat = {
  id: (jobId) => markdownCodeSpan(neutralise(jobId)),
  status: (status) => markdownCodeSpan(neutralise(status))
}

/**
 * The reply once the run ends: the pull request, no changes, failed, timed out..., then the job id
 * and how long the run took. Its words are the action's own; the service's only as code spans, and
 * a pull request link only of the shape pull-request-link.ts accepts.
 */
export function outcomeReply(outcome: RunOutcome, runUrl: string, elapsedMs: number): string {
  const { icon, short } = describeEnding(outcome, ON_THE_THREAD)
  const jobId = outcome.jobId || outcome.job?.id || ''
  const facts = [...(jobId ? [`Job ${ON_THE_THREAD.id(jobId)}`] : []), `took ${formatDuration(elapsedMs)}`].join(', ')
  return blankSecrets(`${icon} ${short}\n\n${facts} · [Workflow run](${runUrl})`)
}

/**
 * Makes one GitHub call, bounded by its own limit and by `repliesOver`; a failure is a warning
 * and `undefined`, never an error.
 */
async function attempt<T>(
  what: string,
  request: (signal: AbortSignal) => Promise<T>,
  repliesOver: AbortSignal
): Promise<T | undefined> {
  try {
    if (repliesOver.aborted) throw repliesOver.reason
    return await request(AbortSignal.any([AbortSignal.timeout(requestTimeoutMs), repliesOver]))
  } catch (error) {
    log.warning(`Could not ${what}: ${describeError(error)} The job is not affected.`)
    return undefined
  }
}

/** A GitHub API error as a sentence, with the likely fix; never the token, should a server echo it. */
function describeError(error: unknown): string {
  const message = neutralise(error instanceof Error ? error.message : String(error))
  const { name, status, response } = error as { name?: unknown; status?: unknown; response?: unknown }
  if (name !== 'HttpError' || typeof status !== 'number') return `${message}.`
  // Octokit reports a request that got no answer as status 500 without a response.
  if (!response) return `no answer from GitHub (${message}).`
  const hint =
    status === 401
      ? ` GitHub rejected ${Input.githubToken}: leave it at its default, \${{ github.token }}, or pass a token that is still valid.`
      : status === 403 || status === 404
        ? ` Check that ${Input.githubToken} may write to issues and pull requests: the workflow needs "issues: write" and "pull-requests: write" in its permissions block.`
        : ''
  return `HTTP ${status} (${message}).${hint}`
}

/** Resolves null when `signal` aborts: for a wait that must not outlast it. */
function whenAborted(signal: AbortSignal): Promise<null> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(null)
    else signal.addEventListener('abort', () => resolve(null), { once: true })
  })
}

function describe(comment: TriggeringComment): string {
  return `${comment.thread.kind} #${comment.thread.number}`
}
