// The first stage of a comment-triggered run: the comment that asked, its instruction (credentials
// blanked) and the reply on its thread, started at once so that even wrong inputs are answered there.
import { blankInstruction, hunkBlanker } from '../context/for-this-run.js'
import type { CommentSettings } from '../inputs/comment-settings.js'
import { readGithubToken } from '../inputs/settings.js'
import { readCommentRequest, type TriggeringComment } from '../comment/trigger.js'
import { startCommentReplies, type CommentReplies } from '../report/comment-reply.js'
import type { Blanked } from '../safety/credentials.js'
import type { RunOutcome } from '../report/run-ending.js'

/** A comment that asked for a job: its instruction (credentials blanked) and the reply on its thread. */
export interface CommentAsk {
  comment: TriggeringComment
  /** The instruction after the trigger. */
  instruction: { text: string; blanked: Blanked[] }
  /** It asks for a new job even on the agent's pull request (`--new`). */
  fresh: boolean
  replies: CommentReplies
}

/**
 * The comment that asked for the job, or why it starts none; null when the run is not comment-triggered
 * (`settings` null: see readCommentSettings).
 */
export async function readCommentAsk(
  settings: CommentSettings | null
): Promise<CommentAsk | { skipped: string } | null> {
  if (!settings) return null
  // A review comment's diff hunk is scanned whole before it is cut to its last lines.
  const hunk = process.env.GITHUB_EVENT_NAME === 'pull_request_review_comment' ? await hunkBlanker() : null
  const request = readCommentRequest({ ...settings, blankHunk: hunk?.blank })
  if (!request.start) return { skipped: request.reason }
  const instruction = await blankInstruction(request.prompt, hunk?.blanked)
  const replies = startCommentReplies(request.comment, readGithubToken())
  return { comment: request.comment, instruction, fresh: request.fresh, replies }
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
  const show = (): void => replies.showEnding(cancelledOutcome(), Date.now() - startedAt)
  cancelled.addEventListener('abort', show, { once: true })
}
