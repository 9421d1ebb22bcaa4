import { randomUUID } from 'node:crypto'
import { setTimeout as delay } from 'node:timers/promises'
import type { TriggeringComment } from '../comment/trigger.js'
import { Input } from '../inputs/action-names.js'
import { timeLimit, type TimeLimit } from '../runtime/deadline.js'
import { formatDuration } from '../runtime/duration.js'
import { loadOctokit, runLink, type Octokit } from '../github/octokit.js'
import { log } from '../runtime/log.js'
import { blankSecrets } from '../safety/run-secrets.js'
import { RetryPolicy } from '../net/retry-policy.js'
import { describeEnding, type JobSoFar, type RunOutcome, type ValueFormat } from './run-ending.js'
import { markdownCodeSpan, neutralise } from '../safety/neutralise.js'
import { changeLine, type PullRequestDetails } from '../github/pull-request-details.js'
import { isFinal } from '../service/job-record.js'

/**
 * The one reply a comment-triggered run keeps on its thread: posted when the run starts, edited as
 * the run goes (the job id once it exists, each change of status), and at the end (how it ended,
 * the pull request, the job id, how long it took). Nothing here waits on GitHub or throws: edits
 * are coalesced, each is bounded, and the run never waits for one but at its very end. (Over 300
 * lines, on purpose: the reply's lifecycle and the words it shows are kept together, so that what a
 * thread can be left saying is read in one file.)
 */
export interface CommentReplies {
  /** The run's progress: edits the reply when what it says has changed (the job id, its status). */
  progress(job: JobSoFar): void
  /**
   * Shows an ending now, without waiting for the run to end (a cancel: the run may be stopped before
   * it can say more); no progress replaces it, and finish still sends the final text.
   */
  showEnding(outcome: RunOutcome, elapsedMs: number): void
  /**
   * Says how the run ended: updates the reply (one GitHub made but did not answer for is looked for
   * first), or adds one if there is none.
   */
  finish(outcome: RunOutcome, elapsedMs: number, pullRequest?: PullRequestDetails | null): Promise<void>
}

/** What this action reads of a comment it posted. */
interface PostedComment {
  id: number
  html_url: string
}

/** What this action reads of a comment listed on the thread. */
interface ListedComment {
  id: number
  body?: string | null
}

