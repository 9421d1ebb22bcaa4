// The job service's HTTP interface: its paths, headers and status codes, and the one rule of its
// writes (a create or a follow-up message is never sent twice unless the service surely did not take
// it). The sentences each failure is told with are in write-sentences.ts, one whole sentence each.
import { sleep, type Deadline } from '../runtime/deadline.js'
import { DeadlineError } from '../runtime/errors.js'
import {
  DEFAULT_LIMITS,
  HttpClient,
  NetworkError,
  type HttpLimits,
  type HttpResponse,
  type RequestProgress
} from '../net/http.js'
import { tryingAgain } from '../runtime/duration.js'
import { backoffMs, retryAfterMs } from '../net/retry-policy.js'
import { ServicePolicy } from './service-policy.js'
import { isUnresolvedHost } from '../net/host-names.js'
import { excerpt, formatBytes, parseJson, redirectTarget } from './answer-excerpt.js'
import { NOT_AN_OBJECT, readJobRecord, type Job } from './job-record.js'
import { ServiceError } from './service-error.js'
import { createSentences, messageSentences, type WriteSentences } from './write-sentences.js'

/**
 * A write (a create or a follow-up message): where it goes, how its answer is judged, and the
 * sentences its failures are told with. Neither is idempotent: both go through JobService.write.
 */
interface Write {
  url: string
  /** The job a message goes to: its answer must be that job's record. Null for a create. */
  jobId: string | null
  /**
   * The success status that means the service took the write even when its answer cannot be read:
   * 201 for a create (the service's own; a 200 is also what a proxy's page answers with); null for a
   * message, which has no status of its own.
   */
  surelyTakenStatus: number | null
  sentences: WriteSentences
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
  /** The writes' retry policy; ServicePolicy.create unless a test needs shorter waits. */
  createRetry?: CreateRetry
}

type CreateRetry = { readonly [K in keyof typeof ServicePolicy.create]: number }

/** The job service's HTTP interface: the one place that knows its paths, headers and status codes. */
export class JobService {
  private readonly http: HttpClient
  private readonly jobsUrl: string

  private readonly limits: HttpLimits
  /**
   * Whether the service has answered once in this run: until it has, a host name that does not
   * resolve is a wrong (or placeholder) address and is said once; after, it is a passing fault.
   */
  private answered = false

  constructor(private readonly options: ServiceOptions) {
    this.limits = options.limits ?? DEFAULT_LIMITS
    this.http = new HttpClient(new URL(options.baseUrl).origin, this.limits)
    this.jobsUrl = `${options.baseUrl}/v2/agent/${encodeURIComponent(options.projectId)}/job`
  }

  /** Creates the job, under the writes' rule (see write). */
  async createJob(prompt: string, deadline: Deadline, hooks: WriteHooks = {}): Promise<Job> {
    const { projectId, baseUrl } = this.options
    const sentences = createSentences(projectId, baseUrl)
    return this.write({ url: this.jobsUrl, jobId: null, surelyTakenStatus: 201, sentences }, prompt, deadline, hooks)
  }

