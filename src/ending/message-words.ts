// The words of a follow-up message's endings: a job that showed no sign of taking it, or took it and
// still read as before, the line said while it is awaited, and the way to a new job after a refusal.
import { Input } from '../kernel/action-names.js'
import { FRESH_FLAG } from '../kernel/comment-settings.js'
import type { EndingWords, NewJobWay } from '../kernel/run-outcome.js'
import { formatDuration } from '../runtime/duration.js'
import type { Job } from '../service/job-record.js'
import { requestKind } from '../service/pull-request-link.js'
import type { ValueFormat } from './value-format.js'

/** The sentence that names the way to a new job after a refused message. */
export function wordNewJobWay(way: NewJobWay): string {
  return way.by === 'comment'
    ? `To start a new job, comment \`${way.trigger} ${FRESH_FLAG} <instruction>\` on the pull request.`
    : 'To start a new job, run this action without jobId.'
}

/** The line said once when a follow after a message reads a final status it does not believe yet. */
export function staleLine(job: Job, windowMs: number): string {
  return (
    `Job ${job.id} still reads ${job.status}${job.prLink ? ` (${job.prLink})` : ''}, as it may for a while after ` +
    `taking a message: waiting up to ${formatDuration(windowMs)} for it to show that it is working on it.`
  )
}

/** What a job read after a message showed: its status and its request, for the log and for where the words go. */
function jobAsShown(job: Job, format: ValueFormat): { shown: string; shownThere: string } {
  const with_ = (link: string): string => `, with ${requestKind(job.prLink)} ${link}`
  const none = ', with no pull request'
  return {
    shown: `${job.status}${job.prLink ? with_(job.prLink) : none}`,
    shownThere: `${format.status(job.status)}${job.prLink ? with_(format.link(job.prLink)) : none}`
  }
}

/** After a message, a job that read final throughout: a warning, with what it last showed. */
export function wordNoSign(job: Job, name: string, waitedMs: number, format: ValueFormat): EndingWords {
  const { shown, shownThere } = jobAsShown(job, format)
  return {
    level: 'warning',
    icon: '⚠️',
    short: `Job ${name} showed no sign of taking the follow-up message: it still read ${shownThere}.`,
    log:
      `Job ${name} showed no sign of having taken the follow-up message within ${formatDuration(waitedMs)}: ` +
      `every read showed it ${shown}, as before the message. The service may be slow to show the new work, or ` +
      `the agent did it between two reads. Look at the job and its pull request before sending the message again; ` +
      `to follow the job, run this action with ${Input.jobId}: ${job.id} and no ${Input.prompt}.`
  }
}

/**
 * After a message whose answer showed the job working, a job that read final on every read after it:
 * the service said it took the message, so this is not "no sign"; what was seen is said, both ways
 * it can be read (the work done between two reads, or the earlier record still shown). A warning.
 */
export function wordUnconfirmedMessage(
  job: Job,
  {
    name,
    answerStatus,
    waitedMs,
    format
  }: { name: string; answerStatus: string; waitedMs: number; format: ValueFormat }
): EndingWords {
  const { shown, shownThere } = jobAsShown(job, format)
  return {
    level: 'warning',
    icon: '⚠️',
    short:
      `The service took the follow-up message to job ${name} (its answer showed it ${format.status(answerStatus)}), ` +
      `but every read after it showed ${shownThere}, as before.`,
    log:
      `The service took the follow-up message to job ${name}: its answer showed the job ${answerStatus}. Every read in ` +
      `the ${formatDuration(waitedMs)} after it showed it ${shown}, as before the message: the agent may have done ` +
      `the work between two reads, or the service may still be showing the job's earlier record. Look at the job ` +
      `and its pull request before sending the message again; to follow the job, run this action with ` +
      `${Input.jobId}: ${job.id} and no ${Input.prompt}.`
  }
}
