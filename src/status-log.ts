import * as core from '@actions/core'
import { formatDuration } from './duration.js'
import { isKnownStatus, type Job } from './job-record.js'

/**
 * Returns a function to call with every record read: it logs each change of status once, not
 * every poll, and warns once about a status this action does not know (it keeps following).
 */
export function statusLogger(startedAt: number, now: () => number = Date.now): (job: Job) => void {
  let last: string | null = null
  const unknownWarned = new Set<string>()
  return (job) => {
    if (job.status === last) return
    const after = formatDuration(now() - startedAt)
    core.info(
      last === null
        ? `Job ${job.id} is ${job.status} (${after} into the step).`
        : `Job ${job.id}: ${last} → ${job.status} after ${after}.`
    )
    if (!isKnownStatus(job.status) && !unknownWarned.has(job.status)) {
      unknownWarned.add(job.status)
      core.warning(
        `Job ${job.id} has status '${job.status}', which this action does not know. It keeps following the job ` +
          `until it is completed, archived or failed, or the timeout runs out.`
      )
    }
    last = job.status
  }
}
