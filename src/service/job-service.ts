// The job service's HTTP interface: its paths, headers and status codes, and the one rule of its
// writes (a create or a follow-up message is never sent twice unless the service surely did not take
// it). Its failures are thrown as data (ServiceError): the report words them.
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
import { backoffMs, retryAfterMs } from '../net/retry-policy.js'
import { ServicePolicy } from './service-policy.js'
import { isUnresolvedHost } from '../net/host-names.js'
import { excerpt, parseJson, redirectTarget } from './answer-excerpt.js'
import { NOT_AN_OBJECT, readJobRecord, type Job } from './job-record.js'
import { ServiceError, type ServiceFailure, type ServiceProblem } from './service-error.js'

/**
 * A write (a create or a follow-up message): where it goes and how its answer is judged. Neither is
 * idempotent: both go through JobService.write.
 */
interface Write {
  operation: 'create' | 'message'
  url: string
  /** The job a message goes to: its answer must be that job's record. Null for a create. */
  jobId: string | null
  /**
   * The success status that means the service took the write even when its answer cannot be read:
   * 201 for a create (the service's own; a 200 is also what a proxy's page answers with); null for a
   * message, which has no status of its own.
   */
  surelyTakenStatus: number | null
}

export interface WriteHooks {
  /** Hears about a try that failed and will be made again, after `waitMs`, as try `next` of `of`. */
  onRetry?: (failure: ServiceError, waitMs: number, tries: { next: number; of: number }) => void
  /** Hears about a message the service took whose answer could not be read: the job is followed all the same. */
  onTakenUnread?: (failure: ServiceError) => void
  /**
   * Told true when a write (a create or a message) starts to be written (from then on the service
   * may act on it), false once it is answered (or failed).
   */
  onSending?: (inFlight: boolean) => void
  /**
   * Asked when the rate limit refused a write (429), before it is waited out: `outOfTime` when no try
   * is left, or the service's wait is longer than the time left. True keeps the write for later (a
   * queued create, hand-over/hand-over.ts): it is given up now, not taken, and the runner is not held.
   */
  keepForLater?: (failure: ServiceError, outOfTime: boolean) => Promise<boolean>
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
    const write: Write = { operation: 'create', url: this.jobsUrl, jobId: null, surelyTakenStatus: 201 }
    return this.write(write, prompt, deadline, hooks)
  }

  /**
   * Sends a follow-up message to the job, under the writes' rule (see write). Returns the job as the
   * service answered, or null when the service took the message and its answer could not be read
   * (told to hooks.onTakenUnread): the job is known, so it can be followed all the same. A refusal (400,
   * 404) fails: a new job is never created instead.
   */
  async sendMessage(jobId: string, prompt: string, deadline: Deadline, hooks: WriteHooks = {}): Promise<Job | null> {
    const url = `${this.jobsUrl}/${encodeURIComponent(jobId)}/message`
    try {
      return await this.write({ operation: 'message', url, jobId, surelyTakenStatus: null }, prompt, deadline, hooks)
    } catch (error) {
      if (!(error instanceof ServiceError) || error.kind !== 'takenUnread') throw error
      hooks.onTakenUnread?.(error)
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
      this.mayStartWrite(deadline, write)
      let failure: unknown
      try {
        return await this.writeOnce(write, prompt, deadline, () => hooks.onSending?.(true))
      } catch (error) {
        failure = error
      } finally {
        hooks.onSending?.(false)
      }
      if (!(failure instanceof ServiceError) || failure.kind !== 'notTaken') throw failure
      const waitMs = failure.retryAfterMs ?? backoffMs(attempt, backoffBaseMs, backoffCapMs)
      const outOfTime = attempt >= tries || waitMs >= deadline.remainingMs()
      if (failure.problem.what === 'rateLimited' && (await hooks.keepForLater?.(failure, outOfTime))) {
        throw failure.givingUp({ by: 'keptForLater' }, 'notTaken')
      }
      if (attempt >= tries) throw failure
      if (waitMs >= deadline.remainingMs()) {
        throw failure.givingUp({ by: 'noTimeForRetry' }, 'fatal')
      }
      hooks.onRetry?.(failure, waitMs, { next: attempt + 1, of: tries })
      await sleep(waitMs, deadline)
    }
  }

  /**
   * Throws when a write must not start: the run was cancelled (while the context was read, say), or
   * its time is up by the clock, even if the deadline's timer has not fired yet. Either way nothing
   * was sent, so no job was made and no message delivered.
   */
  private mayStartWrite(deadline: Deadline, write: Write): void {
    if (deadline.signal.aborted && !deadline.timeUp.aborted) throw deadline.signal.reason
    if (deadline.timeUp.aborted || deadline.remainingMs() <= 0) {
      throw this.writeFailure(new DeadlineError(), { written: false, status: null }, write)
    }
  }

  /** Asks for the job once; the caller decides whether a failure is worth another try. */
  async getJob(jobId: string, signal: AbortSignal): Promise<Job> {
    const url = `${this.jobsUrl}/${encodeURIComponent(jobId)}`
    const failed = (kind: ServiceError['kind'], problem: ServiceProblem, retryAfter: number | null = null) =>
      this.failure({ operation: 'read', jobId, kind, problem, retryAfterMs: retryAfter })
    let response: HttpResponse
    try {
      response = await this.http.send('GET', url, { headers: this.authHeaders(), signal })
      this.answered = true
    } catch (error) {
      if (!(error instanceof NetworkError)) throw error
      const detail = error.message
      if (error.refusedLocally) throw failed('fatal', { what: 'refusedOnTheRunner', detail })
      if (this.neverResolved(error)) throw failed('fatal', { what: 'unreachable', detail })
      throw failed('transient', { what: 'noAnswer', detail })
    }
    const { status } = response
    if (status >= 200 && status < 300) {
      const { job, problem } = readJobRecord(parseJson(response.body))
      // The record of another job is not this job, whatever else it says (a path that reached
      // another route, a cache that mixed answers): its status and prLink are not taken.
      if (job && job.id === jobId) return job
      throw failed('notAJob', notARecord(status, response, job?.id ?? null, problem))
    }
    if (status === 404) throw failed('notFound', { what: 'refused', status, excerpt: excerpt(response) })
    if (ServicePolicy.read.retryableStatuses.has(status)) {
      const retryAfter = retryAfterMs(response.headers['retry-after'])
      throw failed('transient', { what: 'failedStatus', status, excerpt: excerpt(response) }, retryAfter)
    }
    throw failed('fatal', refusal(response))
  }

  async close(): Promise<void> {
    await this.http.close()
  }

  /** Sends a write once; the caller decides whether a failure is worth another try. */
  private async writeOnce(write: Write, prompt: string, deadline: Deadline, onWritten: () => void): Promise<Job> {
    const { url, jobId, surelyTakenStatus } = write
    const failed = (kind: ServiceError['kind'], problem: ServiceProblem, retryAfter: number | null = null) =>
      this.failure({ operation: write.operation, jobId, kind, problem, retryAfterMs: retryAfter })
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
      throw this.writeFailure(error, progress, write)
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
        const unread = response.truncated
          ? ({ as: 'tooLarge', maxBytes: this.limits.maxBodyBytes } as const)
          : ({
              as: 'notARecord',
              ...fieldProblemOf(problem),
              namedJob: job?.id ?? null,
              excerpt: excerpt(response)
            } as const)
        throw failed('takenUnread', { what: 'takenUnread', status, unread })
      }
      throw failed('uncertain', notARecord(status, response, job?.id ?? null, problem))
    }
    if (status === 429) throw failed('notTaken', { what: 'rateLimited' }, retryAfterMs(response.headers['retry-after']))
    if (status >= 500) throw failed('uncertain', { what: 'failedStatus', status, excerpt: excerpt(response) })
    if (status === 400 || status === 404)
      throw failed('refused', { what: 'refused', status, excerpt: excerpt(response) })
    throw failed('fatal', refusal(response))
  }

  private failure(failed: Omit<ServiceFailure, 'place' | 'givenUp'>): ServiceError {
    const { projectId, baseUrl } = this.options
    return new ServiceError({ ...failed, place: { projectId, baseUrl } })
  }

  /** What a write that got no complete answer means: not sent, taken but unread, or unknown. */
  private writeFailure(error: unknown, progress: RequestProgress, { operation, jobId }: Write): unknown {
    const failed = (kind: ServiceError['kind'], problem: ServiceProblem) =>
      this.failure({ operation, jobId, kind, problem, retryAfterMs: null })
    const answered2xx = progress.status !== null && progress.status >= 200 && progress.status < 300
    if (answered2xx && (error instanceof DeadlineError || error instanceof NetworkError)) {
      const unread =
        error instanceof DeadlineError
          ? ({ as: 'timedOut' } as const)
          : ({ as: 'cutOff', detail: error.message } as const)
      return failed('takenUnread', { what: 'takenUnread', status: progress.status as number, unread })
    }
    if (error instanceof DeadlineError) {
      const { written } = progress
      return failed(written ? 'uncertain' : 'fatal', { what: 'timedOut', written })
    }
    if (!(error instanceof NetworkError)) return error
    const detail = error.message
    if (error.refusedLocally) return failed('fatal', { what: 'refusedOnTheRunner', detail })
    // Surely not sent, and asking again would only say the same: the address is wrong.
    if (this.neverResolved(error)) return failed('fatal', { what: 'unreachable', detail })
    if (error.notSent) return failed('notTaken', { what: 'unreachable', detail })
    return failed('uncertain', { what: 'noAnswer', detail })
  }

  /** A host name that has not resolved once in this run: no try will do better. */
  private neverResolved(error: NetworkError): boolean {
    return !this.answered && isUnresolvedHost(error.code)
  }

  private authHeaders(): Record<string, string> {
    return { authorization: `Bearer ${this.options.apiKey}` }
  }
}

/** 3xx, 401, 403 and anything else unexpected, for a read or a write. */
function refusal(response: HttpResponse): ServiceProblem {
  const { status } = response
  if (status >= 300 && status < 400) return { what: 'redirect', status, target: redirectTarget(response) }
  if (status === 401) return { what: 'keyRejected' }
  if (status === 403) return { what: 'forbidden' }
  return { what: 'unexpectedStatus', status, excerpt: excerpt(response) }
}

/** A 2xx whose body is not the record asked for: another job's (`namedJob`), or no record at all. */
function notARecord(
  status: number,
  response: HttpResponse,
  namedJob: string | null,
  problem: string | undefined
): ServiceProblem {
  return { what: 'notARecord', status, excerpt: excerpt(response), namedJob, ...fieldProblemOf(problem) }
}

/** Why a JSON object is not a job record (the field, and what is wrong with it); null for a page that is no object. */
function fieldProblemOf(problem: string | undefined): { fieldProblem: string | null } {
  return { fieldProblem: problem && problem !== NOT_AN_OBJECT ? problem : null }
}
