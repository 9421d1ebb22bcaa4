import type { Deadline } from './deadline.js'
import { ActionError, DeadlineError } from './errors.js'
import { isFinal, type Job } from './job.js'
import { backoffMs, sleep, type Random } from './retry.js'
import { pollDelays } from './schedule.js'
import { ServiceError, type JobService } from './service.js'

export interface FollowOptions {
  pollIntervalMs: number
  deadline: Deadline
  /** Called with every record read, so the caller can log changes and keep outputs current. */
  onJob: (job: Job) => void
  /** Called when a read failed and will be tried again. */
  onRetry?: (problem: string, waitMs: number) => void
  random?: Random
  /** A 404 for the job is believed after this many in a row (a replica may lag behind a create). */
  notFoundConfirmations?: number
  /** Answers that are not job records (a proxy's page) are borne this many times in a row. */
  notAJobLimit?: number
}

export type FollowResult =
  | { outcome: 'final'; job: Job }
  /** The deadline came first: the job as last seen (null if never read) and the last problem, if any. */
  | { outcome: 'timeout'; job: Job | null; lastProblem: string | null }

/**
 * Polls the job until its status is final or the deadline comes. Network trouble and the
 * service's passing errors are retried with backoff (honouring Retry-After, within the time
 * left); what cannot get better by asking again ends the follow with an ActionError.
 */
export async function followJob(
  service: JobService,
  jobId: string,
  lastSeen: Job | null,
  options: FollowOptions
): Promise<FollowResult> {
  const { deadline, random } = options
  const confirmations = options.notFoundConfirmations ?? 3
  const notAJobLimit = options.notAJobLimit ?? 5
  const schedule = pollDelays(options.pollIntervalMs, random)
  const backoffBaseMs = Math.min(1000, options.pollIntervalMs)
  const backoffCapMs = Math.max(options.pollIntervalMs, 30_000)
  let job = lastSeen
  let waitMs = job ? schedule.next().value : 0
  let failures = 0
  let notFound = 0
  let notAJob = 0
  let lastProblem: string | null = null
  let lastChanceTaken = false

  for (;;) {
    // One last read just before the deadline beats giving up without knowing.
    if (waitMs >= deadline.remainingMs() && !lastChanceTaken) {
      lastChanceTaken = true
      waitMs = Math.max(0, deadline.remainingMs() - Math.min(1000, deadline.remainingMs() / 2))
    }
    try {
      await sleep(waitMs, deadline.signal)
      job = await service.getJob(jobId, deadline.signal)
    } catch (error) {
      if (error instanceof DeadlineError) return { outcome: 'timeout', job, lastProblem }
      if (!(error instanceof ServiceError) || error.kind === 'fatal') throw error
      failures++
      lastProblem = error.message
      if (error.kind === 'notFound' && ++notFound >= confirmations) throw error
      if (error.kind === 'notAJob' && ++notAJob >= notAJobLimit) {
        throw new ActionError(`${error.message} This went on for ${notAJob} reads in a row; giving up on job ${jobId}.`)
      }
      // Retry-After is a floor, not the whole wait: a server that keeps answering `Retry-After: 0`
      // must not be polled in a tight loop.
      waitMs = Math.max(error.retryAfterMs ?? 0, backoffMs(failures, backoffBaseMs, backoffCapMs, random))
      options.onRetry?.(error.message, waitMs)
      continue
    }
    failures = notFound = notAJob = 0
    lastProblem = null
    options.onJob(job)
    if (isFinal(job.status)) return { outcome: 'final', job }
    waitMs = schedule.next().value
  }
}
