// The words of every ending (describeEndingWords): the step's level, its log line, the short sentence and the
// reply's icon, each ending worded once under an exhaustive switch; a queued create's words are
// queued-words.ts's, a follow-up message's message-words.ts's, a group's hold hold-words.ts's.
// run-ending.ts puts them together with the verdict (ending-verdict.ts) into the one description
// every place picks from.
import { Input, Output } from '../kernel/action-names.js'
import { assertNever } from '../runtime/assert-never.js'
import { formatDuration } from '../runtime/duration.js'
import { finalStatusOf, type Job } from '../service/job-record.js'
import { requestKind } from '../service/pull-request-link.js'
import type { EndingWords, RunOutcome } from '../kernel/run-outcome.js'
import { wordHold } from './hold-words.js'
import { wordNewJobWay, wordNoSign, wordUnconfirmedMessage } from './message-words.js'
import { wordQueued } from './queued-words.js'
import { wordServiceFailure } from './service-failure-words.js'
import type { ValueFormat } from './value-format.js'

export type { EndingWords } from '../kernel/run-outcome.js'

const KEEPS_RUNNING = 'keeps running on the service, which has no cancel operation'
const NO_CHANGES = 'the agent changed no files, or the project pushes straight to its deploy branch'

/** The log line, the short sentence and the level of an ending. */
export function describeEndingWords(outcome: RunOutcome, format: ValueFormat): EndingWords {
  const { job } = outcome
  const jobId = outcome.jobId || job?.id || ''
  const name = format.id(jobId)
  // With a prompt too, jobId sends it to the job as a follow-up message: following is jobId alone.
  const withJobIdAlone = `${Input.jobId}: ${jobId} and no ${Input.prompt}`
  const followAgain = `To follow it again, run this action with ${withJobIdAlone}.`
  switch (outcome.ending) {
    case 'final':
      return wordFinalStatus(outcome.job, {
        name,
        requirePr: outcome.requirePr ?? false,
        followUp: outcome.followUp ?? false,
        format
      })
    case 'created':
      if (outcome.followUp) {
        return {
          level: 'info',
          icon: '📨',
          short: `The follow-up message was sent to job ${name}; this run does not follow it (${Input.wait} is false).`,
          log: `Not following job ${jobId} after the message (${Input.wait} is false). Follow it later with ${withJobIdAlone}.`
        }
      }
      if (outcome.fromQueue) {
        return {
          level: 'info',
          icon: '🚀',
          short: `Job ${name} was created from the queue, once the service's rate limit allowed it; the repository's reporting run posts its ending on this reply.`,
          log: `Created the queued job ${jobId}: it is reported like the others.`
        }
      }
      return {
        level: 'info',
        icon: '🚀',
        short: `Job ${name} was created; this run does not follow it (${Input.wait} is false).`,
        log: `Not following job ${jobId} (${Input.wait} is false). Follow it later with ${withJobIdAlone}.`
      }
    case 'queued':
      return wordQueued(outcome)
    case 'timeout':
      return {
        level: 'failed',
        icon: '⏱️',
        short: `Job ${name} was still ${job ? format.status(job.status) : 'running'} when the run's ${Input.timeout} (${formatDuration(outcome.timeoutMs ?? 0)}) ran out. It ${KEEPS_RUNNING}.`,
        log:
          `Job ${jobId} did not reach a final status within the timeout of ${formatDuration(outcome.timeoutMs ?? 0)} ` +
          `(last status: ${job?.status ?? 'not read yet'}).${outcome.lastProblem ? ` The last read failed: ${wordServiceFailure(outcome.lastProblem)}` : ''} ` +
          `The job ${KEEPS_RUNNING}. ${followAgain.slice(0, -1)}, or raise ${Input.timeout}.`
      }
    case 'noSign':
      return outcome.answerStatus
        ? wordUnconfirmedMessage(outcome.job, {
            name,
            answerStatus: outcome.answerStatus,
            waitedMs: outcome.waitedMs,
            format
          })
        : wordNoSign(outcome.job, name, outcome.waitedMs, format)
    case 'cancelled':
      if (jobId) {
        const unsure =
          outcome.followUp && outcome.writeInFlight
            ? ' while the message was being sent: it may or may not have reached the job'
            : ''
        return {
          level: 'failed',
          icon: '🛑',
          short: `The workflow run was cancelled${unsure}. Job ${name} ${KEEPS_RUNNING}.`,
          log: `The run was cancelled${unsure}. Job ${jobId} ${KEEPS_RUNNING}. ${followAgain}`
        }
      }
      if (outcome.writeInFlight) {
        return {
          level: 'failed',
          icon: '🛑',
          short: 'The workflow run was cancelled while the job was being created: it may or may not have been created.',
          log:
            'The run was cancelled while the job was being created: it may or may not have been created. ' +
            "Check the project's jobs before running again."
        }
      }
      return {
        level: 'failed',
        icon: '🛑',
        short: 'The workflow run was cancelled before a job was started.',
        log: 'The run was cancelled before a job was created.'
      }
    case 'error':
      return {
        level: 'failed',
        icon: '❌',
        short: wordFailure(outcome, name),
        log: outcome.reason ?? 'The run failed.'
      }
    case 'dry-run':
      if (outcome.followUp) {
        return {
          level: 'notice',
          icon: '🧪',
          short: `Nothing was sent to job ${name} (${Input.dryRun} is true); the job summary shows the exact message it would have received.`,
          log:
            `Dry run (${Input.dryRun} is true): the message above is exactly what would be sent to job ${jobId}; ` +
            `nothing was sent to the service. Set ${Input.dryRun} to false to send it.`
        }
      }
      return {
        level: 'notice',
        icon: '🧪',
        short: jobId
          ? `Job ${name} would be followed; nothing was sent to the service (${Input.dryRun} is true).`
          : `Nothing was sent to the service (${Input.dryRun} is true); the job summary shows the exact prompt it would have received.`,
        log: jobId
          ? `Dry run (${Input.dryRun} is true): job ${jobId} would be followed; nothing was sent to the service.`
          : `Dry run (${Input.dryRun} is true): the prompt above is exactly what would be sent; nothing was sent ` +
            `to the service and no job was created. Set ${Input.dryRun} to false to create the job.`
      }
    case 'skipped':
      return { level: 'notice', icon: '', short: 'No job was started.', log: outcome.reason || 'No job was started.' }
    case 'held':
      return wordHold(outcome.hold, name)
    default:
      return assertNever(outcome, 'ending')
  }
}

