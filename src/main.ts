import { findAgentJob } from './comment/agent-pull-request.js'
import { leaveAgentNote } from './report/agent-note.js'
import { watchForCancel } from './runtime/cancel.js'
import type { Blanked } from './safety/credentials.js'
import { blankInstruction, hunkBlanker } from './context/for-this-run.js'
import { startCommentReplies, type CommentReplies } from './report/comment-reply.js'
import { readCommentRequest, type TriggeringComment } from './comment/trigger.js'
import { startDeadline, type Deadline } from './runtime/deadline.js'
import { CancelledError, failureMessage, logStackForBugReport } from './runtime/errors.js'
import { tryingAgain } from './runtime/duration.js'
import { followJob } from './service/follow-job.js'
import { readCommentSettings, readTriggerForNote } from './inputs/comment-settings.js'
import { describeSettings, maskSecrets, readGithubToken, readSettings, type Settings } from './inputs/settings.js'
import { isFinal, type Job } from './service/job-record.js'
import { JobService } from './service/job-service.js'
import { ServiceError } from './service/service-error.js'
import { writeSummary } from './report/summary.js'
import { agentPullRequestShown } from './report/agent-pull-request-shown.js'
import { log } from './runtime/log.js'
import { setJobIdOutput, setJobOutputs } from './report/outputs.js'
import { checkProxyVariables } from './net/proxy-settings.js'
import { noSignWindowMs, RetryPolicy } from './net/retry-policy.js'
import { describeEnding, staleLine, type JobSoFar, type RunOutcome } from './report/run-ending.js'
import { statusLogger } from './report/status-log.js'
import { preparePrompt, type Prepared } from './prompt/assemble.js'
import { showDryRun } from './prompt/what-leaves.js'
import { codePullRequestOf, lookUpGroup, type GroupRun } from './comment/group-job.js'
import { readGroupSettings } from './inputs/group-settings.js'
import { sendToGroupJob } from './service/group-send.js'
import { setJobCreatedOutput } from './report/outputs.js'
import { groupSendLine, recordGroupRun, tellDocsCodeClosed, waitedOutReason } from './report/group-record.js'

// The run, told in the order it happens: the comment that asked (if one did), the inputs, the job
// on the agent's pull request, the context, what leaves, then the create (or the follow-up message)
// and the following. Each stage returns what it learned; how the run ended is one RunOutcome, said
// once (log, outputs), then summed up, replied on the thread and noted on the agent's pull request.
// The file is a little over 300 lines because the stages stay beside the story: each function below
// run() is one stage, and reading them in order is reading a run.

/**
 * What the run knows of its job while it runs. It is the one thing updated in place: the forced exit
 * after a cancel may have to tell it at any moment, from a signal handler.
 */
interface JobProgress extends JobSoFar {
  followUp: boolean
  /** A create or a message is on its way and not answered yet. */
  writeInFlight: boolean
  /** A create or a message started to go out: from then on the service may have it. */
  writeStarted: boolean
  /** What the service took from this run, when it answered that it did. */
  delivered?: 'create' | 'message'
}

/** A comment that asked for a job: its instruction (credentials blanked) and the reply on its thread. */
interface CommentAsk {
  comment: TriggeringComment
  /** The instruction after the trigger; `fresh` when it asks for a new job on the agent's pull request. */
  instruction: { text: string; blanked: Blanked[] }
  fresh: boolean
  replies: CommentReplies
}

export async function run(): Promise<void> {
  const startedAt = Date.now()
  maskSecrets()
  const progress: JobProgress = { job: null, jobId: '', followUp: false, writeInFlight: false, writeStarted: false }
  const announceOnce = onlyOnce(announce)
  const cancel = watchForCancel(() => announceOnce(cancelledOutcome(progress)), RetryPolicy.cancel.graceMs)
  const learned: Learned = { ask: null, settings: null, prepared: null, group: null }
  let outcome: RunOutcome
  try {
    outcome = await askSendAndFollow(learned, progress, cancel.signal, startedAt)
  } catch (error) {
    outcome = failed(error, progress)
  } finally {
    cancel.stop()
  }
  announceOnce(outcome)
  await tellHowItEnded(outcome, learned, progress, Date.now() - startedAt, cancel.signal)
  await learned.service?.close()
}

