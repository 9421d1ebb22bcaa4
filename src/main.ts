import * as core from '@actions/core'
import { watchForCancel } from './cancel.js'
import { gatherRunContext, promptWithSection } from './change-context/run-context.js'
import { startCommentReplies, type CommentReplies } from './comment-reply.js'
import { readCommentRequest } from './comment-trigger.js'
import { Output } from './constants.js'
import { startDeadline } from './deadline.js'
import { CancelledError, failureMessage, logStackForBugReport } from './errors.js'
import { followJob } from './follow-job.js'
import {
  describeSettings,
  maskSecrets,
  readCommentSettings,
  readGithubToken,
  readSettings,
  type Settings
} from './inputs.js'
import { isFinal, type Job } from './job-record.js'
import { JobService, ServiceError } from './job-service.js'
import { writeSummary } from './job-summary.js'
import { log } from './log.js'
import { setJobOutputs } from './outputs.js'
import { checkProxyVariables } from './proxy-variables.js'
import { describeEnding, type RunOutcome } from './run-ending.js'
import { statusLogger } from './status-log.js'

/** What the run knows so far: enough to report it however it ends. */
interface RunState extends RunOutcome {
  /** The ending was announced (by the run, or by the forced exit after a cancel): say it once. */
  announced: boolean
  settings: Settings | null
  /** The prompt as given: the input, or the instruction in the comment. */
  prompt: string
  /** The context section sent after the prompt; empty when there is none. */
  context: string
}

export async function run(): Promise<void> {
  const startedAt = Date.now()
  maskSecrets()
  const state: RunState = {
    announced: false,
    settings: null,
    prompt: '',
    context: '',
    ending: 'error',
    job: null,
    jobId: ''
  }
  const cancel = watchForCancel(() => announce(Object.assign(state, { ending: 'cancelled' })))
  let service: JobService | undefined
  let replies: CommentReplies | undefined
  try {
    // A comment-triggered run takes its prompt from the comment, and answers on its thread (even
    // to say that the workflow's inputs are wrong).
    const commentSettings = readCommentSettings()
    if (commentSettings) {
      const request = readCommentRequest(commentSettings)
      if (!request.start) return void Object.assign(state, { ending: 'skipped', reason: request.reason })
      state.prompt = request.prompt
      replies = startCommentReplies(request.comment, readGithubToken())
    }
    const settings = (state.settings = readSettings())
    Object.assign(state, { requirePr: settings.requirePr, timeoutMs: settings.timeoutMs })
    state.prompt ||= settings.prompt
    log.debug(`Settings: ${describeSettings(settings)}`)
    checkProxyVariables()

    const deadline = startDeadline(startedAt + settings.timeoutMs, cancel.signal)
    // What changed reaches the agent after the prompt (settings.context): read before the create,
    // within a few requests and seconds, and never in its way.
    const context = settings.jobId ? null : await gatherRunContext(settings, commentSettings !== null, deadline.signal)
    if (context?.startsNothing) {
      return void Object.assign(state, { ending: 'skipped', reason: context.notices.join(' ') })
    }
    state.context = context?.section ?? ''
    const logStatus = statusLogger(startedAt)
    const onJob = (job: Job): void => {
      Object.assign(state, { job, jobId: job.id })
      logStatus(job)
    }
    service = new JobService(settings)

    // Without a jobId, the job is created: once, whatever happens (see JobService.createJob).
    if (!settings.jobId) {
      const job = await service.createJob(promptWithSection(state.prompt, state.context), deadline, {
        log: log.warning,
        onSending: (inFlight) => (state.createInFlight = inFlight)
      })
      log.info(`Created job ${job.id} in project ${settings.projectId}.`)
      onJob(job)
    }
    state.jobId ||= settings.jobId
    core.setOutput(Output.jobId, state.jobId)
    cancel.signal.throwIfAborted()

    // A job the create answered as final needs no following. A job given as jobId is always
    // followed; a job just created, unless wait is false.
    if (state.job && isFinal(state.job.status)) return void (state.ending = 'final')
    const follow = settings.wait || settings.jobId !== ''
    if (!follow) return void (state.ending = 'created')

    const result = await followJob(service, state.jobId, state.job, {
      pollIntervalMs: settings.pollIntervalMs,
      deadline,
      onJob,
      onRetry: (problem, waitMs) => log.info(`${problem} Trying again in ${Math.ceil(waitMs / 100) / 10}s.`)
    })
    cancel.signal.throwIfAborted()
    state.ending = result.outcome
    if (result.outcome === 'timeout') state.lastProblem = result.lastProblem
  } catch (error) {
    if (error instanceof CancelledError) {
      state.ending = 'cancelled'
    } else {
      state.reason = failureMessage(error)
      state.createdUnread = error instanceof ServiceError && error.kind === 'createdUnread'
      logStackForBugReport(error)
    }
  } finally {
    cancel.stop()
    announce(state)
    // A summary once there is something to sum up: a job, or a run that got as far as asking for one.
    if (state.jobId || (state.settings && state.ending !== 'error' && state.ending !== 'skipped')) {
      const { prompt, context } = state
      await writeSummary({ outcome: state, prompt, context, elapsedMs: Date.now() - startedAt })
    }
    await replies?.finish(state)
    await service?.close()
  }
}

/** Sets the outputs and says how the run ended, once: from the run, or from the forced exit after a cancel. */
function announce(state: RunState): void {
  if (state.announced) return
  state.announced = true
  if (state.job) setJobOutputs(state.job)
  const { level, log: line } = describeEnding(state)
  log[level](line)
}