/**
 * A failed run in one sentence for the summary and the thread. Where a write's answer was lost, it says
 * that the job, or the message, may exist: a reader who took it for "nothing happened" would ask again.
 */
function wordFailure(outcome: Extract<RunOutcome, { ending: 'error' }>, name: string): string {
  const seeLog = "the workflow run's log says"
  if (outcome.followUp && !outcome.job && outcome.failure === 'refused') {
    return (
      `Job ${name} did not take the follow-up message: a job that is archived or failed may take no more, and ` +
      `nothing was sent anywhere else. ${outcome.newJobWay ? `${wordNewJobWay(outcome.newJobWay)} ` : ''}` +
      "The workflow run's log says more."
    )
  }
  if (outcome.followUp && !outcome.job) {
    return outcome.failure === 'uncertain'
      ? `The service's answer to the follow-up message was lost, so it may or may not have reached job ${name}. ` +
          `Look at the job and its pull request before asking again, or the agent may do the work twice; ${seeLog} more.`
      : `The follow-up message to job ${name} failed; ${seeLog} why.`
  }
  if (outcome.jobId || outcome.job) return `Following job ${name} failed; ${seeLog} why.`
  if (outcome.failure === 'takenUnread')
    return `A job was created, but its id could not be read; ${seeLog} how to find it.`
  if (outcome.failure === 'uncertain') {
    return (
      "The service's answer to the create was lost, so the job may or may not have been created. Check the " +
      `project's jobs before asking again, or a second job may be made; ${seeLog} more.`
    )
  }
  return `The run failed and no job was started; ${seeLog} why.`
}