/** What the stages have learned, for the summary, the reply and the note, however far the run got. */
interface Learned {
  ask: CommentAsk | null
  settings: Settings | null
  prepared: Prepared | null
  service?: JobService
  /** The run's group and its pull request, when it has a group. */
  group: GroupRun | null
}

/**
 * The run up to its ending: the comment that asked (if one did), the inputs, the job on the agent's
 * pull request, the prompt with its context, then the create (or the follow-up message) and the following.
 */
async function askSendAndFollow(
  learned: Learned,
  progress: JobProgress,
  cancelled: AbortSignal,
  startedAt: number
): Promise<RunOutcome> {
  // A comment-triggered run takes its prompt from the comment, and answers on its thread (even
  // to say that the workflow's inputs are wrong).
  const asked = await readCommentAsk()
  if (asked && 'skipped' in asked) return { ending: 'skipped', reason: asked.skipped, ...soFar(progress) }
  const ask = (learned.ask = asked)
  if (ask) {
    // A cancel is shown on the thread at once: a write in flight may hold the run until the runner
    // stops it, and the reply must not say "On it" for ever.
    const { replies } = ask
    const showCancel = (): void => replies.showEnding(cancelledOutcome(progress), Date.now() - startedAt)
    cancelled.addEventListener('abort', showCancel, { once: true })
  }
  const settings = (learned.settings = readSettings())
  log.debug(`Settings: ${describeSettings(settings)}`)
  checkProxyVariables()
  const deadline = startDeadline(startedAt + settings.timeoutMs, cancelled)
  // On the agent's own pull request, the instruction goes to its job, found from the action's note there.
  const agentJobId = ask && !ask.fresh ? await findAgentJob(ask.comment, settings, deadline.signal) : ''
  cancelled.throwIfAborted()
  if (agentJobId) {
    settings.jobId = agentJobId
    // The commenter gave no jobId: after a refusal, the way to a new job is a comment.
    progress.newJobWay = { by: 'comment', trigger: readTriggerForNote() }
  }
  // Runs with a group share the group's pull request, found on GitHub by its label and signed note.
  const groupSettings = ask || settings.jobId ? null : readGroupSettings()
  const group = (learned.group = groupSettings ? await lookUpGroup(groupSettings, settings, deadline.signal) : null)
  cancelled.throwIfAborted()
  const code = group && codePullRequestOf()
  if (group && code?.closed) {
    return {
      ending: 'skipped',
      reason: await tellDocsCodeClosed(code, group, settings, deadline.signal),
      ...soFar(progress)
    }
  }
  const found = group?.lookup.kind === 'found' ? group.lookup.found : null
  const prepared = await preparePrompt(settings, ask?.instruction ?? null, agentJobId !== '', deadline, found?.mark)
  if ('skipped' in prepared) return { ending: 'skipped', reason: prepared.skipped, ...soFar(progress) }
  learned.prepared = prepared
  const service = (learned.service = settings.dryRun ? undefined : new JobService(settings))
  return sendAndFollow(service, settings, prepared, deadline, cancelled, progress, startedAt, ask?.replies, group)
}

/**
 * The ending, told where people look: the job summary (for every ending but a skip, an event that
 * starts nothing: a run that failed before any job existed says so there too), the thread's reply,
 * and the note on a pull request the job opened. Each is bounded; none fails the step.
 */
async function tellHowItEnded(
  outcome: RunOutcome,
  { ask, settings, prepared, group }: Learned,
  progress: JobProgress,
  elapsedMs: number,
  cancelled: AbortSignal
): Promise<void> {
  // What the agent did, as GitHub shows its pull request: one bounded read, for the summary and the reply.
  const pullRequest = await agentPullRequestShown(outcome, settings?.githubToken ?? '', cancelled)
  if (outcome.ending !== 'skipped') {
    const leaving = prepared?.leaving && { ...prepared.leaving, wasSent: progress.writeStarted }
    await writeSummary({
      outcome,
      prompt: prepared?.prompt ?? ask?.instruction.text ?? '',
      context: prepared?.context ?? '',
      leaving,
      elapsedMs,
      pullRequest
    })
  }
  // A job the group's run created makes its pull request the group's, with the mark in the note.
  const groupNote =
    group && progress.delivered === 'create' && group.lookup.kind !== 'unreadable'
      ? { name: group.settings.name, mark: group.mark }
      : undefined
  await Promise.all([
    ask?.replies.finish(outcome, elapsedMs, pullRequest),
    leaveAgentNote(outcome, settings, ask?.comment ?? null, cancelled, process.env, groupNote).then(
      () => group && settings && recordGroupRun(outcome, group, progress.delivered, settings, cancelled)
    )
  ])
}

