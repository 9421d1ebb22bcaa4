// A request to the job service that went wrong, and what kind of wrong: the kind decides whether the
// request is asked again, and how the run ends (see job-service.ts and follow-job.ts).
import { ActionError } from '../runtime/errors.js'

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

export class ServiceError extends ActionError {
  override name = 'ServiceError'
  constructor(
    message: string,
    readonly kind: ServiceFailureKind,
    /** What the service asked for in Retry-After, if anything. */
    readonly retryAfterMs: number | null = null
  ) {
    super(message)
  }
}
