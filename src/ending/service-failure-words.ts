// Every sentence a failed request to the job service is told with, whole: what happened, and what to
// do. The service layer throws what happened as data (service/service-error.ts); this is the one place
// that words it, for the ending and for the lines that say a request is asked again. A line from a
// user's log is found here by searching for its words. The two writes (a create and a follow-up
// message) fail the same ways, so each failure has its sentence per write side by side. How to start
// a new job instead of one that refused a message depends on how the run named the job: the ending of
// a failed request (wordFailedRequest) adds it.
import type { KnownJob } from '../kernel/run-outcome.js'
import { formatDuration } from '../runtime/duration.js'
import { formatBytes } from '../service/answer-excerpt.js'
import type { ServiceError, ServiceProblem, UnreadAnswer } from '../service/service-error.js'
import { wordNewJobWay } from './message-words.js'

/**
 * A failure in two parts: what happened, and what to do about it (null where there is nothing to do
 * but read on). The log says them as one sentence; the job summary shows the second as its next step.
 */
export interface FailureWords {
  happened: string
  next: string | null
}

/** What happened, what to do, and how the log's one sentence joins them (`; ` where it says "…; check baseUrl"). */
interface Said extends FailureWords {
  joiner: ' ' | '; ' | ': '
}

/** The sentence that says what happened and what to do (and why a retry was given up on, after them). */
export function wordServiceFailure(error: ServiceError): string {
  const { happened, next, joiner } = wordProblem(error)
  return `${next ? `${happened}${joiner}${next}` : happened}${givenUpWhy(error)}`
}

/** What happened (and why a retry was given up on), and what to do, apart: each a whole sentence. */
export function wordServiceFailureParts(error: ServiceError): FailureWords {
  const { happened, next } = wordProblem(error)
  const ended = /[.!?)]$/.test(happened) ? happened : `${happened}.`
  return { happened: `${ended}${givenUpWhy(error)}`, next: next && `${next[0].toUpperCase()}${next.slice(1)}` }
}

/**
 * A run that ended on a failed request, worded: its reason (the log's sentence) and, where there is
 * something to do, what the summary tells apart (what happened, and the next step).
 */
export function wordFailedRequest(
  error: ServiceError,
  known: Pick<KnownJob, 'followUp' | 'newJobWay'>
): { reason: string; told?: FailureWords & { next: string } } {
  // A refused message: the service's failure says what happened; how to start a new job instead
  // depends on how the run named the job, which the ending knows.
  const newJob =
    error.kind === 'refused' && known.followUp ? ` ${wordNewJobWay(known.newJobWay ?? { by: 'input' })}` : ''
  // What to do is the summary's next step: the service's failure's own, then the way to a new job.
  const parts = wordServiceFailureParts(error)
  const next = [parts.next, newJob.trim()].filter(Boolean).join(' ')
  const reason = `${wordServiceFailure(error)}${newJob}`
  return next ? { reason, told: { happened: parts.happened, next } } : { reason }
}

/** Why a request was not asked again, when a retry was given up on: a sentence with its leading space. */
function givenUpWhy({ givenUp, jobId }: ServiceError): string {
  if (givenUp?.by === 'noTimeForRetry') return ' The timeout runs out before another try could be made.'
  if (givenUp?.by === 'tooLongToQueue') {
    return (
      ` It could not be queued for a reporting run either: its prompt takes ${givenUp.compressedChars.toLocaleString('en-US')} ` +
      `characters compressed, more than the ${givenUp.most.toLocaleString('en-US')} a queued request may keep. ` +
      'Shorten the prompt or its context (contextLimit) to have it queued.'
    )
  }
  if (givenUp?.by === 'notAJobInARow')
    return ` This went on for ${givenUp.reads} reads in a row; giving up on job ${jobId}.`
  return ''
}

/** The line that says a failed request is asked again: `<what happened> Trying again in 1.5s (try 2 of 4).` */
export function wordRetry(error: ServiceError, waitMs: number, tries?: { next: number; of: number }): string {
  return `${wordServiceFailure(error)} ${tryingAgain(waitMs, tries)}`
}

/** The end of a line that says a request is asked again: `Trying again in 1.5s (try 2 of 4).` */
function tryingAgain(waitMs: number, tries?: { next: number; of: number }): string {
  return `Trying again in ${formatDuration(waitMs)}${tries ? ` (try ${tries.next} of ${tries.of})` : ''}.`
}

/** What happened, then what to do, joined in the log by `joiner`. */
function said(happened: string, next: string | null = null, joiner: Said['joiner'] = ' '): Said {
  return { happened, next, joiner }
}

