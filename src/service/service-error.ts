// A request to the job service that went wrong, as data: what was asked (a create, a message, a read),
// what happened (its status, a neutralised excerpt of the answer, the transport's reason), and what
// kind of wrong, which decides whether the request is asked again and how the run ends (see
// job-service.ts and follow-job.ts). The sentences a user reads are worded from it in one place,
// ending/service-failure-words.ts: this layer says what happened, never how to tell it.

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
export type ServiceFailureKind =
  'transient' | 'notAJob' | 'notFound' | 'notTaken' | 'uncertain' | 'takenUnread' | 'refused' | 'fatal'

/** What was asked of the service: a create, a follow-up message, or a read of a job. */
export type ServiceOperation = 'create' | 'message' | 'read'

/** Why a success's answer could not be read, for a write the service took. */
export type UnreadAnswer =
  | { as: 'tooLarge'; maxBytes: number }
  /** A body that is not the job's record: `fieldProblem` says which field is wrong; `namedJob`, another job it names. */
  | { as: 'notARecord'; fieldProblem: string | null; namedJob: string | null; excerpt: string }
  | { as: 'timedOut' }
  /** The connection failed while the answer arrived; `detail` is the transport's reason. */
  | { as: 'cutOff'; detail: string }

/**
 * What happened, as data; `excerpt` is a short neutralised excerpt of the answer (answer-excerpt.ts),
 * `detail` the transport's reason, `fieldProblem` which field of a JSON object is wrong, and how.
 */
export type ServiceProblem =
  /** A 2xx whose body is not the record of the job asked for (a proxy's page, another job's record). */
  | { what: 'notARecord'; status: number; excerpt: string; namedJob: string | null; fieldProblem: string | null }
  /** A write the service took (its own success status, or a body cut at the size limit), whose answer is unread. */
  | { what: 'takenUnread'; status: number; unread: UnreadAnswer }
  /** 429 on a write: the rate limit; not taken. */
  | { what: 'rateLimited' }
  /** A status that says the service failed: 5xx on a write, or a status worth asking again on a read. */
  | { what: 'failedStatus'; status: number; excerpt: string }
  /** 400 or 404: the service (or the job) refused the write; 404 on a read: no such job. */
  | { what: 'refused'; status: 400 | 404; excerpt: string }
  /** The step's timeout ran out, before a byte was written or after it was written and before an answer. */
  | { what: 'timedOut'; written: boolean }
  /** The runner refused to send it (a header value it cannot carry). */
  | { what: 'refusedOnTheRunner'; detail: string }
  /** No connection (or a host name that never resolved): surely not sent. */
  | { what: 'unreachable'; detail: string }
  /** Written (or, for a read, asked), and the connection failed before an answer. */
  | { what: 'noAnswer'; detail: string }
  | { what: 'redirect'; status: number; target: string }
  | { what: 'keyRejected' }
  | { what: 'forbidden' }
  | { what: 'unexpectedStatus'; status: number; excerpt: string }

/** Where the request went: the words name the project and the address. */
export interface ServicePlace {
  projectId: string
  baseUrl: string
}

/** How the request was given up, when it was not by its own failure. */
export type GivingUp =
  /** A write not taken that would have been tried again, had the time left allowed the wait. */
  | { by: 'noTimeForRetry' }
  /** Reads answered with something that is not a job record this many times in a row. */
  | { by: 'notAJobInARow'; reads: number }
  /** A create the rate limit refused, kept for a reporting run to send once the service allows (WriteHooks.keepForLater). */
  | { by: 'keptForLater' }
  /** A create the rate limit refused that could not be kept for later: its prompt, compressed, is longer than a queued one may be. */
  | { by: 'tooLongToQueue'; compressedChars: number; most: number }

export interface ServiceFailure {
  kind: ServiceFailureKind
  operation: ServiceOperation
  /** The job a message or a read went to; null for a create. */
  jobId: string | null
  problem: ServiceProblem
  place: ServicePlace
  /** What the service asked for in Retry-After, if anything. */
  retryAfterMs?: number | null
  givenUp?: GivingUp
}

export class ServiceError extends Error {
  override name = 'ServiceError'
  readonly kind: ServiceFailureKind
  readonly operation: ServiceOperation
  readonly jobId: string | null
  readonly problem: ServiceProblem
  readonly place: ServicePlace
  /** What the service asked for in Retry-After, if anything. */
  readonly retryAfterMs: number | null
  readonly givenUp: GivingUp | null

  constructor(failure: ServiceFailure) {
    // For a stack trace only: what a user reads is worded from the fields (ending/service-failure-words.ts).
    super(`The ${failure.operation} failed: ${failure.problem.what} (${failure.kind}).`)
    this.kind = failure.kind
    this.operation = failure.operation
    this.jobId = failure.jobId
    this.problem = failure.problem
    this.place = failure.place
    this.retryAfterMs = failure.retryAfterMs ?? null
    this.givenUp = failure.givenUp ?? null
  }

  /** The same failure, given up as `givenUp` says, with another kind. */
  givingUp(givenUp: GivingUp, kind: ServiceFailureKind): ServiceError {
    return new ServiceError({ ...this, kind, givenUp })
  }

  /** A write the service may have taken: a job may exist, or the message may have reached the job. */
  get mayHaveBeenTaken(): boolean {
    return this.kind === 'uncertain' || this.kind === 'takenUnread'
  }
}
