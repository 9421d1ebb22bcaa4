// The action's outputs are set in this one module: what each output holds after each ending is read here.
import * as core from '@actions/core'
import { Output } from '../kernel/action-names.js'
import type { Job } from '../service/job-record.js'
import { pullRequestNumber } from '../service/pull-request-link.js'

// The jobId output is written as soon as the job is known, so that a run killed later still leaves
// it; the outputs at the end then need not write it again.
let jobIdWritten = ''

/** Writes the jobId output, unless this id is already written. */
export function setJobIdOutput(jobId: string): void {
  if (jobId === jobIdWritten) return
  jobIdWritten = jobId
  core.setOutput(Output.jobId, jobId)
}

/** Sets every output from the job as last seen; an output the service left empty is empty. */
export function setJobOutputs(job: Job): void {
  setJobIdOutput(job.id)
  core.setOutput(Output.status, job.status)
  core.setOutput(Output.prLink, job.prLink ?? '')
  core.setOutput(Output.prNumber, pullRequestNumber(job.prLink))
  core.setOutput(Output.model, job.model ?? '')
  core.setOutput(Output.sourceRepository, job.sourceRepository ?? '')
  core.setOutput(Output.sourceRef, job.sourceRef ?? '')
  core.setOutput(Output.createdAt, job.createdAt ?? '')
}

/** Writes the jobCreated output: true for a job this run created, false for a message to one that existed. */
export function setJobCreatedOutput(created: boolean): void {
  core.setOutput(Output.jobCreated, String(created))
}

/** The outputs of a request queued for a reporting run: no job yet, so `status` says `queued` and jobId stays empty. */
export function setQueuedOutputs(): void {
  core.setOutput(Output.status, 'queued')
  core.setOutput(Output.jobCreated, 'false')
}

/** A job as a reporting run's `reported` and `working` outputs list it. */
interface ListedJob {
  id: string
  status: string
  prLink: string | null
  thread: number | null
}

/**
 * A reporting run's outputs, each as JSON: `reported`, the endings this run told; `working`, the jobs
 * it read that still work (or wait to be created).
 */
export function setReportedOutputs(told: readonly ListedJob[], working: readonly ListedJob[]): void {
  const shown = (list: readonly ListedJob[]) =>
    list.map(({ id, status, prLink, thread }) => ({ id, status, prLink, thread }))
  core.setOutput(Output.reported, JSON.stringify(shown(told)))
  core.setOutput(Output.working, JSON.stringify(shown(working)))
}

/** A dry run's outputs: nothing was sent, so `status` says `dry-run`. */
export function setDryRunOutputs(): void {
  core.setOutput(Output.status, 'dry-run')
}