/** The function, called the first time only: the ending is announced once, by a cancel or by the run. */
function onlyOnce<T>(fn: (value: T) => void): (value: T) => void {
  let called = false
  return (value) => {
    if (called) return
    called = true
    fn(value)
  }
}

/** The comment that asked for the job, or why it starts none; null when the run is not comment-triggered. */
async function readCommentAsk(): Promise<CommentAsk | { skipped: string } | null> {
  const commentSettings = readCommentSettings()
  // A review comment's diff hunk is scanned whole before it is cut to its last lines.
  const hunk =
    commentSettings && process.env.GITHUB_EVENT_NAME === 'pull_request_review_comment' ? await hunkBlanker() : null
  const request = commentSettings ? readCommentRequest({ ...commentSettings, blankHunk: hunk?.blank }) : null
  if (!request) return null
  if (!request.start) return { skipped: request.reason }
  const instruction = await blankInstruction(request.prompt, hunk?.blanked)
  const replies = startCommentReplies(request.comment, readGithubToken())
  return { comment: request.comment, instruction, fresh: request.fresh, replies }
}

/**
 * Sends the prompt (unless it is a dry run: then the exact prompt is shown, and nothing is sent) and
 * follows the job; the outcome is what the following saw.
 */
async function sendAndFollow(
  service: JobService | undefined,
  settings: Settings,
  prepared: Prepared,
  deadline: Deadline,
  cancelled: AbortSignal,
  progress: JobProgress,
  startedAt: number,
  replies: CommentReplies | undefined,
  group: GroupRun | null
): Promise<RunOutcome> {
  const groupJobId = group?.lookup.kind === 'found' ? group.lookup.found.jobId : ''
  if (settings.dryRun || !service) {
    showDryRun(prepared.leaving)
    if (group) log.info(groupSendLine(group, true))
    const jobId = settings.jobId || groupJobId
    return { ending: 'dry-run', job: null, jobId, followUp: !!jobId && !!prepared.prompt }
  }
  const logStatus = statusLogger(startedAt)
  const onJob = (job: Job): void => {
    progress.job = job
    progress.jobId = job.id
    logStatus(job)
    replies?.progress(progress)
  }
  const sent = await sendPrompt(service, settings, prepared, deadline, progress, onJob, group)
  if (sent === 'waited-out' && group)
    return { ending: 'skipped', reason: waitedOutReason(group, settings.timeoutMs), ...soFar(progress) }
  cancelled.throwIfAborted()
  const outcome = await followToTheEnd(service, settings, deadline, progress, onJob)
  cancelled.throwIfAborted()
  return outcome
}

/**
 * Without an existing job, the job is created; with one and a prompt, the prompt goes to it as a
 * follow-up message. Each is sent once, whatever happens (see JobService.write); never a new job instead.
 */