// A reply is a courtesy: it must never hold the step for long, whatever the API does.
const REPLIES_DONE = new Error('The reply says how the run ended.')
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
    return { progress: () => {}, showEnding: () => {}, finish: async () => {} }
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
  // Only this run's first reply carries it: a reply GitHub made but was slow to answer for is found
  // again by it, rather than left saying "On it" beside a second one.
  const replyMarker = `<!-- docs-agent-reply: ${randomUUID()} -->`
  const startedAt = Date.now()
  /** The reply's id, once GitHub has answered for it (or it was found again). */
  let replyId: number | undefined
  /** GitHub refused the first reply with an answer (not a timeout): there is none to find. */
  let replyRefused = false
  /** The final text, once the run has ended. */
  let finalBody = ''
  // Edits are coalesced: one at a time, and each sends the newest text, so a burst of changes
  // while an edit is on its way costs one edit more, not one per change.
  let wanted = ''
  let shown = ''
  let edits: Promise<void> = Promise.resolve()
  // Once the run has ended, only the final text is wanted: a late progress must not replace it.
  let finished = false
  // Once the run's ending is shown (a cancel shows it at once), no progress replaces it.
  let endingShown = false
  let editRefused = false
  const client = (async () => {
    const loaded = await call('load the GitHub client', () => loadOctokit(token))
    if (!loaded) return null
    return { octokit: loaded.octokit, runUrl: runLink(loaded.serverUrl, comment.repository, process.env.GITHUB_RUN_ID) }
  })()
  const opened = (async () => {
    const loaded = await client
    if (!loaded) return null
    const { octokit, runUrl } = loaded
    if (comment.kind !== 'review') {
      await call(
        `react to the ${comment.kind === 'issue comment' ? 'comment' : comment.kind === 'label' ? 'request' : comment.kind} on the ${where}`,
        (signal) => {
          const target = { owner, repo, comment_id: comment.id, content: 'eyes' as const, request: { signal } }
          // A label asked: the 👀 goes on the issue or pull request itself.
          if (comment.kind === 'label') {
            return octokit.rest.reactions.createForIssue({ ...issue, content: 'eyes', request: { signal } })
          }
          return onDiff
            ? octokit.rest.reactions.createForPullRequestReviewComment(target)
            : octokit.rest.reactions.createForIssueComment(target)
        }
      )
    }
    // The run ended first: its reply says how, and no "On it" follows it.
    if (finished) return loaded
    const reply = await call(`reply on the ${where}`, async (signal) => {
      try {
        return await post(octokit, `${startedReply(runUrl)}\n${replyMarker}`, signal)
      } catch (error) {
        // GitHub answered with an error: no reply was made, so none is looked for.
        if ((error as { response?: unknown }).response !== undefined) replyRefused = true
        throw error
      }
    })
    if (reply) {
      log.info(`Replied on the ${where}: ${neutralise(String(reply.data.html_url))}`)
      if (replyId === undefined) replyId = reply.data.id
      // Answered after the run's ending was posted as a reply of its own: it says the ending too.
      else if (reply.data.id !== replyId && finalBody) {
        const late = reply.data.id
        await call(`update the reply on the ${where}`, (signal) => edit(octokit, late, finalBody, signal))
      }
    }
    return loaded
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
  const edit = (octokit: Octokit, id: number, body: string, signal: AbortSignal): Promise<unknown> =>
    onDiff
      ? octokit.rest.pulls.updateReviewComment({ owner, repo, comment_id: id, body, request: { signal } })
      : octokit.rest.issues.updateComment({ owner, repo, comment_id: id, body, request: { signal } })
  /**
   * The run's first reply, found among the thread's newest comments by its marker, when GitHub did
   * not answer for it: the oldest comment with the marker (a copy can only come after it).
   */
  const findReply = async (octokit: Octokit): Promise<number | undefined> => {
    const since = new Date(startedAt - 60_000).toISOString()
    const listed = await call(`look for the reply on the ${where}`, (signal): Promise<{ data: ListedComment[] }> =>
      onDiff
        ? octokit.rest.pulls.listReviewComments({
            owner,
            repo,
            pull_number: comment.thread.number,
            since,
            per_page: 100,
            request: { signal }
          })
        : octokit.rest.issues.listComments({ ...issue, since, per_page: 100, request: { signal } })
    )
    const found = (listed?.data ?? []).find((c) => typeof c.body === 'string' && c.body.includes(replyMarker))
    return typeof found?.id === 'number' ? found.id : undefined
  }

  const flush = async (): Promise<void> => {
    const loaded = await client
    if (!loaded || replyId === undefined) return
    const id = replyId
    while (wanted !== '' && wanted !== shown && !repliesOver.signal.aborted && (finished || !editRefused)) {
      const body = wanted
      // Shown or not, it is not sent again: a reply GitHub refuses once is not pressed on it.
      shown = body
      const edited = await call(`update the reply on the ${where}`, (signal) => edit(loaded.octokit, id, body, signal))
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
        if (thread && outcome.jobId && !finished && !endingShown && !editRefused) {
          want(progressReply(outcome, thread.runUrl))
        }
      })
    },
    showEnding: (outcome, elapsedMs) => {
      endingShown = true
      void opened.then((thread) => {
        if (thread && !finished) want(outcomeReply(outcome, thread.runUrl, elapsedMs))
      })
    },
    finish: async (outcome, elapsedMs, pullRequest = null) => {
      finished = true
      const timer = setTimeout(
        () => repliesOver.abort(new Error(`GitHub did not answer within ${afterRunEndsMs / 1000}s of the run's end`)),
        afterRunEndsMs
      )
      try {
        const loaded = await Promise.race([client, whenAborted(repliesOver.signal)])
        if (!loaded) return
        const body = (finalBody = outcomeReply(outcome, loaded.runUrl, elapsedMs, pullRequest))
        // The first reply gets half the grace to be answered for; then it is looked for, before another is posted.
        await Promise.race([opened, whenAborted(repliesOver.signal), delay(afterRunEndsMs / 2, null, { ref: false })])
        if (replyId === undefined && !replyRefused && !repliesOver.signal.aborted) {
          replyId = await findReply(loaded.octokit)
        }
        if (replyId !== undefined) {
          want(body)
          await Promise.race([edits, whenAborted(repliesOver.signal)])
        } else {
          const posted = await call(`reply on the ${where}`, (signal) => post(loaded.octokit, body, signal))
          replyId ??= posted?.data.id
        }
      } finally {
        clearTimeout(timer)
        // The final text is shown (or could not be): a call still waiting (a first reply GitHub was
        // slow to answer for, found again meanwhile) must not hold the step.
        repliesOver.abort(REPLIES_DONE)
      }
    }
  }
}

