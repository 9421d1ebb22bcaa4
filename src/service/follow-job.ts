import { sleep, type Deadline } from '../runtime/deadline.js'
import { DeadlineError } from '../runtime/errors.js'
import { isFinal, type Job } from './job-record.js'
import type { JobService } from './job-service.js'
import { ServiceError } from './service-error.js'
import { pollDelays } from './poll-delays.js'
import { backoffMs, retryWaitMs, type Random } from '../net/retry-policy.js'
import { readBackoff, ServicePolicy } from './service-policy.js'

export interface FollowOptions {
  pollIntervalMs: number
  deadline: Deadline
  /** Called with every record read, so the caller can log changes and keep outputs current. */
  onJob: (job: Job) => void
  /** Called when a read failed and will be tried again after `waitMs`. */
  onRetry?: (failure: ServiceError, waitMs: number) => void
  /**
   * After a follow-up message: the service may go on showing the job's old final status (and old
   * prLink) for a while after it took the message, so a final status is only believed once the job
   * has been seen working again (any status that is not final) by a read made after the message's
   * answer: the answer's own status is no sign. If it shows no sign of that within
   * `windowMs` of the start (see ServicePolicy.followUp), the follow ends with `noSign`.
   */
  awaitWork?: { windowMs: number; onStale?: (job: Job) => void }
  random?: Random
}

export type FollowResult =
  | { outcome: 'final'; job: Job }
  /** The deadline came first: the job as last seen (null if never read) and the last problem, if any. */
  | { outcome: 'timeout'; job: Job | null; lastProblem: ServiceError | null }
  /**
   * After a message: the job read final throughout the window (or until the deadline), never working.
   * `answerStatus`: the status the message's own answer showed, when it showed the job working (the
   * service said it took the message, though no read after it did).
   */
  | { outcome: 'noSign'; job: Job; waitedMs: number; answerStatus?: string }

/**
 * Polls the job until its status is final or the deadline comes (after a follow-up message: until
 * it has been seen working and then final, see awaitWork). Network trouble and the
 * service's passing errors are retried with backoff (honouring Retry-After, within the time
 * left); what cannot get better by asking again ends the follow with a ServiceError.
 */
export async function followJob(
  service: JobService,
  jobId: string,
  lastSeen: Job | null,
  options: FollowOptions
): Promise<FollowResult> {
  const { deadline, random } = options
  const { notFoundConfirmations, notAJobLimit } = ServicePolicy.read
  const { lastReadBeforeDeadlineMs } = ServicePolicy.poll
  const schedule = pollDelays(options.pollIntervalMs, random)
  const backoff = readBackoff(options.pollIntervalMs)
  let job = lastSeen
  const startedAt = Date.now()
  const { awaitWork } = options
  // Without a message to wait for, the first final status read is the end. After one, only a read
  // made after the message's answer counts as a sign of work: the answer itself may read `active`
  // while the reads that follow still show the old final status for a while.
  let seenWorking = !awaitWork
  let staleSaid = false
  // The message's answer, when it showed the job working: not proof of new work (see above), but what
  // the service said, so an ending without a working read says it rather than "no sign".
  const answerStatus = awaitWork && lastSeen && !isFinal(lastSeen.status) ? { answerStatus: lastSeen.status } : {}
  /** Ends a follow that never saw the job take the message, when it reads final still. */
  const noSign = (): FollowResult | null =>
    !seenWorking && job && isFinal(job.status)
      ? { outcome: 'noSign', job, waitedMs: Date.now() - startedAt, ...answerStatus }
      : null
  let lastProblem: ServiceError | null = null
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
      if (error instanceof DeadlineError) return noSign() ?? { outcome: 'timeout', job, lastProblem }
      if (!(error instanceof ServiceError) || error.kind === 'fatal' || error.kind === 'refused') throw error
      failures++
      lastProblem = error
      if (error.kind === 'notFound' && ++notFound >= notFoundConfirmations) throw error
      if (error.kind === 'notAJob' && ++notAJob >= notAJobLimit) {
        throw error.givingUp({ by: 'notAJobInARow', reads: notAJob }, 'fatal')
      }
      waitMs = untilNextRead(
        retryWaitMs(backoffMs(failures, backoff.baseMs, backoff.capMs, random), error.retryAfterMs)
      )
      if (waitMs < deadline.remainingMs()) options.onRetry?.(error, waitMs)
      continue
    }
    failures = notFound = notAJob = 0
    lastProblem = null
    options.onJob(job)
    if (!isFinal(job.status)) seenWorking = true
    else if (seenWorking) return { outcome: 'final', job }
    else if (Date.now() - startedAt >= (awaitWork?.windowMs ?? 0)) return noSign() as FollowResult
    else if (!staleSaid) {
      staleSaid = true
      awaitWork?.onStale?.(job)
    }
    waitMs = untilNextRead(schedule.next().value)
  }
}
