// The verdict a person reads first, at the top of the job summary: what happened (completed, failed,
// timed out, cancelled, or that nothing was created), the job when there is one, and the next step.
// Its words are the action's own; the job id is the service's text, checked to hold no control
// character (safety/job-id.ts), and the reason of a failure is the action's own sentence. The summary
// escapes all of it as HTML, inside an HTML heading, so no Markdown in an id is live.
import { Input } from '../inputs/action-names.js'
import { describeEnding, type RunOutcome } from './run-ending.js'
import { pullRequestNumber } from '../service/pull-request-link.js'

export interface Verdict {
  /** The heading: an icon, the verdict, the job. */
  heading: string
  /** What to do next, in whole sentences. */
  next: string
}

/** The verdict on a run that ended (a skipped one has none: it writes no summary). */
export function verdictOf(outcome: RunOutcome): Verdict {
  const { job } = outcome
  const jobId = outcome.jobId || job?.id || ''
  const { icon, level } = describeEnding(outcome)
  const named = `job ${jobId}`
  const withJobIdAlone = `run this action with ${Input.jobId}: ${jobId} and no ${Input.prompt}`
  const dashboard = `Look at ${named} in the project's dashboard`
  // A completed job fails the step under requirePr: the heading's mark says the step's verdict, not the job's.
  const mark = outcome.ending === 'final' && level === 'failed' ? '❌' : icon
  const says = (verdict: string, next: string): Verdict => ({ heading: `${mark} ${verdict}`.trim(), next })
  switch (outcome.ending) {
    case 'final': {
      const status = job?.status ?? ''
      if (status === 'failed') {
        return says(`Failed: ${named}`, `${dashboard}, then run again, perhaps with a clearer prompt.`)
      }
      if (status === 'archived') return says(`Archived: ${named}`, `${dashboard}: it may not have finished its work.`)
      if (job?.prLink) {
        const number = pullRequestNumber(job.prLink)
        const did = outcome.followUp ? 'took the follow-up message' : `opened pull request #${number}`
        return says(`Completed: ${named} ${did}`, `Review the pull request: ${job.prLink}`)
      }
      const failed = level === 'failed' ? `Failed (${Input.requirePr} is true): ` : 'Completed: '
      if (job?.refusedPrLink !== undefined) {
        return says(
          `${failed}${named} gave a link that is not a pull request`,
          `${dashboard} for its pull request; the link it gave is not passed on.`
        )
      }
      return says(
        `${failed}${named} opened no pull request`,
        `Nothing to review: the agent changed no files, or the project pushes straight to its deploy branch. ` +
          `${dashboard} if you expected changes.`
      )
    }
    case 'created':
      return outcome.followUp
        ? says(`Sent: the follow-up message to ${named}, not followed`, `To follow it, ${withJobIdAlone}.`)
        : says(`Created: ${named}, not followed`, `To follow it, ${withJobIdAlone}.`)
    case 'timeout':
      return says(
        `Timed out: ${named} is still running`,
        `To follow it again, ${withJobIdAlone}, or raise ${Input.timeout}.`
      )
    case 'noSign':
      if (outcome.answerStatus) {
        return says(
          `Took the message: ${named} still shows its earlier result`,
          `Look at the job and its pull request before sending the message again; to follow it, ${withJobIdAlone}.`
        )
      }
      return says(
        `No sign of work: ${named} still shows its earlier result`,
        `Look at the job and its pull request before sending the message again; to follow it, ${withJobIdAlone}.`
      )
    case 'cancelled':
      if (jobId) {
        return says(`Cancelled: ${named} is still running`, `To follow it again, ${withJobIdAlone}.`)
      }
      return outcome.writeInFlight
        ? says(
            'Cancelled: a job may have been created',
            "The create was on its way when the run was cancelled: check the project's jobs before running again."
          )
        : says('Cancelled: nothing was created', 'Run the workflow again when you want the job.')
    case 'error': {
      const reason = outcome.reason ?? "The workflow run's log says why."
      if (jobId && outcome.followUp && !job) {
        return says(`Failed: the follow-up message to ${named}`, reason)
      }
      if (jobId) return says(`Failed: following ${named}`, reason)
      if (outcome.createdUnread) return says('Failed: a job was created, but its id is unknown', reason)
      if (outcome.writeUncertain) return says('Failed: a job may have been created', reason)
      return says('Failed: nothing was created', reason)
    }
    case 'dry-run':
      if (outcome.followUp)
        return says(`Dry run: nothing was sent to ${named}`, `Set ${Input.dryRun} to false to send it.`)
      return jobId
        ? says(`Dry run: ${named} was not read`, `Set ${Input.dryRun} to false to follow it.`)
        : says('Dry run: nothing was sent', `Set ${Input.dryRun} to false to create the job.`)
    case 'skipped':
      return says('No job was started', outcome.reason ?? '')
  }
}

/** Whether the run followed a job (read it until it ended, or until the run ended): the summary then says for how long. */
export function followedAJob(outcome: RunOutcome): boolean {
  if (!(outcome.jobId || outcome.job)) return false
  return !['created', 'dry-run', 'skipped'].includes(outcome.ending)
}