/** The first reply, at once. It never starts with the trigger, so it cannot start a run itself. */
export function startedReply(runUrl: string): string {
  return `👀 On it: a documentation agent job is starting for this request. [Follow the workflow run](${runUrl}); this comment is updated as it goes.`
}

/**
 * The reply while the run goes: the job's id and its status as last read (and, after a message, that it
 * was sent). The waiting mark only while the job works: a final status read before the run ends is said
 * without it, and after a message the job's old final status is not shown as if it were the news.
 */
export function progressReply(outcome: JobSoFar, runUrl: string): string {
  const id = ON_THE_THREAD.id(outcome.jobId)
  const status = outcome.job ? ON_THE_THREAD.status(outcome.job.status) : '`starting`'
  const final = outcome.job !== null && isFinal(outcome.job.status)
  const state = outcome.followUp
    ? final
      ? `⏳ The instruction went to job ${id} as a follow-up; waiting for the agent to take it up`
      : `⏳ The instruction went to job ${id} as a follow-up; it is ${status}`
    : final
      ? `Job ${id} is ${status}; the run is finishing`
      : `⏳ Job ${id} is ${status}`
  return blankSecrets(`${state}. [Follow the workflow run](${runUrl}); this comment is updated as it goes.`)
}

// A reply is posted where the runner's masking does not apply and Markdown is rendered: the
// service's values go in code spans (no mention, link or image works there; a backslash would not
// stop a mention), its pull request link included (GitHub would make any https address with a
// /pull/N path a live link the repository's bot posted), and the whole body is blanked of secrets.
const ON_THE_THREAD: ValueFormat = {
  id: (jobId) => markdownCodeSpan(neutralise(jobId)),
  status: (status) => markdownCodeSpan(neutralise(status)),
  link: (url) => markdownCodeSpan(neutralise(url))
}

/**
 * The reply once the run ends: the pull request (with its title, state, files and lines when GitHub
 * showed it), no changes, failed, timed out..., then how long the run took. The sentence names the job,
 * so nothing after it does again. Its words are the action's own; the service's and GitHub's only as
 * code spans, and a pull request link only of the shape pull-request-link.ts accepts.
 */
export function outcomeReply(
  outcome: RunOutcome,
  runUrl: string,
  elapsedMs: number,
  pullRequest: PullRequestDetails | null = null
): string {
  const { icon, short } = describeEnding(outcome, ON_THE_THREAD)
  const agentDid = pullRequest
    ? `\n\n${markdownCodeSpan(neutralise(pullRequest.title))} · ${changeLine(pullRequest)}`
    : ''
  return blankSecrets(`${icon} ${short}${agentDid}\n\nTook ${formatDuration(elapsedMs)} · [Workflow run](${runUrl})`)
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
  // Held for the whole call (see timeLimit): a timeout signal held by a combined signal alone may be lost.
  let limit: TimeLimit | undefined
  try {
    if (repliesOver.aborted) throw repliesOver.reason
    limit = timeLimit(requestTimeoutMs, repliesOver)
    return await request(limit.signal)
  } catch (error) {
    if (repliesOver.reason === REPLIES_DONE) log.debug(`Stopped waiting to ${what}: the reply says how the run ended.`)
    else log.warning(`Could not ${what}: ${describeError(error)} The job is not affected.`)
    return undefined
  } finally {
    limit?.clear()
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
