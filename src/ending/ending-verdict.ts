// The verdict of every ending (describeVerdict): the summary's heading and the next step, decided once
// under an exhaustive switch.
import { Input } from '../kernel/action-names.js'
import { assertNever } from '../runtime/assert-never.js'
import { requestKind, requestNumber } from '../service/pull-request-link.js'
import { finalStatusOf } from '../service/job-record.js'
import type { EndingWords } from './ending-words.js'
import { WITHOUT_REPORTER } from './queued-words.js'
import type { GroupHold, HandedOver, RunOutcome } from '../kernel/run-outcome.js'

/** The summary's heading and next step. */
export interface Verdict {
  /** The heading: an icon and the verdict. */
  heading: string
  /** What to do next, in whole sentences; null where the sentence above it says it, or there is nothing to do. */
  next: string | null
}

/**
 * The verdict a person reads first, at the top of the job summary, and the step to take next, only
 * where there is one. The heading says what happened; the short sentence under it names the job (its
 * id is said there, once), so neither the heading nor the next step names it again. An error's reason
 * stands in for the short sentence: the heading names the job when the reason does not.
 */
export function describeVerdict(outcome: RunOutcome, { icon, level }: Pick<EndingWords, 'icon' | 'level'>): Verdict {
  const { job } = outcome
  const jobId = outcome.jobId || job?.id || ''
  const withItsId = `run this action with the job's id as ${Input.jobId} and no ${Input.prompt}`
  const dashboard = "Look at the job in the project's dashboard"
  // A completed job fails the step under requirePr: the heading's mark says the step's verdict, not the job's.
  const mark = outcome.ending === 'final' && level === 'failed' ? '❌' : icon
  const says = (verdict: string, next: string | null = null): Verdict => ({
    heading: `${mark} ${verdict}`.trim(),
    next
  })
  switch (outcome.ending) {
    case 'final': {
      const status = finalStatusOf(job?.status ?? '')
      switch (status) {
        case 'failed':
          return says('Failed', `${dashboard}, then run again, perhaps with a clearer prompt.`)
        case 'archived':
          return says('Archived', `${dashboard} to see how far it got.`)
        case 'completed':
        case null:
          break
        default:
          return assertNever(status, 'job status')
      }
      if (job?.prLink) {
        // Named as its host names it: a merge request on GitLab, `!7`; a pull request elsewhere, `#7`.
        const kind = requestKind(job.prLink)
        return outcome.followUp
          ? says(`Completed: the follow-up is in the ${kind}`, `Review the ${kind}'s new changes.`)
          : says(
              `Completed: ${kind} ${requestNumber(job.prLink)} is ready`,
              `Review the ${kind}, and merge it when it is right.`
            )
      }
      if (level === 'failed') {
        return says(
          `Failed (${Input.requirePr} is true): no pull request`,
          `${dashboard} to see what it did; run again with a clearer prompt, or set ${Input.requirePr} to false ` +
            'if a run without changes is fine.'
        )
      }
      if (job?.refusedPrLink !== undefined) return says('Completed: no pull request link', `${dashboard}.`)
      return says('Completed: no changes', `If you expected changes, look at the job in the project's dashboard.`)
    }
    // A job handed over has one next step, the reply's too (thread-words.ts): who tells its ending.
    case 'created':
      if (outcome.handedOver && jobId) {
        // A record that could not be left hands nothing over: the job is not followed, and nothing tells it.
        const over = outcome.handedOver.unrecorded ? 'not followed' : 'handed over'
        const heading = outcome.followUp ? `Sent: the follow-up message, ${over}` : `Created: the job, ${over}`
        return says(heading, wordHandedOverNext(outcome.handedOver))
      }
      return outcome.followUp
        ? says('Sent: the follow-up message, not followed', `To follow the job, ${withItsId}.`)
        : says('Created: the job, not followed', `To follow it, ${withItsId}.`)
    case 'queued':
      if (outcome.unkept)
        return says(
          'Failed: the rate limit refused the create, and the request was not kept',
          'Nothing will create the job: ask for it again once the rate limit allows.'
        )
      return says(
        'Queued: the rate limit refused the create for now',
        `Nothing to do: the repository's reporting run creates the job and tells its ending. ${WITHOUT_REPORTER}`
      )
    case 'timeout':
      if (outcome.handedOver && jobId) {
        const over = outcome.handedOver.unrecorded ? '' : ', handed over'
        return says(`Timed out: the job is still running${over}`, wordHandedOverNext(outcome.handedOver))
      }
      return says('Timed out: the job is still running', `To follow it again, ${withItsId}, or raise ${Input.timeout}.`)
    case 'noSign':
      return says(
        outcome.answerStatus ? 'Took the message: the job still shows its earlier result' : 'No sign of work yet',
        `Look at the job and its pull request before sending the message again; to follow it, ${withItsId}.`
      )
    case 'cancelled':
      if (jobId) return says('Cancelled: the job is still running', `To follow it again, ${withItsId}.`)
      return outcome.writeInFlight
        ? says(
            'Cancelled: a job may have been created',
            "If it was, it keeps running on the service: look for it among the project's newest jobs before asking again."
          )
        : says('Cancelled: nothing was created', 'Run the workflow again when you want the job.')
    case 'error': {
      // The reason is the sentence shown under the heading, and it says what to do.
      const named = jobId && !(outcome.reason ?? '').includes(jobId) ? ` job ${jobId}` : ' the job'
      if (jobId && outcome.followUp && !job) return says(`Failed: the follow-up message to${named}`)
      if (jobId) return says(`Failed: following${named}`)
      if (outcome.failure === 'takenUnread') return says('Failed: a job was created, but its id is unknown')
      if (outcome.failure === 'uncertain') return says('Failed: a job may have been created')
      return says('Failed: nothing was created')
    }
    case 'dry-run':
      if (outcome.followUp)
        return says('Dry run: the follow-up message, not sent', `Set ${Input.dryRun} to false to send it.`)
      return jobId
        ? says('Dry run: the job, not read', `Set ${Input.dryRun} to false to follow it.`)
        : says('Dry run: the prompt, not sent', `Set ${Input.dryRun} to false to create the job.`)
    case 'skipped':
      return says('No job was started')
    case 'held':
      return judgeHold(outcome.hold, says)
    default:
      return assertNever(outcome, 'ending')
  }
}