function wordProblem(error: ServiceError): Said {
  const { problem } = error
  // Failures that read the same whatever was asked: the key, its scope, the address.
  switch (problem.what) {
    case 'redirect':
      return said(
        `The service answered with a redirect (HTTP ${problem.status} to ${problem.target}), which is not followed: ` +
          `the key is only sent to ${error.place.baseUrl}.`,
        'Check baseUrl; the service may have moved.'
      )
    case 'keyRejected':
      return said(
        'The service rejected the API key (HTTP 401): it is expired or unknown.',
        "Check the repository secret passed as apiKey; a new key can be generated on the API keys page of the project's dashboard."
      )
    case 'forbidden': {
      const scope = error.operation === 'read' ? 'read' : 'write'
      return said(
        `The service refused the request (HTTP 403): the API key lacks the ${scope} scope, or this runner's ` +
          "address is outside the project's IP allow-list.",
        `Use a key with the ${scope} scope, or allow the runner's address.`
      )
    }
    case 'unexpectedStatus':
      return said(`The service answered HTTP ${problem.status} (${problem.excerpt}).`, 'Check baseUrl and projectId.')
    default:
      // The others read differently for a read, a create and a message.
      if (error.operation === 'read') return wordReadProblem(problem, error.jobId ?? '', error)
      return error.operation === 'create' ? wordCreateProblem(problem, error) : wordMessageProblem(problem, error)
  }
}

type Place = Pick<ServiceError, 'place'>

/** Why a JSON object is not a job record (the field, and what is wrong with it); nothing for a page that is no object. */
function because(fieldProblem: string | null): string {
  return fieldProblem ? `, as ${fieldProblem}` : ''
}

/** What a success's answer that could not be read was. */
function wordUnread(unread: UnreadAnswer): string {
  switch (unread.as) {
    case 'tooLarge':
      return `it was larger than ${formatBytes(unread.maxBytes)}`
    case 'notARecord': {
      const why = unread.fieldProblem ?? (unread.namedJob !== null ? 'it names another job' : null)
      return `it is not a job record${because(why)}: ${unread.excerpt}`
    }
    case 'timedOut':
      return 'the timeout ran out while it arrived'
    case 'cutOff':
      return unread.detail
  }
}

function wordReadProblem(problem: ServiceProblem, jobId: string, { place }: Place): Said {
  switch (problem.what) {
    case 'refusedOnTheRunner':
      return said(
        `The read of job ${jobId} was not sent: ${problem.detail}.`,
        'Check the inputs it is made of (apiKey is svc_ followed by printable ASCII, baseUrl, projectId and jobId); ' +
          'reading again would fail the same way.'
      )
    case 'unreachable':
      return said(`Could not read job ${jobId} at ${place.baseUrl}: ${problem.detail}.`, 'Check baseUrl.')
    case 'noAnswer':
      return said(`Could not read job ${jobId}: ${problem.detail}.`)
    case 'notARecord':
      return said(
        problem.namedJob !== null
          ? `The service answered the read of job ${jobId} with the record of another job (${problem.namedJob}), which is ` +
              `not the job asked for; a proxy or cache may be in the way.`
          : `The service answered the read of job ${jobId} with something that is not a job record${because(problem.fieldProblem)} ` +
              `(HTTP ${problem.status}: ${problem.excerpt}); a proxy may be in the way.`
      )
    case 'refused':
      return said(
        `Job ${jobId} was not found in project ${place.projectId} (HTTP 404).`,
        'Check that jobId and projectId belong together.'
      )
    case 'failedStatus':
      return said(`Reading job ${jobId} failed with HTTP ${problem.status} (${problem.excerpt}).`)
    default:
      return said(`Reading job ${jobId} failed (${problem.what}).`)
  }
}

