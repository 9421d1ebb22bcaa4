import { NOT_JSON, parseBoundedJson, type JsonBounds } from './bounded-json.js'
import { sleep, type Deadline } from './deadline.js'
import { ActionError, DeadlineError } from './errors.js'
import {
  DEFAULT_LIMITS,
  HttpClient,
  NetworkError,
  type HttpLimits,
  type HttpResponse,
  type RequestProgress
} from './http.js'
import { formatDuration } from './duration.js'
import { NOT_AN_OBJECT, readJobRecord, type Job } from './job-record.js'
import { pageText } from './page-text.js'
import { neutralise } from './untrusted-text.js'
import { backoffMs, retryAfterMs, RetryPolicy } from './retry-policy.js'

/**
 * How a request to the service went wrong, as far as the next step cares:
 * - `transient`: worth asking again (network trouble, 408, 429, 5xx on a read);
 * - `notAJob`: an answer that is not a job record (a proxy's page): worth asking again, for a while;
 * - `notFound`: 404 for a job;
 * - `notTaken`: a write (a create or a message) the service surely did not take (429, or refused
 *   before it was sent);
 * - `uncertain`: a write that may or may not have been taken (a job made, a message delivered);
 * - `takenUnread`: a write the service answered with success, whose answer could not be read: for a
 *   create, the job exists and its id is not known;
 * - `refused`: a write the service refused (400, 404: a bad body, no such project or job, a job that
 *   takes no more messages): not taken, and asking again will not help;
 * - `fatal`: asking again will not help (bad key, missing scope, redirect, bad request).
 */
export type FailureKind =
  'transient' | 'notAJob' | 'notFound' | 'notTaken' | 'uncertain' | 'takenUnread' | 'refused' | 'fatal'

export class ServiceError extends ActionError {
  override name = 'ServiceError'
  constructor(
    message: string,
    readonly kind: FailureKind,
    /** What the service asked for in Retry-After, if anything. */
    readonly retryAfterMs: number | null = null
  ) {
    super(message)
  }
}

export interface WriteHooks {
  /** Hears about tries that will be made again, and a message taken whose answer was lost. */
  log?: (line: string) => void
  /**
   * Told true when a write (a create or a message) starts to be written (from then on the service
   * may act on it), false once it is answered (or failed).
   */
  onSending?: (inFlight: boolean) => void
}

export interface ServiceOptions {
  baseUrl: string
  projectId: string
  apiKey: string
  limits?: HttpLimits
  /** The writes' retry policy; RetryPolicy.create unless a test needs shorter waits. */
  createRetry?: CreateRetry
}

type CreateRetry = { readonly [K in keyof typeof RetryPolicy.create]: number }

/**
 * The two writes the service takes, a create and a follow-up message: neither is idempotent, so both
 * go through one path (JobService.write) with the same rule. What differs is the words, and which
 * success status is surely the service's own: 201 is; a 200 is also what a proxy's page answers with.
 */
interface WriteWords {
  /** What it is: "the create", "the message to job X". */
  object: string
  /** Leading a sentence: "Creating the job", "Sending the message to job X". */
  sending: string
  /** After "while": "creating the job", "taking the message for job X". */
  doing: string
  /** The rate limit it counts against. */
  quota: string
  /** The runs that spend it. */
  spenders: string
  /** What surely did not happen when the service did not take it. */
  notTaken: string
  /** What a lost answer means, and what to do. */
  mayHave: string
  /** The inputs a request refused on the runner is made of. */
  inputs: string
  /** The status that means the service took it even when the body cannot be read; null for none. */
  surelyTaken: number | null
  /** The service took it, its answer cannot be read (`status`, `why`): what that means and what to do. */
  takenUnread(status: number, why: string): string
  /** 400 and 404: the service (or the job) refused it. */
  refused(status: 400 | 404, excerpt: string): string
}

