// What the reply on a thread says after the ending, and what the thread then keeps: one function over
// every ending (the compiler names one left out), so the words a person reads and the record the next
// request is routed by cannot disagree. The reply takes its first sentence from describeEnding
// (run-ending.ts); its step and its "how to ask for more" line come from here, never a step only the
// workflow's author can take (the summary keeps those).
import { FRESH_FLAG } from '../inputs/comment-settings.js'
import type { RunOutcome } from './run-ending.js'

/**
 * What the thread keeps after the ending: `open`, its job still takes the thread's requests (while
 * its pull request is open); `final`, the job is done with (no changes, failed, archived, refused), so
 * the next request starts a new job; null, the run made no job the thread could keep.
 */
export type ThreadKeeps = 'open' | 'final' | null

/** The reply's words after its first sentence, and what the thread keeps. */
export interface ThreadEnding {
  /** The step a person on the thread can take; null when the sentence above says it. */
  next: string | null
  /** The one line on how to ask for more, true for this ending; null when there is nothing to add. */
  askForMore: string | null
  keeps: ThreadKeeps
}

/**
 * The words and the record for the reply once the run has ended (see the file's opening comment);
 * `trigger` is the comment trigger that asks ("/docs").
 */
export function describeThreadEnding(outcome: RunOutcome, trigger: string): ThreadEnding {
  const jobId = outcome.jobId || outcome.job?.id || ''
  const dashboard = "Look at the job in the project's dashboard"
  const goesToIt =
    `To ask for more, comment \`${trigger} <what to change>\` here: it goes to this job while it works or its ` +
    `pull request is open. \`${trigger} ${FRESH_FLAG} <instruction>\` starts a new job instead.`
  const startsNew = (why: string): string =>
    `To ask again, comment \`${trigger} <instruction>\` here: it starts a new job (${why}).`
  const open = (next: string | null): ThreadEnding => ({ next, askForMore: goesToIt, keeps: 'open' })
  const done = (next: string | null, why: string): ThreadEnding => ({
    next,
    askForMore: startsNew(why),
    keeps: 'final'
  })
  switch (outcome.ending) {
    case 'final': {
      const { job } = outcome
      if (job.status === 'failed') return done(`${dashboard} to see what went wrong.`, 'this one failed')
      if (job.status === 'archived') return done(`${dashboard} to see how far it got.`, 'this one was archived')
      if (job.prLink) {
        return open(
          outcome.followUp
            ? "Review the pull request's new changes."
            : 'Review the pull request, and merge it when it is right.'
        )
      }
      if (job.refusedPrLink !== undefined) return done(null, 'this one gave no pull request this action can pass on')
      return done(
        `If you expected changes, ${dashboard.charAt(0).toLowerCase()}${dashboard.slice(1)}.`,
        'this one opened no pull request'
      )
    }
    case 'created':
      return open(null)
    case 'timeout':
      // What will happen, said to the person on the thread (the summary keeps the author's step). A run
      // that hands its job over to a later report says here that the ending will be posted on this reply.
      return open(
        "The agent goes on working on the service: when it opens its pull request, it shows among the repository's pull requests."
      )
    case 'noSign':
      return open('Look at the pull request before asking again: the agent may have done the work already.')
    case 'cancelled':
      if (jobId) return open(null)
      return { next: null, askForMore: `To ask again, comment \`${trigger} <instruction>\` here.`, keeps: null }
    case 'error':
      // The reason under the first sentence says what to do; the thread keeps a job the run knew,
      // unless the job refused the message (archived or failed: it takes no more).
      if (!jobId) return { next: null, askForMore: null, keeps: null }
      if (outcome.followUp && !outcome.job && outcome.failure === 'refused') {
        return { next: null, askForMore: startsNew('this one takes no more messages'), keeps: 'final' }
      }
      return open(null)
    case 'dry-run':
    case 'skipped':
      return { next: null, askForMore: null, keeps: null }
  }
}
