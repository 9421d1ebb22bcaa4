import { findAgentJob, leaveAgentNote } from './agent-pull-request.js'
import { watchForCancel } from './cancel.js'
import type { Blanked } from './change-context/credentials.js'
import { blankInstruction, blankWhatIsSent, gatherRunContext, hunkBlanker } from './change-context/run-context.js'
import { startCommentReplies, type CommentReplies } from './comment-reply.js'
import { readCommentRequest, type TriggeringComment } from './comment-trigger.js'
import { startDeadline, type Deadline } from './deadline.js'
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
import { setJobIdOutput, setJobOutputs } from './outputs.js'
import { joinPrompts } from './prompt-file.js'
import { checkProxyVariables } from './proxy-variables.js'
import { noSignWindowMs } from './retry-policy.js'
import { describeEnding, staleLine, type RunOutcome } from './run-ending.js'
import { statusLogger } from './status-log.js'
import { showDryRun, whatLeaves, type WhatLeaves } from './what-leaves.js'

/** What the run knows so far: enough to report it however it ends. */
interface RunState extends RunOutcome {
  /** The ending was announced (by the run, or by the forced exit after a cancel): say it once. */
  announced: boolean
  settings: Settings | null
  /** The prompt as given: the input, or the instruction in the comment. */
  prompt: string
  /** The context section sent after the prompt; empty when there is none. */
  context: string
  /** What the prompt sent carries, for the summary; null until it is known. */
  leaving: WhatLeaves | null
  /** A create or a message started to go out: from then on the service may have it. */
  writeStarted: boolean
}

export async function run(): Promise<void> {
  const startedAt = Date.now()
  maskSecrets()
  const state: RunState = {
    announced: false,
    settings: null,
    prompt: '',
    context: '',
    leaving: null,
    writeStarted: false,
    ending: 'error',
    job: null,
    jobId: ''
  }
  const cancel = watchForCancel(() => announce(Object.assign(state, { ending: 'cancelled' })))
  let service: JobService | undefined
  let replies: CommentReplies | undefined
  let comment: TriggeringComment | null = null
  try {
    // A comment-triggered run takes its prompt from the comment, and answers on its thread (even
    // to say that the workflow's inputs are wrong).
    const commentSettings = readCommentSettings()
    // A review comment's diff hunk is scanned whole before it is cut to its last lines.
    const hunk =
      commentSettings && process.env.GITHUB_EVENT_NAME === 'pull_request_review_comment' ? await hunkBlanker() : null
    const request = commentSettings ? readCommentRequest({ ...commentSettings, blankHunk: hunk?.blank }) : null
    if (request && !request.start) return void Object.assign(state, { ending: 'skipped', reason: request.reason })
    let instruction = { text: '', blanked: [] as Blanked[] }
    if (request) {
      instruction = await blankInstruction(request.prompt, hunk?.blanked)
      state.prompt = instruction.text
      comment = request.comment
      replies = startCommentReplies(comment, readGithubToken())
    }
    const settings = (state.settings = readSettings())
    Object.assign(state, { requirePr: settings.requirePr, timeoutMs: settings.timeoutMs })
    log.debug(`Settings: ${describeSettings(settings)}`)
    checkProxyVariables()

    const deadline = startDeadline(startedAt + settings.timeoutMs, cancel.signal)
    // On the agent's own pull request, the instruction goes to its job, found from the action's note there.
    const agentJobId =
      request && !request.fresh ? await findAgentJob(request.comment, settings, replies, deadline.signal) : ''
    cancel.signal.throwIfAborted()
    if (agentJobId) settings.jobId = agentJobId
    // promptFile's standing instruction comes first, then the prompt input or the comment's instruction;
    // a follow-up on the agent's pull request is the comment's instruction alone, as with jobId.
    state.prompt = agentJobId ? instruction.text : joinPrompts(settings.prompt, instruction.text)
    // What changed reaches the agent after the prompt (settings.context), with a create or a
    // follow-up message alike: read before it is sent, within a few requests and seconds, never in
    // its way (it takes at most half the time left).
    const context = state.prompt ? await gatherRunContext(settings, commentSettings !== null, deadline) : null
    if (context?.startsNothing) {
      return void Object.assign(state, { ending: 'skipped', reason: context.notices.join(' ') })
    }
    // The final pass: the prompt as it goes (promptFile's text, the prompt input or the instruction, and
    // the section), scanned once more after every cut, so that what is scanned is what is sent.
    const final = state.prompt ? await blankWhatIsSent(state.prompt, context?.section ?? '') : null
    state.prompt = final?.prompt ?? ''
    state.context = final?.section ?? ''
    const sent = final?.sent ?? ''
    if (final) {
      const blanked = [...instruction.blanked, ...final.blanked]
      state.leaving = whatLeaves(sent, state.prompt, context, settings, blanked)
    }
    // A dry run stops here: the exact prompt is shown, and nothing is sent to the service.
    if (settings.dryRun) {
      showDryRun(state.leaving)
      return void Object.assign(state, {
        ending: 'dry-run',
        jobId: settings.jobId,
        followUp: !!settings.jobId && !!state.prompt
      })
    }
    service = new JobService(settings)
    const onJob = jobWatcher(state, statusLogger(startedAt), replies)
    await sendPrompt(service, settings, sent, deadline, state, onJob)
    cancel.signal.throwIfAborted()
    await followToTheEnd(service, settings, deadline, state, onJob)
    cancel.signal.throwIfAborted()
  } catch (error) {
    if (error instanceof CancelledError) {
      state.ending = 'cancelled'
    } else {
      state.reason = failureMessage(error)
      state.createdUnread = error instanceof ServiceError && error.kind === 'takenUnread'
      state.writeUncertain = error instanceof ServiceError && error.kind === 'uncertain'
      logStackForBugReport(error)
    }
  } finally {
    cancel.stop()
    announce(state)
    // A summary once there is something to sum up: a job, or a run that got as far as asking for one.
    if (state.jobId || (state.settings && state.ending !== 'error' && state.ending !== 'skipped')) {
      const { prompt, context, writeStarted } = state
      const leaving = state.leaving && { ...state.leaving, wasSent: writeStarted }
      await writeSummary({ outcome: state, prompt, context, leaving, elapsedMs: Date.now() - startedAt })
    }
    // The thread's reply, and the note on a pull request the job opened: each bounded, neither fails the step.
    await Promise.all([
      replies?.finish(state, Date.now() - startedAt),
      leaveAgentNote(state, state.settings?.githubToken ?? '', comment, replies, cancel.signal)
    ])
    await service?.close()
  }
}

