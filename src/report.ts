import * as core from '@actions/core'
import { Input, Output } from './constants.js'
import { formatDuration } from './duration.js'
import { isKnownStatus, type Job } from './job.js'

/** How a run ended, as the summary tells it. */
export type Ending = 'final' | 'created' | 'timeout' | 'cancelled' | 'error'

/** Sets every output from the job as last seen; an output the service left empty is empty. */
export function setJobOutputs(job: Job): void {
  core.setOutput(Output.jobId, job.id)
  core.setOutput(Output.status, job.status)
  core.setOutput(Output.prLink, job.prLink ?? '')
  core.setOutput(Output.model, job.model ?? '')
  core.setOutput(Output.sourceRepository, job.sourceRepository ?? '')
  core.setOutput(Output.sourceRef, job.sourceRef ?? '')
  core.setOutput(Output.createdAt, job.createdAt ?? '')
}

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

/** Ends the step according to a final status: completed succeeds, archived warns, failed fails. */
export function concludeFinal(job: Job, requirePr: boolean): void {
  if (job.status === 'failed') {
    core.setFailed(
      `Job ${job.id} failed: the agent hit an unrecoverable error. Look the job up in the project's dashboard, ` +
        `then run again, perhaps with a clearer prompt.`
    )
  } else if (job.status === 'archived') {
    core.warning(
      `Job ${job.id} was archived${job.archivedAt ? ` at ${job.archivedAt}` : ''}; it may not have finished its work.`
    )
  } else if (job.prLink) {
    core.info(`Job ${job.id} completed and opened a pull request: ${job.prLink}`)
  } else if (requirePr) {
    core.setFailed(
      `Job ${job.id} completed without opening a pull request, and ${Input.requirePr} is true. The agent changed ` +
        `no files, or the project pushes straight to its deploy branch instead of opening pull requests.`
    )
  } else {
    core.notice(
      `Job ${job.id} completed without opening a pull request: the agent changed no files, or the project pushes ` +
        `straight to its deploy branch.`
    )
  }
}

export function timeoutMessage(jobId: string, job: Job | null, timeoutMs: number, lastProblem: string | null): string {
  return (
    `Job ${jobId} did not reach a final status within the timeout of ${formatDuration(timeoutMs)} ` +
    `(last status: ${job?.status ?? 'not read yet'}).${lastProblem ? ` The last read failed: ${lastProblem}` : ''} ` +
    `The job keeps running on the service, which has no cancel operation. To follow it again, run this action ` +
    `with ${Input.jobId}: ${jobId}, or raise ${Input.timeout}.`
  )
}

/** What to say when the runner cancels the run, given what is known of the job by then. */
export function cancelledMessage(jobId: string, createInFlight: boolean): string {
  if (jobId) {
    return (
      `The run was cancelled. Job ${jobId} keeps running on the service, which has no cancel operation. ` +
      `To follow it again, run this action with ${Input.jobId}: ${jobId}.`
    )
  }
  if (createInFlight) {
    return (
      `The run was cancelled while the job was being created: it may or may not have been created. ` +
      `Check the project's jobs before running again.`
    )
  }
  return 'The run was cancelled before a job was created.'
}

export interface SummaryDetails {
  job: Job | null
  jobId: string
  ending: Ending
  prompt: string
  elapsedMs: number
}

/**
 * Writes the job summary. Every value is escaped, and the prompt keeps its line breaks as <br>,
 * so nothing in it can inject HTML or break out of the block into Markdown. A missing or
 * unwritable summary file (a local run) is a debug line, never a failure.
 */
export async function writeSummary(details: SummaryDetails): Promise<void> {
  const { job } = details
  const pr = job?.prLink ? `<a href="${escapeHtml(job.prLink)}">${escapeHtml(job.prLink)}</a>` : 'none'
  const source = job?.sourceRepository ? `${job.sourceRepository}${job.sourceRef ? ` @ ${job.sourceRef}` : ''}` : ''
  const rows: [string, string][] = [
    ['Job', escapeHtml(details.jobId || 'not created')],
    ['Status', escapeHtml(job?.status ?? 'unknown') + (ENDING_NOTES[details.ending] ?? '')],
    ['Pull request', pr],
    ['Model', escapeHtml(job?.model ?? '')],
    ['Source', escapeHtml(source)],
    ['Followed for', formatDuration(details.elapsedMs)]
  ]
  const summary = core.summary.addHeading('Documentation agent job', 3).addTable([
    [
      { data: 'Field', header: true },
      { data: 'Value', header: true }
    ],
    ...rows
  ])
  if (details.prompt) {
    summary.addRaw(
      `<p><strong>Prompt</strong></p><blockquote>${escapeHtml(details.prompt).replace(/\r?\n/g, '<br>')}</blockquote>`,
      true
    )
  }
  try {
    await summary.write()
  } catch (error) {
    core.debug(`No job summary written: ${(error as Error).message}`)
  } finally {
    summary.emptyBuffer()
  }
}

const ENDING_NOTES: Partial<Record<Ending, string>> = {
  timeout: ' (timed out: still running on the service)',
  cancelled: ' (run cancelled: still running on the service)',
  created: ' (not followed: wait is false)'
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'|]/g, (c) => `&#${c.charCodeAt(0)};`)
}
