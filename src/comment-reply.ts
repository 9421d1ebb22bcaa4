import type { TriggeringComment } from './comment-trigger.js'
import { Input } from './constants.js'
import { githubClient } from './github-client.js'
import { log } from './log.js'
import { blankSecrets } from './redact.js'
import { RetryPolicy } from './retry-policy.js'
import { describeEnding, type RunOutcome, type ValueFormat } from './run-ending.js'
import { codeSpan, neutralise } from './untrusted-text.js'

/** The replies on the issue or pull request a comment-triggered run answers on. */
export interface CommentReplies {
  /** Says how the run ended: updates the reply, or adds one if there is none. Never throws. */
  finish(outcome: RunOutcome): Promise<void>
}

type GitHub = typeof import('@actions/github')
type Octokit = ReturnType<GitHub['getOctokit']>

// A reply is a courtesy: it must never hold the step for long, whatever the API does.
const { requestTimeoutMs, afterRunEndsMs } = RetryPolicy.githubReplies

/**
 * Puts an 👀 reaction on the comment and a reply linking the workflow run, without waiting for
 * either: the job is created meanwhile. The GitHub client is loaded here, and only here, so that
 * runs that are not comment-triggered never load it. Every GitHub call that fails is a warning.
 */
export function startCommentReplies(comment: TriggeringComment, token: string): CommentReplies {
  if (!token) {
    log.warning(
      `${Input.githubToken} is empty: no reaction or reply on the ${describe(comment)}. The job runs all the same.`
    )
    return { finish: async () => {} }
  }
  const [owner, repo] = comment.repository.split('/')
  const issue = { owner, repo, issue_number: comment.thread.number }
  const where = describe(comment)

  // Aborted once the run has ended and the replies have had their grace: whatever GitHub call is
  // still waiting then gives up, so that none holds the step longer.
  const repliesOver = new AbortController()
  const call = <T>(what: string, request: (signal: AbortSignal) => Promise<T>) =>
    attempt(what, request, repliesOver.signal)
  const opened = (async () => {
    const github = await call('load the GitHub client', (): Promise<GitHub> => import('@actions/github'))
    if (!github) return null
    const octokit: Octokit = githubClient(github, token)
    const runUrl = runLink(github.context.serverUrl, comment.repository, process.env.GITHUB_RUN_ID)
    await call(`react to the comment on the ${where}`, (signal) =>
      octokit.rest.reactions.createForIssueComment({
        owner,
        repo,
        comment_id: comment.id,
        content: 'eyes',
        request: { signal }
      })
    )
    const reply = await call(`reply on the ${where}`, (signal) =>
      octokit.rest.issues.createComment({ ...issue, body: startedReply(runUrl), request: { signal } })
    )
    if (reply) log.info(`Replied on the ${where}: ${neutralise(String(reply.data.html_url))}`)
    return { octokit, runUrl, replyId: reply?.data.id }
  })().catch((error: unknown) => {
    log.warning(`Could not answer on the ${where}: ${describeError(error)} The job is not affected.`)
    return null
  })

  return {
    finish: async (outcome) => {
      const timer = setTimeout(
        () => repliesOver.abort(new Error(`GitHub did not answer within ${afterRunEndsMs / 1000}s of the run's end`)),
        afterRunEndsMs
      )
      try {
        const thread = await Promise.race([opened, whenAborted(repliesOver.signal)])
        if (!thread) return
        const body = outcomeReply(outcome, thread.runUrl)
        const { octokit, replyId } = thread
        if (replyId !== undefined) {
          await call(`update the reply on the ${where}`, (signal) =>
            octokit.rest.issues.updateComment({ owner, repo, comment_id: replyId, body, request: { signal } })
          )
        } else {
          await call(`reply on the ${where}`, (signal) =>
            octokit.rest.issues.createComment({ ...issue, body, request: { signal } })
          )
        }
      } finally {
        clearTimeout(timer)
      }
    }
  }
}

export function runLink(serverUrl: string, repository: string, runId: string | undefined): string {
  const base = `${serverUrl.replace(/\/+$/, '')}/${repository}/actions`
  return runId && /^\d+$/.test(runId) ? `${base}/runs/${runId}` : base
}

/** The first reply, at once. It never starts with the trigger, so it cannot start a run itself. */
export function startedReply(runUrl: string): string {
  return `👀 On it: a documentation agent job is starting for this request. [Follow the workflow run](${runUrl}); this comment is updated when it ends.`
}

// A reply is posted where the runner's masking does not apply and Markdown is rendered: the
// service's values go in code spans (no mention, link or image works there; a backslash would not
// stop a mention), and the whole body is blanked of secrets in every form.
const ON_THE_THREAD: ValueFormat = {
  id: (jobId) => codeSpan(neutralise(jobId)),
  status: (status) => codeSpan(neutralise(status))
}

/**
 * The reply once the run ends: the pull request, no changes, failed, timed out... Its words are
 * the action's own; the service's only as code spans, and a pull request link only of the shape
 * pull-request-link.ts accepts.
 */
export function outcomeReply(outcome: RunOutcome, runUrl: string): string {
  const { icon, short } = describeEnding(outcome, ON_THE_THREAD)
  return blankSecrets(`${icon} ${short}\n\n[Workflow run](${runUrl})`)
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
