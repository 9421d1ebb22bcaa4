// The first stage of a comment-triggered run: the comment that asked, its instruction (credentials
// blanked) and the reply on its thread, started at once so that even wrong inputs are answered there.
import { blankInstruction, hunkBlanker } from '../context/run-context.js'
import type { FirstInputs, Settings } from '../kernel/settings.js'
import type { TriggeringComment } from './trigger.js'
import type { Runner } from '../github/runner.js'
import type { GitHubSession } from '../github/session.js'
import { isRequestEvent } from '../github/request-event.js'
import { isCommentEvent } from '../github/event.js'
import { log } from '../runtime/log.js'
import type { ThreadReply } from './comment-reply.js'
import { createHash } from 'node:crypto'
import type { Blanked } from '../safety/credentials.js'
import type { RunOutcome } from '../kernel/run-outcome.js'

/** A comment that asked for a job: its instruction (credentials blanked) and the reply on its thread. */
export interface CommentAsk {
  comment: TriggeringComment
  /** The instruction after the trigger. */
  instruction: { text: string; blanked: Blanked[] }
  /** It asks for a new job even on the agent's pull request (`--new`). */
  fresh: boolean
  /** The thread's reply step (comment-reply.ts): every stage that tells the thread something calls it. */
  replies: ThreadReply
  /** A label's request: the digest of its text, which the thread's record of the job keeps. */
  asked?: string
}

/**
 * The comment (or the label: thread/label-request.ts) that asked for the job, or why it starts none;
 * null when the run is neither comment-triggered nor a label request (`comment` null: see
 * readCommentSettings). `cancelled` bounds the read of who labelled.
 */
export async function readCommentAsk(
  { comment: settings }: FirstInputs,
  runner: Runner,
  github: GitHubSession,
  cancelled: AbortSignal
): Promise<CommentAsk | { skipped: string } | null> {
  if (!settings) return null
  // Loaded by a run a comment or a label may have started only: any other sends its create without them.
  const [{ readCommentRequest }, { readLabelRequest }, { NO_REPLY, startThreadReply }] = await Promise.all([
    import('./trigger.js'),
    import('./label-request.js'),
    import('./comment-reply.js')
  ])
  const { event } = runner
  // A review comment's diff hunk is scanned whole before it is cut to its last lines.
  const hunk = event.name === 'pull_request_review_comment' ? await hunkBlanker() : null
  // The comment settings are read for a label's event or a comment's alone (readCommentSettings).
  const request = isRequestEvent(event)
    ? await readLabelRequest(settings, event, { runner, github }, cancelled)
    : isCommentEvent(event)
      ? readCommentRequest({ ...settings, blankHunk: hunk?.blank }, event, runner)
      : null
  if (!request) return null
  if (!request.start) return { skipped: request.reason }
  const from = request.comment.kind === 'label' ? 'labelled thread' : "comment's instruction"
  const instruction = await blankInstruction(request.prompt, hunk?.blanked, from)
  // A label's request is known again by its text: the title and body (see settleAsk).
  const asked =
    request.comment.kind === 'label'
      ? createHash('sha256').update(request.prompt).digest('hex').slice(0, 32)
      : undefined
  const replies = request.comment.locked
    ? lockedThread(request.comment, NO_REPLY)
    : startThreadReply(request.comment, github, runner, {
        trigger: settings.trigger,
        asked,
        deferred: !!asked
      })
  return { comment: request.comment, instruction, fresh: request.fresh, replies, asked }
}

/**
 * Once the settings are read: the reply keeps the thread's record of its job from now on, and a
 * label's request that repeats the one its thread's job was asked with (GitHub sends both `opened`
 * and `labeled` for an issue opened with its label) sends nothing and says why (its reason to skip),
 * leaving no comment; any other request's reply begins. Reading the thread is bounded within the
 * timeout (thread/thread-job.ts); when it cannot be read, the request goes on.
 */
export async function settleAsk(
  ask: CommentAsk,
  settings: Settings,
  github: GitHubSession,
  signal: AbortSignal
): Promise<string | null> {
  ask.replies.keepRecord(settings)
  if (ask.asked && !ask.fresh) {
    const { findRepeatedAsk } = await import('./thread-job.js')
    const jobId = await findRepeatedAsk(ask.comment, ask.asked, { settings, signal, github })
    if (jobId) {
      const where = `${ask.comment.thread.kind} #${ask.comment.thread.number}`
      return (
        `The ${where} already asked job ${jobId} for this same text (GitHub sends both "opened" and "labeled" for ` +
        `an issue opened with its label, and the label once more asks nothing new): nothing was sent. To ask for ` +
        `more, comment "${settings.noteTrigger} <instruction>" there, or edit its text and label it again.`
      )
    }
  }
  ask.replies.begin()
  return null
}

/** A locked thread gets no reply (GitHub may refuse it, and the lock asks for quiet); the log says so. */
function lockedThread(request: TriggeringComment, noReply: ThreadReply): ThreadReply {
  log.notice(
    `${request.thread.kind === 'issue' ? 'Issue' : 'Pull request'} #${request.thread.number} is locked: the run ` +
      `posts no reply there, so nothing there records the job and a later request there starts a new job. The job runs all the same.`
  )
  return noReply
}

/**
 * Shows a cancel on the thread at once: a write in flight may hold the run until the runner stops it,
 * and the reply must not say "On it" for ever.
 */
export function showCancelOnThread(
  { replies }: CommentAsk,
  cancelledOutcome: () => RunOutcome,
  cancelled: AbortSignal,
  startedAt: number
): void {
  const show = (): void => replies.tellEnding(cancelledOutcome(), Date.now() - startedAt)
  cancelled.addEventListener('abort', show, { once: true })
}
