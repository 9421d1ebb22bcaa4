import * as core from '@actions/core'
import { watchForCancel } from './cancel.js'
import { readCommentRequest } from './comment.js'
import { Input, Output } from './constants.js'
import { startDeadline } from './deadline.js'
import { ActionError, CancelledError } from './errors.js'
import { followJob } from './follow.js'
import { describeSettings, maskApiKey, readSettings, type Settings } from './inputs.js'
import { isFinal, type Job } from './job.js'
import { concludeFinal, setJobOutputs, statusLogger, timeoutMessage, writeSummary, type Ending } from './report.js'
import { JobService } from './service.js'
import { maskGithubToken, openThread, type Thread } from './thread.js'

/** What the run knows so far: enough to report it however it ends. */
interface RunState {
  phase: 'starting' | 'creating' | 'following' | 'done'
  settings: Settings | null
  jobId: string
  job: Job | null
}

export async function run(): Promise<void> {
  const startedAt = Date.now()
  maskApiKey()
  maskGithubToken()
  const state: RunState = { phase: 'starting', settings: null, jobId: '', job: null }
  const cancel = watchForCancel(() => reportCancelled(state))
  let service: JobService | undefined
  let thread: Thread | undefined
  let ending: Ending = 'error'
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
    service = new JobService(settings)
    const onJob = logStatusChanges(startedAt, state)

    if (!settings.jobId) {
      state.phase = 'creating'
      // A create in flight is let finish on cancel (the grace period bounds it), so its job id is not lost.
      const job = await service.createJob(settings.prompt, startDeadline(deadline.at, new AbortController().signal), core.warning)
      core.info(`Created job ${job.id} in project ${settings.projectId}.`)
      onJob(job)
    }
    state.jobId ||= settings.jobId
    core.setOutput(Output.jobId, state.jobId)
    cancel.signal.throwIfAborted()

    if (!settings.wait && state.job) {
      ending = 'created'
      core.info(`Not following job ${state.jobId} (${Input.wait} is false). Follow it later with ${Input.jobId}: ${state.jobId}.`)
      return
    }
    state.phase = 'following'
    const result = await followJob(service, state.jobId, state.job, {
      pollIntervalMs: settings.pollIntervalMs,
      deadline,
      onJob,
      onRetry: (problem, waitMs) => core.info(`${problem} Trying again in ${Math.ceil(waitMs / 100) / 10}s.`)
    })
    cancel.signal.throwIfAborted()
    if (result.outcome === 'timeout') {
      ending = 'timeout'
      core.setFailed(timeoutMessage(state.jobId, state.job, settings.timeoutMs, result.lastProblem))
    } else {
      ending = 'final'
      concludeFinal(result.job, settings.requirePr)
    }
  } catch (error) {
    ending = error instanceof CancelledError ? 'cancelled' : 'error'
    if (error instanceof CancelledError) reportCancelled(state)
    else core.setFailed(failureMessage(error))
  } finally {
    state.phase = 'done'
    cancel.stop()
    if (state.job) setJobOutputs(state.job)
    if (state.settings && (state.jobId || ending !== 'error')) {
      await writeSummary({ job: state.job, jobId: state.jobId, ending, prompt: state.settings.prompt, elapsedMs: Date.now() - startedAt })
    }
    await thread?.finish({ ending, job: state.job, jobId: state.jobId })
    await service?.close()
  }
}

function remember(state: RunState, job: Job): void {
  state.job = job
  state.jobId = job.id
}

function logStatusChanges(startedAt: number, state: RunState): (job: Job) => void {
  const log = statusLogger(startedAt)
  return (job) => {
    log(job)
    remember(state, job)
  }
}

function reportCancelled(state: RunState): void {
  if (state.phase === 'done') return
  if (state.job && !isFinal(state.job.status)) setJobOutputs(state.job)
  if (state.jobId) {
    core.setFailed(
      `The run was cancelled. Job ${state.jobId} keeps running on the service, which has no cancel operation. ` +
        `To follow it again, run this action with ${Input.jobId}: ${state.jobId}.`
    )
  } else if (state.phase === 'creating') {
    core.setFailed(
      `The run was cancelled while the job was being created: it may or may not have been created. ` +
        `Check the project's jobs before running again.`
    )
  } else {
    core.setFailed('The run was cancelled before a job was created.')
  }
  state.phase = 'done'
}

/** A sentence for the log, never a stack trace; an error that is not ours is reported as a bug. */
function failureMessage(error: unknown): string {
  if (error instanceof ActionError) return error.message
  const message = error instanceof Error ? error.message : String(error)
  return `The action failed unexpectedly: ${message}. Please report this, with the step's log, as an issue on the action's repository.`
}
