import { sleep, type Deadline } from './deadline.js'
import { ActionError, DeadlineError } from './errors.js'
import { isFinal, type Job } from './job-record.js'
import { ServiceError, type JobService } from './job-service.js'
import { pollDelays } from './poll-delays.js'
import { backoffMs, readBackoff, retryWaitMs, RetryPolicy, type Random } from './retry-policy.js'

export interface FollowOptions {
  pollIntervalMs: number
  deadline: Deadline
  /** Called with every record read, so the caller can log changes and keep outputs current. */
  onJob: (job: Job) => void
  /** Called when a read failed and will be tried again. */
  onRetry?: (problem: string, waitMs: number) => void
  random?: Random
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
  const { notFoundConfirmations, notAJobLimit } = RetryPolicy.read
  const { lastReadBeforeDeadlineMs } = RetryPolicy.poll
  const schedule = pollDelays(options.pollIntervalMs, random)
  const backoff = readBackoff(options.pollIntervalMs)
  let job = lastSeen
  let lastProblem: string | null = null
  let lastChanceTaken = false
  let failures = 0
  let notFound = 0
  let notAJob = 0

  /** The wait before the next read; one last read just before the deadline beats giving up unknowing. */
  const untilNextRead = (ms: number): number => {
    const remainingMs = deadline.remainingMs()
    if (ms < remainingMs || lastChanceTaken) return ms
    lastChanceTaken = true
    return Math.max(0, remainingMs - Math.min(lastReadBeforeDeadlineMs, remainingMs / 2))
  }
  let waitMs = job ? untilNextRead(schedule.next().value) : 0

  for (;;) {
    try {
      // sleep() cuts every wait to the time left, so a long Retry-After ends the follow at the deadline.
      await sleep(waitMs, deadline)
      job = await service.getJob(jobId, deadline.signal)
    } catch (error) {
      if (error instanceof DeadlineError) return { outcome: 'timeout', job, lastProblem }
      if (!(error instanceof ServiceError) || error.kind === 'fatal') throw error
      failures++
      lastProblem = error.message
      if (error.kind === 'notFound' && ++notFound >= notFoundConfirmations) throw error
      if (error.kind === 'notAJob' && ++notAJob >= notAJobLimit) {
        throw new ActionError(`${error.message} This went on for ${notAJob} reads in a row; giving up on job ${jobId}.`)
      }
      waitMs = untilNextRead(
        retryWaitMs(backoffMs(failures, backoff.baseMs, backoff.capMs, random), error.retryAfterMs)
      )
      if (waitMs < deadline.remainingMs()) options.onRetry?.(error.message, waitMs)
      continue
    }
    failures = notFound = notAJob = 0
    lastProblem = null
    options.onJob(job)
    if (isFinal(job.status)) return { outcome: 'final', job }
    waitMs = untilNextRead(schedule.next().value)
  }
}