/** What each read of the job is for: the state, the status line in the log, the thread's reply. */
function jobWatcher(state: RunState, logStatus: (job: Job) => void, replies?: CommentReplies): (job: Job) => void {
  return (job) => {
    Object.assign(state, { job, jobId: job.id })
    logStatus(job)
    replies?.progress(state)
  }
}

/**
 * Without an existing job, the job is created; with one and a prompt, the prompt goes to it as a
 * follow-up message. Each is sent once, whatever happens (see JobService.write); never a new job instead.
 */
async function sendPrompt(
  service: JobService,
  settings: Settings,
  sent: string,
  deadline: Deadline,
  state: RunState,
  onJob: (job: Job) => void
): Promise<void> {
  const hooks = {
    log: log.warning,
    onSending: (inFlight: boolean) => {
      state.writeInFlight = inFlight
      state.writeStarted ||= inFlight
    }
  }
  if (settings.jobId) setJobIdOutput((state.jobId = settings.jobId))
  if (!settings.jobId) {
    const job = await service.createJob(sent, deadline, hooks)
    log.info(`Created job ${job.id} in project ${settings.projectId}.`)
    onJob(job)
  } else if (state.prompt) {
    state.followUp = true
    const job = await service.sendMessage(state.jobId, sent, deadline, hooks)
    log.info(`Sent the follow-up message to job ${state.jobId}.`)
    if (job) onJob(job)
  }
}

/**
 * Follows the job to a final status, or not: a job the create answered as final needs no following
 * (after a message, a final status may be the one from before it). An existing job given no prompt
 * is always followed; a job just created or sent a message, unless wait is false.
 */
async function followToTheEnd(
  service: JobService,
  settings: Settings,
  deadline: Deadline,
  state: RunState,
  onJob: (job: Job) => void
): Promise<void> {
  if (state.job && isFinal(state.job.status) && !state.followUp) return void (state.ending = 'final')
  if (!settings.wait && (settings.jobId === '' || state.followUp)) return void (state.ending = 'created')
  const windowMs = noSignWindowMs(settings.pollIntervalMs)
  const result = await followJob(service, state.jobId, state.job, {
    pollIntervalMs: settings.pollIntervalMs,
    deadline,
    onJob,
    onRetry: (problem, waitMs) => log.info(`${problem} Trying again in ${Math.ceil(waitMs / 100) / 10}s.`),
    awaitWork: state.followUp ? { windowMs, onStale: (job) => log.info(staleLine(job, windowMs)) } : undefined
  })
  state.ending = result.outcome
  if (result.outcome === 'timeout') state.lastProblem = result.lastProblem
  if (result.outcome === 'noSign') state.waitedMs = result.waitedMs
}

/** Sets the outputs and says how the run ended, once: from the run, or from the forced exit after a cancel. */
function announce(state: RunState): void {
  if (state.announced) return
  state.announced = true
  if (state.job) setJobOutputs(state.job)
  const { level, log: line } = describeEnding(state)
  log[level](line)
}