/**
 * The one next step of a job handed over, for the summary and the thread's reply alike: the
 * repository's reporting run tells its ending; where none has ever recorded itself, how to get the
 * ending instead (the report-later workflow, or a run that follows the job by its id); where its record
 * could not be left, that no run will tell it, and how to follow it instead.
 */
export function wordHandedOverNext({ reporterKnown, unrecorded }: HandedOver): string {
  if (unrecorded) {
    return (
      "This run could not leave the job's record for the repository's reporting run, so its ending will not be " +
      `posted where it was asked for: follow the job with a run of this action given its id as ${Input.jobId} and no ` +
      `${Input.prompt}.`
    )
  }
  return reporterKnown
    ? `Nothing to do: the repository's reporting run (${Input.report}: pending) tells its ending where it was asked ` +
        'for, once it reads the job.'
    : `No reporting run has recorded itself in this repository yet, so nothing will tell its ending: add the ` +
        `report-later workflow (examples/workflows/report-later.yml, with ${Input.report}: pending), or follow the job ` +
        `with a run of this action given its id as ${Input.jobId} and no ${Input.prompt}.`
}

/** A group's held run's heading and next step. */
export function judgeHold(hold: GroupHold, says: (verdict: string, next?: string | null) => Verdict): Verdict {
  switch (hold.why) {
    case 'covered':
      return says('Nothing to send: the docs were told of these changes already')
    case 'waited-out':
      return says(
        "Waited out: the group's job was busy",
        `Nothing to do: the group's next run sends these changes. To wait longer for the job, raise ${Input.timeout}.`
      )
    case 'handed-over':
      return says(
        "Held: the group's handed-over job is still working",
        "Nothing to do: the group's next run after the job ends sends these changes."
      )
    case 'unread':
      return says(
        'Held: GitHub could not be read',
        "The group's next run sends these changes; run the workflow again to send them now."
      )
    case 'code-closed':
      return says(
        hold.merged ? 'Code merged: the docs pull request was told' : 'Code closed: the docs pull request was told',
        hold.merged && hold.docs ? 'Review the docs pull request, and merge it when it is right.' : null
      )
    default:
      return assertNever(hold, 'group hold')
  }
}