const FAILED = 'the agent hit an unrecoverable error'
const ARCHIVED = 'it may not have finished its work'

/**
 * An ending told later in one mark and one sentence, as a held run words it, where only the job's
 * status is kept: the index's record of a told job, the commit's status (`name` is then "The
 * documentation job"). A record's `unknown` is a job the service no longer knew.
 */
export function wordToldEnding(
  status: string,
  name: string,
  /** The status as shown where the words go (the service's text, neutralised there). */
  shown = status
): { icon: string; short: string } {
  switch (status) {
    case 'failed':
      return { icon: '❌', short: `${name} failed: ${FAILED}.` }
    case 'archived':
      return { icon: '🗄️', short: `${name} was archived; ${ARCHIVED}.` }
    case 'completed':
      return { icon: '✅', short: `${name} completed.` }
    case 'unknown':
      return { icon: '❓', short: `${name} is no longer known to the service: its ending cannot be read.` }
    default:
      return { icon: '❔', short: `${name} ended with the status ${shown}, which this action does not know.` }
  }
}

/** A final status: completed succeeds (or fails under requirePr without a PR), archived warns, failed fails. */
function wordFinalStatus(
  job: Job,
  { name, requirePr, followUp, format }: { name: string; requirePr: boolean; followUp: boolean; format: ValueFormat }
): EndingWords {
  const status = finalStatusOf(job.status)
  switch (status) {
    case 'failed': {
      const told = wordToldEnding('failed', `Job ${name}`)
      return {
        level: 'failed',
        ...told,
        log: `${told.short} Look the job up in the project's dashboard, then run again, perhaps with a clearer prompt.`
      }
    }
    case 'archived':
      return {
        level: 'warning',
        ...wordToldEnding('archived', `Job ${name}`),
        log: `Job ${name} was archived${job.archivedAt ? ` at ${job.archivedAt}` : ''}; ${ARCHIVED}.`
      }
    case 'completed':
    case null:
      break
    default:
      return assertNever(status, 'job status')
  }
  if (job.prLink && followUp) {
    // After a follow-up the agent works on the job's own pull request: it may be the one it had.
    return {
      level: 'info',
      icon: '✅',
      short: `Job ${name} completed the follow-up; its ${requestKind(job.prLink)}: ${format.link(job.prLink)}`,
      log: `Job ${name} completed the follow-up message; its ${requestKind(job.prLink)}: ${job.prLink}`
    }
  }
  if (job.prLink) {
    return {
      level: 'info',
      icon: '✅',
      short: `Job ${name} opened a ${requestKind(job.prLink)}: ${format.link(job.prLink)}`,
      log: `Job ${name} completed and opened a ${requestKind(job.prLink)}: ${job.prLink}`
    }
  }
  // The link itself was warned about once, when it was read (status-log.ts).
  if (job.refusedPrLink !== undefined) {
    return {
      level: requirePr ? 'failed' : 'notice',
      icon: '⚠️',
      short:
        `Job ${name} completed, but the link it gave for its pull request does not have the shape of one, ` +
        'so it is not passed on.',
      log:
        `Job ${name} completed, but the link it gave for its pull request does not have the shape of one, so it is ` +
        `not passed on and the ${Output.prLink} output is empty. Look the job up in the project's dashboard` +
        `${requirePr ? `; ${Input.requirePr} is true, so the step fails` : ''}.`
    }
  }
  return {
    level: requirePr ? 'failed' : 'notice',
    icon: '☑️',
    short: `Job ${name} completed without a pull request: ${NO_CHANGES}.`,
    log: requirePr
      ? `Job ${name} completed without opening a pull request, and ${Input.requirePr} is true. The agent changed ` +
        `no files, or the project pushes straight to its deploy branch instead of opening pull requests.`
      : `Job ${name} completed without opening a pull request: ${NO_CHANGES}.`
  }
}
