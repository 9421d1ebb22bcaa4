import * as core from '@actions/core'
import { watchForCancel } from './cancel.js'
import { readCommentRequest } from './comment.js'
import { Input, Output } from './constants.js'
import { startDeadline } from './deadline.js'
import { CancelledError, failureMessage } from './errors.js'
import { followJob } from './follow.js'
import { describeSettings, maskApiKey, readSettings, type Settings } from './inputs.js'
import type { Job } from './job.js'
import {
  cancelledMessage,
  concludeFinal,
  setJobOutputs,
  statusLogger,
  timeoutMessage,
  writeSummary,
  type Ending
} from './report.js'
import { JobService } from './service.js'
import { maskGithubToken, openThread, type Thread } from './thread.js'

/** What the run knows so far: enough to report it however it ends. */
interface RunState {
  /** The outcome was reported (by the run, or by the forced exit after a cancel): say it once. */
  reported: boolean
  /** A create request is out and not answered yet: cancelled now, the job may or may not exist. */
  createInFlight: boolean
  settings: Settings | null
  jobId: string
  job: Job | null
  ending: Ending
}

export async function run(): Promise<void> {
  const startedAt = Date.now()
  maskApiKey()
  maskGithubToken()
  const state: RunState = {
    reported: false,
    createInFlight: false,
    settings: null,
    jobId: '',
    job: null,
    ending: 'error'
  }
  const cancel = watchForCancel(() => reportCancelled(state))
  let service: JobService | undefined
  let thread: Thread | undefined
  try {
    // A comment-triggered run takes its prompt from the comment, and answers on its thread.
    const fromComment = readCommentRequest()
    if (fromComment?.start === false) {
      core.notice(fromComment.reason)
      return
    }
    if (fromComment) thread = openThread(fromComment.comment)
    const settings = (state.settings = readSettings(fromComment?.prompt))
    core.debug(`Settings: ${describeSettings(settings)}`)
    const deadline = startDeadline(startedAt + settings.timeoutMs, cancel.signal)
    const logStatus = statusLogger(startedAt)
    const onJob = (job: Job): void => {
      Object.assign(state, { job, jobId: job.id })
      logStatus(job)
    }
    service = new JobService(settings)

    if (!settings.jobId) {
      const job = await service.createJob(settings.prompt, deadline, {
        log: core.warning,
        onSending: (inFlight) => (state.createInFlight = inFlight)
      })
      core.info(`Created job ${job.id} in project ${settings.projectId}.`)
      onJob(job)
    }
    state.jobId ||= settings.jobId
    core.setOutput(Output.jobId, state.jobId)
    cancel.signal.throwIfAborted()
    if (!settings.wait && state.job) {
      state.ending = 'created'
      core.info(
        `Not following job ${state.jobId} (${Input.wait} is false). Follow it later with ${Input.jobId}: ${state.jobId}.`
      )
      return
    }

    const result = await followJob(service, state.jobId, state.job, {
      pollIntervalMs: settings.pollIntervalMs,
      deadline,
      onJob,
      onRetry: (problem, waitMs) => core.info(`${problem} Trying again in ${Math.ceil(waitMs / 100) / 10}s.`)
    })
    cancel.signal.throwIfAborted()
    state.ending = result.outcome
    if (result.outcome === 'timeout')
      core.setFailed(timeoutMessage(state.jobId, state.job, settings.timeoutMs, result.lastProblem))
    else concludeFinal(result.job, settings.requirePr)
  } catch (error) {
    if (error instanceof CancelledError) reportCancelled(state)
    else core.setFailed(failureMessage(error))
  } finally {
    state.reported = true
    cancel.stop()
    if (state.job) setJobOutputs(state.job)
    if (state.settings && (state.jobId || state.ending !== 'error')) {
      const { job, jobId, ending } = state
      await writeSummary({ job, jobId, ending, prompt: state.settings.prompt, elapsedMs: Date.now() - startedAt })
    }
    await thread?.finish({ ending: state.ending, job: state.job, jobId: state.jobId })
    await service?.close()
  }
}

/** Says what a cancel leaves behind, once: from the catch, or from the forced exit after the grace. */
function reportCancelled(state: RunState): void {
  if (state.reported) return
  if (state.job) setJobOutputs(state.job)
  state.ending = 'cancelled'
  core.setFailed(cancelledMessage(state.jobId, state.createInFlight))
  state.reported = true
}
