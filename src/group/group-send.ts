// The prompt of a run with a group whose pull request was found: it goes to the group's job as a
// follow-up message, once the job is not busy with the one before. The job is read first (followed
// while it is active, within the step's timeout: a message to a busy job would interrupt or queue
// behind work the service does not say it queues); a job that ended archived or failed, or is gone,
// or refuses the message (400, 404: the service did not take it), leaves the group without a job, and
// the caller creates one. Nothing here sends twice: the message goes through JobService.write.
import type { Deadline } from '../runtime/deadline.js'
import { followJob } from '../service/follow-job.js'
import { endedForGood, type Job } from '../service/job-record.js'
import type { JobService, WriteHooks } from '../service/job-service.js'
import { ServiceError } from '../service/service-error.js'

/** What became of the prompt sent to the group's job. */
export type GroupSend =
  | { kind: 'sent'; job: Job | null }
  /**
   * The job takes no message: `why` is `archived`, `failed`, `gone` or `refused`, or its pull request was
   * `merged` or `closed` while the run waited for it; nothing was delivered.
   */
  | {
      kind: 'create'
      why: 'archived' | 'failed' | 'gone' | 'refused' | 'merged' | 'closed'
      job: Job | null
      refusal?: ServiceError
    }
  /** The job was still working when the step's timeout ran out: nothing was sent. */
  | { kind: 'waited-out'; job: Job | null }

export interface GroupSendOptions {
  pollIntervalMs: number
  deadline: Deadline
  hooks: WriteHooks
  onJob: (job: Job) => void
  onRetry: (failure: ServiceError, waitMs: number) => void
  /** Told once when the job is still working on the group's last message, before the wait. */
  onBusy: (job: Job) => void
  /**
   * The group's docs pull request's state, read again after a wait (it may have been merged meanwhile);
   * `open` when it could not be read.
   */
  docsState: () => Promise<'open' | 'merged' | 'closed'>
}

/** Sends `prompt` to the group's job `jobId` once it is not busy; see GroupSend for what else may happen. */
export async function sendToGroupJob(
  service: JobService,
  jobId: string,
  prompt: string,
  options: GroupSendOptions
): Promise<GroupSend> {
  const { deadline } = options
  let busySaid = false
  let followed
  try {
    followed = await followJob(service, jobId, null, {
      pollIntervalMs: options.pollIntervalMs,
      deadline,
      onJob: (job) => {
        options.onJob(job)
        if (job.status === 'active' && !busySaid) {
          busySaid = true
          options.onBusy(job)
        }
      },
      onRetry: options.onRetry
    })
  } catch (error) {
    if (error instanceof ServiceError && error.kind === 'notFound') return { kind: 'create', why: 'gone', job: null }
    throw error
  }
  if (followed.outcome !== 'final') return { kind: 'waited-out', job: followed.job }
  const { job } = followed
  const ended = endedForGood(job.status)
  if (ended) return { kind: 'create', why: ended, job }
  if (busySaid) {
    const state = await options.docsState()
    if (state !== 'open') return { kind: 'create', why: state, job }
  }
  try {
    return { kind: 'sent', job: await service.sendMessage(jobId, prompt, deadline, options.hooks) }
  } catch (error) {
    // Refused (400, 404): the service surely did not take it, so a create is no second write.
    if (error instanceof ServiceError && error.kind === 'refused') {
      return { kind: 'create', why: 'refused', job, refusal: error }
    }
    throw error
  }
}