function createWords(projectId: string, baseUrl: string): WriteWords {
  return {
    object: 'the create',
    sending: 'Creating the job',
    doing: 'creating the job',
    quota: '100 job creations per project per hour',
    spenders: 'the runs that create jobs',
    notTaken: 'No job was created',
    mayHave: "The job may or may not have been created: check the project's jobs before running again.",
    inputs: 'baseUrl and projectId',
    surelyTaken: 201,
    takenUnread: (status, why) =>
      `The service created the job (HTTP ${status}), but its answer could not be read (${why}), so its id is not known. ` +
      "Look it up in the project's dashboard (it is the newest job there) and follow it with the jobId input and no prompt; " +
      'do not run this again blindly, or a second job will be made.',
    refused: (status, text) =>
      status === 400
        ? `The service rejected the job request (HTTP 400: ${text}). Check the prompt input; no job was created.`
        : `The service has no project ${projectId} at ${baseUrl} (HTTP 404). Check projectId and baseUrl; no job was created.`
  }
}

/** The way to a new job named after a refused message, unless the caller knows a better one. */
const NEW_JOB_WAY = 'run this action without jobId'

function messageWords(jobId: string, projectId: string, newJobWay = NEW_JOB_WAY): WriteWords {
  return {
    object: `the message to job ${jobId}`,
    sending: `Sending the message to job ${jobId}`,
    doing: `taking the message for job ${jobId}`,
    quota: '100 job creations and follow-up messages per project per hour, together',
    spenders: 'the runs that create jobs or send messages',
    notTaken: `The message did not reach job ${jobId}`,
    mayHave:
      `The message may or may not have reached job ${jobId}, so it is not sent again: look at the job and its pull ` +
      `request before running this again, or the agent may do the work twice.`,
    inputs: 'baseUrl, projectId and jobId',
    surelyTaken: null,
    takenUnread: (status, why) =>
      `The service took the message for job ${jobId} (HTTP ${status}), but its answer could not be read (${why}); ` +
      `following the job.`,
    refused: (status, text) =>
      `Job ${jobId} in project ${projectId} refused the follow-up message (HTTP ${status}: ${text}): ` +
      (status === 404
        ? 'the job is not in this project, or takes no more messages. Check jobId and projectId. '
        : 'a job that is archived or failed may take no more messages. ') +
      `No new job was created; to start one, ${newJobWay}.`
  }
}

/** The job service's HTTP interface: the one place that knows its paths, headers and status codes. */
export class JobService {
  private readonly http: HttpClient
  private readonly jobsUrl: string

  private readonly limits: HttpLimits

  constructor(private readonly options: ServiceOptions) {
    this.limits = options.limits ?? DEFAULT_LIMITS
    this.http = new HttpClient(new URL(options.baseUrl).origin, this.limits)
    this.jobsUrl = `${options.baseUrl}/v2/agent/${encodeURIComponent(options.projectId)}/job`
  }

  /** Creates the job, under the writes' rule (see write). */
  async createJob(prompt: string, deadline: Deadline, hooks: WriteHooks = {}): Promise<Job> {
    const words = createWords(this.options.projectId, this.options.baseUrl)
    return this.write(this.jobsUrl, prompt, words, null, deadline, hooks)
  }

  /**
   * Sends a follow-up message to the job, under the writes' rule (see write). Returns the job as the
   * service answered, or null when the service took the message and its answer could not be read
   * (said through hooks.log): the job is known, so it can be followed all the same. A refusal (400,
   * 404) fails: a new job is never created instead.
   */
  async sendMessage(
    jobId: string,
    prompt: string,
    deadline: Deadline,
    hooks: WriteHooks = {},
    /** How to start a new job instead, said after a refusal: by default, the action without jobId. */
    newJobWay?: string
  ): Promise<Job | null> {
    const url = `${this.jobsUrl}/${encodeURIComponent(jobId)}/message`
    const words = messageWords(jobId, this.options.projectId, newJobWay)
    try {
      return await this.write(url, prompt, words, jobId, deadline, hooks)
    } catch (error) {
      if (!(error instanceof ServiceError) || error.kind !== 'takenUnread') throw error
      hooks.log?.(error.message)
      return null
    }
  }

