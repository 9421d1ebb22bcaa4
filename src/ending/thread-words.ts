// What the reply on a thread says after the ending, and what the thread then keeps: one function over
// every ending (the compiler names one left out), so the words a person reads and the record the next
// request is routed by cannot disagree. The reply takes its first sentence from describeEnding
// (run-ending.ts); its step and its "how to ask for more" line come from here, never a step only the
// workflow's author can take (the summary keeps those).
import { FRESH_FLAG } from '../kernel/comment-settings.js'
import type { Route } from '../kernel/route.js'
import { codeSpan, neutralise } from '../safety/neutralise.js'
import type { RunOutcome } from '../kernel/run-outcome.js'
import { assertNever } from '../runtime/assert-never.js'
import { requestKind } from '../service/pull-request-link.js'
import { finalStatusOf } from '../service/job-record.js'

/** What a queued request's reply promises: the reporting run creates the job, then tells it here. */
const QUEUED_HERE =
  "The job will be created by the repository's reporting run, which then posts it, and later its ending, on this reply. " +
  'Asking again meanwhile queues a second request.'

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
 * `trigger` is the comment trigger that asks ("/docs"), `summaryNext` the summary's next step
 * (describeEnding's), taken where anyone on the thread can take it: where it is a step for the
 * workflow's author (follow the job with jobId, set an input), the thread gets its own words.
 */
export function describeThreadEnding(outcome: RunOutcome, trigger: string, summaryNext: string | null): ThreadEnding {
  const jobId = outcome.jobId || outcome.job?.id || ''
  // As the job's host calls it: a merge request on GitLab.
  const request = requestKind(outcome.job?.prLink ?? null)
  // A job that has opened its pull request takes requests while that is open; one still working, meanwhile too.
  const finished = outcome.ending === 'final' && !!outcome.job.prLink
  const goesToIt =
    `To ask for more, comment \`${trigger} <what to change>\` here: it goes to this job while ` +
    `${finished ? '' : 'it works or '}its ${request} is open. \`${trigger} ${FRESH_FLAG} <instruction>\` starts a new job instead.`
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
      const status = finalStatusOf(job.status)
      switch (status) {
        case 'failed':
          return done(summaryNext, 'this one failed')
        case 'archived':
          return done(summaryNext, 'this one was archived')
        case 'completed':
        case null:
          break
        default:
          return assertNever(status, 'job status')
      }
      if (job.prLink) return open(summaryNext)
      if (job.refusedPrLink !== undefined) return done(summaryNext, `this one gave no ${request} link`)
      // Under requirePr the summary's step is the author's (set requirePr to false): not the thread's.
      return done(outcome.requirePr ? null : summaryNext, `this one opened no ${request}`)
    }
    // A job not followed to its end is handed over (hand-over/hand-over.ts): a reporting run edits this reply
    // with its ending. Its next step is the summary's, one sentence for both (wordHandedOverNext).
    case 'created':
      return open(outcome.handedOver && jobId ? summaryNext : null)
    case 'queued':
      // Not kept (its record could not be written): nothing will create it, so the reply says to ask again.
      if (outcome.unkept) return { next: null, askForMore: startsNew('this request was not kept'), keeps: null }
      // No job yet: the reporting run that creates it writes the thread's record, and then this reply.
      return { next: QUEUED_HERE, askForMore: null, keeps: null }
    case 'timeout':
      if (outcome.handedOver && jobId) return open(summaryNext)
      return open(`When the agent opens its ${request}, it shows among the repository's ${request}s.`)
    case 'noSign':
      return open(`Look at the ${request} before asking again: the agent may have done the work already.`)
    case 'cancelled':
      if (jobId) return open(null)
      // A create that may have gone out: the summary's step (look among the project's jobs) is anyone's.
      return {
        next: outcome.writeInFlight ? summaryNext : null,
        askForMore: `To ask again, comment \`${trigger} <instruction>\` here.`,
        keeps: null
      }
    case 'error':
      // The reason under the first sentence says what to do; the thread keeps a job the run knew,
      // unless the job refused the message (archived or failed: it takes no more).
      if (!jobId) return { next: null, askForMore: null, keeps: null }
      if (outcome.followUp && !outcome.job && outcome.failure === 'refused') {
        return { next: null, askForMore: startsNew('this one takes no more messages'), keeps: 'final' }
      }
      return open(null)
    // A group's run held back (`held`) sends nothing, and no thread asked it.
    case 'dry-run':
    case 'skipped':
    case 'held':
      return { next: null, askForMore: null, keeps: null }
    default:
      return assertNever(outcome, 'ending')
  }
}

/**
 * Where the request went, when the thread alone does not say it: on a group's code pull request, the
 * group's docs pull request (the job the reply names is its job), or the group's next job (its last docs
 * pull request is closed); null for every other route. Said after the sentence that names the job. The pull request is named as GitHub's own reference,
 * `owner/repo#7` (the group's repository and a number, both checked), which GitHub renders as its link.
 */
export function describeRouteOnThread(route: Route): string | null {
  switch (route.kind) {
    case 'message':
      if (route.via !== 'status') return null
      return (
        `That is group ${codeSpan(neutralise(route.group))}'s job, on its docs pull request ${reference(route.docs.pr)}, ` +
        `which this pull request's docs status comment shows.`
      )
    case 'create': {
      // A request's create for a group (ancestry `asked`): its docs pull request's job has ended, or the pull request is closed.
      const { group } = route
      if (!group || group.ancestry !== 'asked') return null
      const name = codeSpan(neutralise(group.settings.name))
      const next = "this request started the group's next job, and its pull request becomes the group's."
      if (group.open)
        return `Group ${name}'s job on its docs pull request ${reference(group.open.pr)} has ended: ${next}`
      const previous = group.lookup.kind === 'none' ? group.lookup.previous : null
      return previous ? `Group ${name}'s last docs pull request, ${reference(previous.pr)}, is closed: ${next}` : null
    }
    case 'follow':
      return null
    default:
      return assertNever(route, 'route')
  }
}

function reference(pr: { owner: string; repo: string; number: number }): string {
  return `${pr.owner}/${pr.repo}#${pr.number}`
}

/**
 * The reply to a queued request withdrawn before its job was created (hand-over/report-queued-withdrawal.ts): why, and
 * that asking again starts a new request. `reason` is the action's own sentence; `runUrl` the reporting run.
 */
export function writeWithdrawnReply(reason: string, trigger: string, runUrl: string): string {
  return (
    `🚫 ${reason}\n\nTo ask again, comment \`${trigger} <instruction>\` here: it starts a new request.` +
    `\n\n[Reporting run](${runUrl})`
  )
}