  /**
   * Sends a follow-up message to the job, under the writes' rule (see write). Returns the job as the
   * service answered, or null when the service took the message and its answer could not be read
   * (said through hooks.log): the job is known, so it can be followed all the same. A refusal (400,
   * 404) fails: a new job is never created instead.
   */
  async sendMessage(jobId: string, prompt: string, deadline: Deadline, hooks: WriteHooks = {}): Promise<Job | null> {
    const url = `${this.jobsUrl}/${encodeURIComponent(jobId)}/message`
    const sentences = messageSentences(jobId, this.options.projectId, this.options.baseUrl)
    try {
      return await this.write({ url, jobId, surelyTakenStatus: null, sentences }, prompt, deadline, hooks)
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
  private async write(write: Write, prompt: string, deadline: Deadline, hooks: WriteHooks): Promise<Job> {
    const { tries, backoffBaseMs, backoffCapMs } = this.options.createRetry ?? ServicePolicy.create
    for (let attempt = 1; ; attempt++) {
      this.mayStartWrite(deadline, write.sentences)
      let failure: unknown
      try {
        return await this.writeOnce(write, prompt, deadline, () => hooks.onSending?.(true))
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
      hooks.log?.(`${failure.message} ${tryingAgain(waitMs, { next: attempt + 1, of: tries })}`)
      await sleep(waitMs, deadline)
    }
  }

  /**
   * Throws when a write must not start: the run was cancelled (while the context was read, say), or
   * its time is up by the clock, even if the deadline's timer has not fired yet. Either way nothing
   * was sent, so no job was made and no message delivered.
   */
  private mayStartWrite(deadline: Deadline, sentences: WriteSentences): void {
    if (deadline.signal.aborted && !deadline.timeUp.aborted) throw deadline.signal.reason
    if (deadline.timeUp.aborted || deadline.remainingMs() <= 0) {
      throw this.writeFailure(new DeadlineError(), { written: false, status: null }, sentences)
    }
  }

  /** Asks for the job once; the caller decides whether a failure is worth another try. */
  async getJob(jobId: string, signal: AbortSignal): Promise<Job> {
    const url = `${this.jobsUrl}/${encodeURIComponent(jobId)}`
    let response: HttpResponse
    try {
      response = await this.http.send('GET', url, { headers: this.authHeaders(), signal })
      this.answered = true
    } catch (error) {
      if (error instanceof NetworkError && error.refusedLocally) {
        throw new ServiceError(
          `The read of job ${jobId} was not sent: ${error.message}. Check the inputs it is made of ` +
            `(apiKey is svc_ followed by printable ASCII, baseUrl, projectId and jobId); reading again would fail the same way.`,
          'fatal'
        )
      }
      if (error instanceof NetworkError && this.neverResolved(error)) {
        throw new ServiceError(
          `Could not read job ${jobId} at ${this.options.baseUrl}: ${error.message}. Check baseUrl.`,
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
    if (ServicePolicy.read.retryableStatuses.has(status)) {
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
    { url, jobId, surelyTakenStatus, sentences }: Write,
    prompt: string,
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
      this.answered = true
    } catch (error) {
      throw this.writeFailure(error, progress, sentences)
    } finally {
      deadline.signal.removeEventListener('abort', onCancel)
    }
    const { status } = response
    if (status >= 200 && status < 300) {
      const { job, problem } = readJobRecord(parseJson(response.body))
      // A message is answered with its own job; the record of another is not taken (a proxy or cache).
      if (job && (jobId === null || job.id === jobId)) return job
      // The service's own success status, or a page cut off at the size limit (no proxy's login page).
      if (status === surelyTakenStatus || response.truncated) {
        const why = response.truncated
          ? `it was larger than ${formatBytes(this.limits.maxBodyBytes)}`
          : `it is not a job record${because(problem ?? 'it names another job')}: ${excerpt(response)}`
        throw new ServiceError(sentences.takenUnread(status, why), 'takenUnread')
      }
      throw new ServiceError(
        sentences.notAJobRecord(status, excerpt(response), job?.id ?? null, because(problem)),
        'uncertain'
      )
    }
    if (status === 429) {
      throw new ServiceError(sentences.rateLimited(), 'notTaken', retryAfterMs(response.headers['retry-after']))
    }
    if (status >= 500) throw new ServiceError(sentences.serverFailed(status, excerpt(response)), 'uncertain')
    if (status === 400 || status === 404)
      throw new ServiceError(sentences.refused(status, excerpt(response)), 'refused')
    throw new ServiceError(this.refusal(response, 'write'), 'fatal')
  }

  /** What a write that got no complete answer means: not sent, taken but unread, or unknown. */
  private writeFailure(error: unknown, progress: RequestProgress, sentences: WriteSentences): unknown {
    const answered2xx = progress.status !== null && progress.status >= 200 && progress.status < 300
    if (answered2xx && (error instanceof DeadlineError || error instanceof NetworkError)) {
      const why = error instanceof DeadlineError ? 'the timeout ran out while it arrived' : error.message
      return new ServiceError(sentences.takenUnread(progress.status as number, why), 'takenUnread')
    }
    if (error instanceof DeadlineError) {
      return progress.written
        ? new ServiceError(sentences.timedOutUnanswered(), 'uncertain')
        : new ServiceError(sentences.timedOutBeforeSent(), 'fatal')
    }
    if (!(error instanceof NetworkError)) return error
    if (error.refusedLocally) return new ServiceError(sentences.refusedOnTheRunner(error.message), 'fatal')
    // Surely not sent, and asking again would only say the same: the address is wrong.
    if (this.neverResolved(error)) return new ServiceError(sentences.unreachable(error.message), 'fatal')
    if (error.notSent) return new ServiceError(sentences.unreachable(error.message), 'notTaken')
    return new ServiceError(sentences.noAnswer(error.message), 'uncertain')
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

  /** A host name that has not resolved once in this run: no try will do better. */
  private neverResolved(error: NetworkError): boolean {
    return !this.answered && isUnresolvedHost(error.code)
  }

  private authHeaders(): Record<string, string> {
    return { authorization: `Bearer ${this.options.apiKey}` }
  }
}

/** Why a JSON object is not a job record (the field, and what is wrong with it); nothing for a page that is no object. */
function because(problem: string | undefined): string {
  return problem && problem !== NOT_AN_OBJECT ? `, as ${problem}` : ''
}
