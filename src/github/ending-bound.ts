// The run's end and GitHub: once the run has ended, every GitHub call left (the final reply, the pull
// request's details, the note) shares one bound, the documented 5 s (ENDING_GITHUB_MS), and
// they go side by side, so GitHub silent at the end costs the step 5 s, not 5 s per call. After a
// cancel the bound is cut to what the grace has left, so the ending ends before the forced exit. A
// GitHub that left a request of this run unanswered, and has answered none since (github/silence.ts),
// is not waited for again: the bound is over before it starts.
import { gitHubIsSilent } from './silence.js'
import { timeLimit } from '../runtime/deadline.js'
import { formatDuration } from '../runtime/duration.js'
import { log } from '../runtime/log.js'

/**
 * Once the run has ended, every GitHub call left gets this long together, no more: they are a
 * courtesy (docs/follow-ups.md promises the final reply within it).
 */
export const ENDING_GITHUB_MS = 5000
/** The pull request's details, which the summary and the final reply wait for, get half of it: the reply has the rest. */
export const ENDING_DETAILS_MS = ENDING_GITHUB_MS / 2
/**
 * After a cancel, the ending gets what the grace has left (CANCEL_GRACE_MS) less this, so that it
 * ends by itself before the forced exit cuts it.
 */
export const ENDING_MARGIN_MS = 1000

/** Why an ending's GitHub call stopped waiting: the bound ran out, or GitHub was silent before it began. */
export class EndingOver extends Error {
  override name = 'EndingOver'
}

export interface EndingBound {
  /** Aborts (with an EndingOver) when the ending's time for GitHub is over. */
  signal: AbortSignal
  /** The ending is told: the bound's timer goes. */
  clear(): void
}

/**
 * Starts the ending's bound; `graceLeftMs` is what a cancel's grace has left (Infinity without a
 * cancel); `due`: the ending has GitHub calls to make (a reply, a pull request to read and note).
 */
export function startEndingBound(graceLeftMs: number, due: boolean): EndingBound {
  if (gitHubIsSilent()) {
    if (due) {
      log.notice(
        'GitHub left a request of this run unanswered and has answered none since, so the end of the run does not ' +
          "wait for it again: the reply, the pull request's details and the note are not written. The job is not affected."
      )
    }
    return {
      signal: AbortSignal.abort(new EndingOver('GitHub was not answering earlier in this run')),
      clear: () => {}
    }
  }
  const ms = Math.max(0, Math.min(ENDING_GITHUB_MS, graceLeftMs - ENDING_MARGIN_MS))
  const controller = new AbortController()
  // Held here, not by a combined signal (see timeLimit): the bound must fire.
  const limit = timeLimit(ms)
  limit.signal.addEventListener(
    'abort',
    () => controller.abort(new EndingOver(`GitHub did not answer within ${formatDuration(ms)} of the run's end`)),
    { once: true }
  )
  return { signal: controller.signal, clear: limit.clear }
}
