import * as core from '@actions/core'
import { Output } from './constants.js'
import type { Job } from './job-record.js'
import { pullRequestNumber } from './pull-request-link.js'

/** Sets every output from the job as last seen; an output the service left empty is empty. */
export function setJobOutputs(job: Job): void {
  core.setOutput(Output.jobId, job.id)
  core.setOutput(Output.status, job.status)
  core.setOutput(Output.prLink, job.prLink ?? '')
  core.setOutput(Output.prNumber, pullRequestNumber(job.prLink))
  core.setOutput(Output.model, job.model ?? '')
  core.setOutput(Output.sourceRepository, job.sourceRepository ?? '')
  core.setOutput(Output.sourceRef, job.sourceRef ?? '')
  core.setOutput(Output.createdAt, job.createdAt ?? '')
}