  /**
   * Sends a write (a create, or a message to `jobId`). It is sent again only when the service said
   * it did not take it (429, or a connection refused before the request went out): every job can
   * open a pull request, every message can make the agent work again, and the service has no
   * idempotency key, so one run must never write twice. On cancel, a request being written or
   * answered is let finish, so that its answer still says what happened; one still connecting is
   * dropped (nothing of it reached the service), the waits between tries end, and no try starts after
   * a cancel or once the time is up. `onSending` is told when a request starts to be written and when
   * it is answered.
   */
  private async write(
    url: string,
    prompt: string,
    words: WriteWords,
    jobId: string | null,
    deadline: Deadline,
    hooks: WriteHooks
  ): Promise<Job> {
    const { tries, backoffBaseMs, backoffCapMs } = this.options.createRetry ?? RetryPolicy.create
    for (let attempt = 1; ; attempt++) {
      this.mayStartWrite(deadline, words)
      let failure: unknown
      try {
        return await this.writeOnce(url, prompt, words, jobId, deadline, () => hooks.onSending?.(true))
      } catch (error) {
        failure = error
      } finally {
        hooks.onSending?.(false)
      }
      if (!(failure instanceof ServiceError) || failure.kind !== 'notTaken' || attempt >= tries) throw failure
      const waitMs = failure.retryAfterMs ?? backoffMs(attempt, backoffBaseMs, backoffCapMs)
      if (waitMs >= deadline.remainingMs()) {
        throw new ServiceError(`${failure.message} The timeout runs out before another try could be made.`, 'fatal')
      }
      hooks.log?.(`${failure.message} Trying again in ${formatDuration(waitMs)} (try ${attempt + 1} of ${tries}).`)
      await sleep(waitMs, deadline)
    }
  }

  /**
   * Throws when a write must not start: the run was cancelled (while the context was read, say), or
   * its time is up by the clock, even if the deadline's timer has not fired yet. Either way nothing
   * was sent, so no job was made and no message delivered.
   */
  private mayStartWrite(deadline: Deadline, words: WriteWords): void {
    if (deadline.signal.aborted && !deadline.timeUp.aborted) throw deadline.signal.reason
    if (deadline.timeUp.aborted || deadline.remainingMs() <= 0) {
      throw this.writeFailure(new DeadlineError(), { written: false, status: null }, words)
    }
  }

  /** Asks for the job once; the caller decides whether a failure is worth another try. */
  async getJob(jobId: string, signal: AbortSignal): Promise<Job> {
    const url = `${this.jobsUrl}/${encodeURIComponent(jobId)}`
    let response: HttpResponse
    try {
      response = await this.http.send('GET', url, { headers: this.authHeaders(), signal })
    } catch (error) {
      if (error instanceof NetworkError && error.refusedLocally) {
        throw new ServiceError(
          `The read of job ${jobId} was not sent: ${error.message}. Check the inputs it is made of ` +
            `(apiKey is svc_ followed by printable ASCII, baseUrl, projectId and jobId); reading again would fail the same way.`,
          'fatal'
        )
      }
      if (error instanceof NetworkError) {
        throw new ServiceError(`Could not read job ${jobId}: ${error.message}.`, 'transient')
      }
      throw error
    }
    const { status } = response
    if (status >= 200 && status < 300) {
      const { job, problem } = readJobRecord(parseJson(response.body))
      // The record of another job is not this job, whatever else it says (a path that reached
      // another route, a cache that mixed answers): its status and prLink are not taken.
      if (job && job.id !== jobId) {
        throw new ServiceError(
          `The service answered the read of job ${jobId} with the record of another job (${job.id}), which is ` +
            `not the job asked for; a proxy or cache may be in the way.`,
          'notAJob'
        )
      }
      if (job) return job
      throw new ServiceError(
        `The service answered the read of job ${jobId} with something that is not a job record${because(problem)} ` +
          `(HTTP ${status}: ${excerpt(response)}); a proxy may be in the way.`,
        'notAJob'
      )
    }
    if (status === 404) {
      throw new ServiceError(
        `Job ${jobId} was not found in project ${this.options.projectId} (HTTP 404). ` +
          `Check that jobId and projectId belong together.`,
        'notFound'
      )
    }
    if (RetryPolicy.read.retryableStatuses.has(status)) {
      throw new ServiceError(
        `Reading job ${jobId} failed with HTTP ${status} (${excerpt(response)}).`,
        'transient',
        retryAfterMs(response.headers['retry-after'])
      )
    }
    throw new ServiceError(this.refusal(response, 'read'), 'fatal')
  }