function wordCreateProblem(problem: ServiceProblem, { place: { projectId, baseUrl } }: Place): Said {
  // The sentence of every failure after which the job may exist: said once here, whole.
  const mayExist = (before: string): Said =>
    said(`${before} The job may or may not have been created`, "check the project's jobs before running again.", ': ')
  switch (problem.what) {
    case 'notARecord':
      return mayExist(
        `The service answered the create with something that is not ${problem.namedJob !== null ? `its job's record (it names job ${problem.namedJob})` : `a job record${because(problem.fieldProblem)}`} ` +
          `(HTTP ${problem.status}: ${problem.excerpt}); a proxy may be in the way.`
      )
    case 'takenUnread':
      return said(
        `The service created the job (HTTP ${problem.status}), but its answer could not be read (${wordUnread(problem.unread)}), so its id is not known.`,
        "Look it up in the project's dashboard (it is the newest job there) and follow it with the jobId input and no prompt; " +
          'do not run this again blindly, or a second job will be made.'
      )
    case 'rateLimited':
      return said(
        "The service's rate limit was reached (HTTP 429): it allows 100 job creations per project per hour. No job was created",
        'wait before running again, or space out the runs that create jobs.',
        '; '
      )
    case 'failedStatus':
      return mayExist(`The service failed while creating the job (HTTP ${problem.status}: ${problem.excerpt}).`)
    case 'refused':
      return problem.status === 400
        ? said(
            `The service rejected the job request (HTTP 400: ${problem.excerpt}).`,
            'Check the prompt input; no job was created.'
          )
        : said(
            `The service has no project ${projectId} at ${baseUrl} (HTTP 404).`,
            'Check projectId and baseUrl; no job was created.'
          )
    case 'timedOut':
      return problem.written
        ? mayExist('The timeout ran out before the service answered the create.')
        : said(
            `The timeout ran out before the create could be sent to ${baseUrl}. No job was created`,
            'check that baseUrl is reachable from the runner, or raise the timeout.',
            '; '
          )
    case 'refusedOnTheRunner':
      return said(
        `The create was not sent: ${problem.detail}. No job was created.`,
        'Check the inputs it is made of (apiKey is svc_ followed by printable ASCII, baseUrl and projectId); ' +
          'sending it again would fail the same way.'
      )
    case 'unreachable':
      return said(
        `Could not reach the service at ${baseUrl}: ${problem.detail}. No job was created`,
        'check baseUrl, and the proxy settings if the runner uses a proxy.',
        '; '
      )
    case 'noAnswer':
      return mayExist(`Creating the job got no answer from ${baseUrl}: ${problem.detail}.`)
    default:
      return mayExist(`Creating the job failed (${problem.what}).`)
  }
}

function wordMessageProblem(problem: ServiceProblem, { place: { projectId, baseUrl }, jobId }: ServiceError): Said {
  // The sentence of every failure after which the message may have reached the job: said once here, whole.
  const mayHaveReached = (before: string): Said =>
    said(
      `${before} The message may or may not have reached job ${jobId}, so it is not sent again`,
      'look at the job and its pull request before running this again, or the agent may do the work twice.',
      ': '
    )
  const notReached = `The message did not reach job ${jobId}`
  switch (problem.what) {
    case 'notARecord':
      return mayHaveReached(
        `The service answered the message to job ${jobId} with something that is not ${problem.namedJob !== null ? `its job's record (it names job ${problem.namedJob})` : `a job record${because(problem.fieldProblem)}`} ` +
          `(HTTP ${problem.status}: ${problem.excerpt}); a proxy may be in the way.`
      )
    case 'takenUnread':
      return said(
        `The service took the message for job ${jobId} (HTTP ${problem.status}), but its answer could not be read (${wordUnread(problem.unread)}); ` +
          'following the job.'
      )
    case 'rateLimited':
      return said(
        "The service's rate limit was reached (HTTP 429): it allows 100 job creations and follow-up messages per " +
          `project per hour, together. ${notReached}`,
        'wait before running again, or space out the runs that create jobs or send messages.',
        '; '
      )
    case 'failedStatus':
      return mayHaveReached(
        `The service failed while taking the message for job ${jobId} (HTTP ${problem.status}: ${problem.excerpt}).`
      )
    case 'refused':
      return problem.status === 404
        ? said(
            `Job ${jobId} in project ${projectId} refused the follow-up message (HTTP 404: ${problem.excerpt}): the job is not ` +
              'in this project, or takes no more messages.',
            'Check jobId and projectId. No new job was created.'
          )
        : said(
            `Job ${jobId} in project ${projectId} refused the follow-up message (HTTP 400: ${problem.excerpt}): a job that is ` +
              'archived or failed may take no more messages. No new job was created.'
          )
    case 'timedOut':
      return problem.written
        ? mayHaveReached(`The timeout ran out before the service answered the message to job ${jobId}.`)
        : said(
            `The timeout ran out before the message to job ${jobId} could be sent to ${baseUrl}. ${notReached}`,
            'check that baseUrl is reachable from the runner, or raise the timeout.',
            '; '
          )
    case 'refusedOnTheRunner':
      return said(
        `The message to job ${jobId} was not sent: ${problem.detail}. ${notReached}.`,
        'Check the inputs it is made of (apiKey is svc_ followed by printable ASCII, baseUrl, projectId and jobId); ' +
          'sending it again would fail the same way.'
      )
    case 'unreachable':
      return said(
        `Could not reach the service at ${baseUrl}: ${problem.detail}. ${notReached}`,
        'check baseUrl, and the proxy settings if the runner uses a proxy.',
        '; '
      )
    case 'noAnswer':
      return mayHaveReached(`Sending the message to job ${jobId} got no answer from ${baseUrl}: ${problem.detail}.`)
    default:
      return mayHaveReached(`Sending the message to job ${jobId} failed (${problem.what}).`)
  }
}
