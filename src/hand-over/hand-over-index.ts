// What a hand-over does in the index once its record is in: the job added to the dashboard's open
// list, and the reporting workflow turned on (it runs only while a job is open:
// hand-over/reporting-workflow.ts). The workflow is turned on whatever the index's body says, once the
// record was added: the body may say on while the workflow is off (a reporting run's disable GitHub
// made despite its 502, or whose "off" it could not write), and turning on a workflow that is on is
// a 204 that changes nothing. Only a workflow whose token may not switch it (the index says so) is
// left alone. Never throws: the record is in, and a failure is a sentence in the log.
import type { Octokit } from '../github/octokit.js'
import { describeWriteFailure } from '../github/write-failure.js'
import { WRITE_ACCESS } from '../kernel/write-access.js'
import type { JobIndex } from './job-index.js'
import type { JobRecord } from './index-records.js'
import { SWITCH_PERMISSION, switchWorkflow } from './reporting-workflow.js'
import { log } from '../runtime/log.js'

/**
 * The record `commentId` shown on the dashboard, and the reporting workflow on (see the file's opening
 * comment). Returns whether a reporting run has recorded itself in the index (true when the index
 * could not be read: assumed), for the words that promise the ending.
 */
export async function showHandedOver(
  { index, octokit, repository }: { index: JobIndex; octokit: Octokit; repository: string },
  { issue, commentId, record }: { issue: number; commentId: number; record: JobRecord },
  signal: AbortSignal
): Promise<boolean> {
  let reporterKnown = true
  try {
    const state = await index.readState(issue)
    reporterKnown = state.workflow !== null
    let on = state.on
    if (state.workflow && state.switchable) {
      const turned = await switchWorkflow(octokit, { repository, workflow: state.workflow, on: true }, signal)
      on = turned.done || state.on
      const why = turned.done ? '' : describeWriteFailure(turned.error, WRITE_ACCESS.workflow)
      if (!state.on && !turned.done) log.warning(workflowStaysOff(state.workflow, why, turned.refused))
      else if (!state.on)
        log.info(`Turned on the reporting workflow ${fileOf(state.workflow)}: it tells this job's ending.`)
      else if (!turned.done)
        log.debug(`Could not make sure the reporting workflow is on (the index says it is): ${why}`)
    }
    const added = {
      comment: commentId,
      job: record.job,
      since: record.created,
      status: record.state === 'queued' ? 'queued' : 'active',
      ...(record.thread ? { thread: record.thread } : {}),
      ...(record.commit ? { commit: record.commit } : {})
    }
    await index.publish(issue, { added: [added], on }, signal)
  } catch (error) {
    if (signal.aborted) return reporterKnown
    log.notice(
      `The job's record is in issue #${issue}, but its list of jobs was not updated: ${describeWriteFailure(error, WRITE_ACCESS.index)} ` +
        'The next reporting run updates it.'
    )
  }
  return reporterKnown
}

/** The workflow a reporting run turned off could not be turned on: the ending waits until it is. */
function workflowStaysOff(workflow: string, why: string, refused: boolean): string {
  const file = fileOf(workflow)
  return (
    `The reporting workflow ${file} is off (nothing was open), and this run could not turn it on: ${why} ` +
    (refused ? `Give this workflow "${SWITCH_PERMISSION}" in its permissions, or ` : 'Try again, or ') +
    `turn ${file} on in the Actions tab (or run it by hand): this job's ending is told once it runs.`
  )
}

function fileOf(workflow: string): string {
  return workflow.split('/').pop() ?? workflow
}