  async close(): Promise<void> {
    await this.http.close()
  }

  /** Sends a write once; the caller decides whether a failure is worth another try. */
  private async writeOnce(
    url: string,
    prompt: string,
    words: WriteWords,
    jobId: string | null,
    deadline: Deadline,
    onWritten: () => void
  ): Promise<Job> {
    const progress: RequestProgress = { written: false, status: null, onWritten }
    // A cancel stops a write still connecting (nothing of it can have reached the service); once it
    // is being written, it is let finish, so that its answer says what happened.
    const notWritten = new AbortController()
    const onCancel = (): void => {
      if (!progress.written) notWritten.abort(deadline.signal.reason)
    }
    deadline.signal.addEventListener('abort', onCancel, { once: true })
    let response: HttpResponse
    try {
      response = await this.http.send('POST', url, {
        headers: { ...this.authHeaders(), 'content-type': 'application/json' },
        body: JSON.stringify({ prompt }),
        signal: AbortSignal.any([deadline.timeUp, notWritten.signal]),
        progress
      })
    } catch (error) {
      throw this.writeFailure(error, progress, words)
    } finally {
      deadline.signal.removeEventListener('abort', onCancel)
    }
    const { status } = response
    if (status >= 200 && status < 300) {
      const { job, problem } = readJobRecord(parseJson(response.body))
      // A message is answered with its own job; the record of another is not taken (a proxy or cache).
      if (job && (jobId === null || job.id === jobId)) return job
      // The service's own success status, or a page cut off at the size limit (no proxy's login page).
      if (status === words.surelyTaken || response.truncated) {
        const why = response.truncated
          ? `it was larger than ${formatBytes(this.limits.maxBodyBytes)}`
          : `it is not a job record${because(problem ?? 'it names another job')}: ${excerpt(response)}`
        throw new ServiceError(words.takenUnread(status, why), 'takenUnread')
      }
      throw new ServiceError(
        `The service answered ${words.object} with something that is not ` +
          `${job ? `its job's record (it names job ${job.id})` : `a job record${because(problem)}`} ` +
          `(HTTP ${status}: ${excerpt(response)}); a proxy may be in the way. ${words.mayHave}`,
        'uncertain'
      )
    }
    if (status === 429) {
      throw new ServiceError(
        `The service's rate limit was reached (HTTP 429): it allows ${words.quota}. ${words.notTaken}; wait before running again, or space out ${words.spenders}.`,
        'notTaken',
        retryAfterMs(response.headers['retry-after'])
      )
    }
    if (status >= 500) {
      throw new ServiceError(
        `The service failed while ${words.doing} (HTTP ${status}: ${excerpt(response)}). ${words.mayHave}`,
        'uncertain'
      )
    }
    if (status === 400 || status === 404) throw new ServiceError(words.refused(status, excerpt(response)), 'refused')
    throw new ServiceError(this.refusal(response, 'write'), 'fatal')
  }

  /** What a write that got no complete answer means: not sent, taken but unread, or unknown. */
  private writeFailure(error: unknown, progress: RequestProgress, words: WriteWords): unknown {
    const answered2xx = progress.status !== null && progress.status >= 200 && progress.status < 300
    if (answered2xx && (error instanceof DeadlineError || error instanceof NetworkError)) {
      const why = error instanceof DeadlineError ? 'the timeout ran out while it arrived' : error.message
      return new ServiceError(words.takenUnread(progress.status as number, why), 'takenUnread')
    }
    const { baseUrl } = this.options
    if (error instanceof DeadlineError) {
      if (!progress.written) {
        return new ServiceError(
          `The timeout ran out before ${words.object} could be sent to ${baseUrl}. ${words.notTaken}; ` +
            `check that baseUrl is reachable from the runner, or raise the timeout.`,
          'fatal'
        )
      }
      return new ServiceError(
        `The timeout ran out before the service answered ${words.object}. ${words.mayHave}`,
        'uncertain'
      )
    }
    if (!(error instanceof NetworkError)) return error
    if (error.refusedLocally) {
      return new ServiceError(
        `${capitalised(words.object)} was not sent: ${error.message}. ${words.notTaken}. Check the inputs it is made of ` +
          `(apiKey is svc_ followed by printable ASCII, ${words.inputs}); sending it again would fail the same way.`,
        'fatal'
      )
    }
    if (error.notSent) {
      return new ServiceError(
        `Could not reach the service at ${baseUrl}: ${error.message}. ${words.notTaken}; ` +
          `check baseUrl, and the proxy settings if the runner uses a proxy.`,
        'notTaken'
      )
    }
    return new ServiceError(
      `${words.sending} got no answer from ${baseUrl}: ${error.message}. ${words.mayHave}`,
      'uncertain'
    )
  }

