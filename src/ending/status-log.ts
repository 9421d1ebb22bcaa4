import { Output } from '../kernel/action-names.js'
import { formatDuration } from '../runtime/duration.js'
import { isKnownStatus, type Job } from '../service/job-record.js'
import { log } from '../runtime/log.js'

/**
 * Returns a function to call with every record read: it logs each change of status once, not
 * every poll, warns once about a status this action does not know (it keeps following), and once
 * about a pull request link that is not passed on.
 */
export function statusLogger(startedAt: number, now: () => number = Date.now): (job: Job) => void {
  let last: string | null = null
  const unknownWarned = new Set<string>()
  let refusedLinkWarned = false
  return (job) => {
    if (job.status !== last) {
      const after = formatDuration(now() - startedAt)
      log.info(
        last === null
          ? `Job ${job.id} is ${job.status} (${after} into the step).`
          : `Job ${job.id}: ${last} → ${job.status} after ${after}.`
      )
      if (!isKnownStatus(job.status) && !unknownWarned.has(job.status)) {
        unknownWarned.add(job.status)
        log.warning(
          `Job ${job.id} has status '${job.status}', which this action does not know. It keeps following the job ` +
            `until it is completed, archived or failed, or the timeout runs out.`
        )
      }
      last = job.status
    }
    if (job.refusedPrLink !== undefined && !refusedLinkWarned) {
      refusedLinkWarned = true
      log.warning(
        `Job ${job.id} gave a pull request link that does not have the shape of one, so the ${Output.prLink} output ` +
          `is left empty: '${job.refusedPrLink}'. Only an https link to a pull or merge request on a code host ` +
          `(such as https://github.com/owner/repo/pull/7) is passed on. Look the job up in the project's dashboard.`
      )
    }
  }
}