async function sendPrompt(
  service: JobService,
  settings: Settings,
  { prompt, sent }: Prepared,
  deadline: Deadline,
  progress: JobProgress,
  onJob: (job: Job) => void,
  group: GroupRun | null
): Promise<'sent' | 'waited-out'> {
  const hooks = {
    log: log.warning,
    onSending: (inFlight: boolean) => {
      progress.writeInFlight = inFlight
      progress.writeStarted ||= inFlight
    }
  }
  if (settings.jobId) setJobIdOutput((progress.jobId = settings.jobId))
  if (!settings.jobId && group?.lookup.kind === 'found') {
    // The group's job gets the prompt once it is not busy; one that takes no message leaves a create.
    const { jobId } = group.lookup.found
    const result = await sendToGroupJob(service, jobId, sent, {
      pollIntervalMs: settings.pollIntervalMs,
      deadline,
      hooks,
      onJob,
      onRetry: (problem, waitMs) => log.info(`${problem} ${tryingAgain(waitMs)}`),
      onBusy: () => log.info(groupSendLine(group, false, 'busy'))
    })
    if (result.kind === 'waited-out') return 'waited-out'
    if (result.kind === 'sent') {
      progress.followUp = true
      progress.jobId = jobId
      deliver(progress, 'message')
      log.info(`Sent the follow-up message to job ${jobId}, group ${group.settings.name}'s.`)
      if (result.job) onJob(result.job)
      return 'sent'
    }
    log.info(groupSendLine(group, false, result.why))
  }
  if (!settings.jobId) {
    const job = await service.createJob(sent, deadline, hooks)
    deliver(progress, 'create')
    log.info(`Created job ${job.id} in project ${settings.projectId}.`)
    onJob(job)
  } else if (prompt) {
    progress.followUp = true
    const job = await service.sendMessage(progress.jobId, sent, deadline, hooks, progress.newJobWay)
    deliver(progress, 'message')
    log.info(`Sent the follow-up message to job ${progress.jobId}.`)
    if (job) onJob(job)
  }
  return 'sent'
}

/** The service took the create or the message: the jobCreated output says which. */
function deliver(progress: JobProgress, what: 'create' | 'message'): void {
  progress.delivered = what
  setJobCreatedOutput(what === 'create')
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
  progress: JobProgress,
  onJob: (job: Job) => void
): Promise<RunOutcome> {
  const { followUp, jobId } = progress
  if (progress.job && isFinal(progress.job.status) && !followUp) {
    return { ending: 'final', job: progress.job, jobId, followUp, requirePr: settings.requirePr }
  }
  if (!settings.wait && (settings.jobId === '' || followUp)) return { ending: 'created', ...soFar(progress) }
  const windowMs = noSignWindowMs(settings.pollIntervalMs)
  const result = await followJob(service, jobId, progress.job, {
    pollIntervalMs: settings.pollIntervalMs,
    deadline,
    onJob,
    onRetry: (problem, waitMs) => log.info(`${problem} ${tryingAgain(waitMs)}`),
    awaitWork: followUp ? { windowMs, onStale: (job) => log.info(staleLine(job, windowMs)) } : undefined
  })
  const known = { jobId, followUp }
  switch (result.outcome) {
    case 'final':
      return { ending: 'final', job: result.job, ...known, requirePr: settings.requirePr }
    case 'noSign':
      return {
        ending: 'noSign',
        job: result.job,
        ...known,
        waitedMs: result.waitedMs,
        answerStatus: result.answerStatus
      }
    case 'timeout':
      return {
        ending: 'timeout',
        job: progress.job,
        ...known,
        timeoutMs: settings.timeoutMs,
        lastProblem: result.lastProblem
      }
  }
}

/** How a run that threw ended: a cancel, or an error whose sentence says what happened and what to do. */
function failed(error: unknown, progress: JobProgress): RunOutcome {
  if (error instanceof CancelledError) return cancelledOutcome(progress)
  logStackForBugReport(error)
  return {
    ending: 'error',
    ...soFar(progress),
    reason: failureMessage(error),
    createdUnread: error instanceof ServiceError && error.kind === 'takenUnread',
    writeUncertain: error instanceof ServiceError && error.kind === 'uncertain',
    refused: error instanceof ServiceError && error.kind === 'refused'
  }
}

/** The job as the run knows it so far, without the run's own bookkeeping. */
function soFar({ job, jobId, followUp, newJobWay }: JobProgress): JobSoFar {
  return { job, jobId, followUp, newJobWay }
}

/** A cancel: with a write on its way, the job (or the message) may or may not be there. */
function cancelledOutcome(progress: JobProgress): RunOutcome {
  return { ending: 'cancelled', ...soFar(progress), writeInFlight: progress.writeInFlight }
}

/** Sets the outputs and says how the run ended: from the run, or from the forced exit after a cancel. */
function announce(outcome: RunOutcome): void {
  if (outcome.job) setJobOutputs(outcome.job)
  const { level, log: line } = describeEnding(outcome)
  log[level](line)
}