  /** 3xx, 401, 403 and anything else unexpected, for a read or a write. */
  private refusal(response: HttpResponse, scope: 'read' | 'write'): string {
    const { status } = response
    if (status >= 300 && status < 400) {
      return (
        `The service answered with a redirect (HTTP ${status} to ${redirectTarget(response)}), which is not followed: ` +
        `the key is only sent to ${this.options.baseUrl}. Check baseUrl; the service may have moved.`
      )
    }
    if (status === 401) {
      return (
        `The service rejected the API key (HTTP 401): it is expired or unknown. Check the repository secret ` +
        `passed as apiKey; a new key can be generated on the API keys page of the project's dashboard.`
      )
    }
    if (status === 403) {
      return (
        `The service refused the request (HTTP 403): the API key lacks the ${scope} scope, or this runner's ` +
        `address is outside the project's IP allow-list. Use a key with the ${scope} scope, or allow the runner's address.`
      )
    }
    return `The service answered HTTP ${status} (${excerpt(response)}). Check baseUrl and projectId.`
  }

  private authHeaders(): Record<string, string> {
    return { authorization: `Bearer ${this.options.apiKey}` }
  }
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${Math.round(bytes / 1024)} KB`
}

// A job record nests two deep (its source); an error body, one.
const ANSWER_SHAPE: JsonBounds = { maxDepth: 16, maxContainers: 1000 }

/** The answer's JSON, or undefined when it is not JSON or has a shape no answer of the service has. */
function parseJson(text: string): unknown {
  const parsed = parseBoundedJson(text, ANSWER_SHAPE)
  return 'value' in parsed ? parsed.value : undefined
}

/**
 * A short, single-line excerpt of an error body: the service's own `{"error": ...}` message when
 * there is one, or the text of a plain or HTML page; never the key, should a server echo it.
 */
export function excerpt(response: Pick<HttpResponse, 'body'>, maxLength = 200): string {
  const parsed = parseBoundedJson(response.body, ANSWER_SHAPE)
  // JSON of a shape no answer has (nested a million deep): what it is, not a line of its brackets.
  if ('refused' in parsed && parsed.refused !== NOT_JSON) return `JSON ${parsed.refused}`
  const json = 'value' in parsed ? parsed.value : undefined
  const message =
    json && typeof json === 'object' && typeof (json as { error?: unknown }).error === 'string'
      ? (json as { error: string }).error
      : pageText(response.body)
  // Outside text: one line, no control character, no workflow command, no secret.
  const oneLine = neutralise(message.replace(/\s+/g, ' '), maxLength)
  return oneLine === '' ? 'no message' : oneLine
}

/** Where a redirect points, without its query, and never with the key, should a server echo it. */
function redirectTarget(response: HttpResponse): string {
  const location = response.headers.location
  const text = Array.isArray(location) ? location[0] : location
  if (!text) return 'no location'
  try {
    const url = new URL(text, 'http://relative.invalid')
    const target = url.origin === 'http://relative.invalid' ? url.pathname : `${url.origin}${url.pathname}`
    return neutralise(target)
  } catch {
    return 'an unreadable location'
  }
}

/** Why a JSON object is not a job record (the field, and what is wrong with it); nothing for a page that is no object. */
function because(problem: string | undefined): string {
  return problem && problem !== NOT_AN_OBJECT ? `, as ${problem}` : ''
}
