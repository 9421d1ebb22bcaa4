// The stage that talks to the service: sends the prompt where the route says (a create, or a
// follow-up message; a dry run sends nothing) and follows the job to its ending.
import { followsWhateverWait, messageSource, routedGroup, routedJobId, type Route } from '../kernel/route.js'
import { Input } from '../kernel/action-names.js'
import type { Settings } from '../kernel/settings.js'
import type { Prepared } from '../prompt/assemble.js'
import { showDryRun } from '../prompt/what-leaves.js'
import type { ThreadReply } from '../thread/comment-reply.js'
import { setDryRunOutputs, setJobCreatedOutput, setJobIdOutput, setQueuedOutputs } from '../ending/outputs.js'
import { staleLine } from '../ending/message-words.js'
import type { NewJobWay, RunOutcome } from '../kernel/run-outcome.js'
import { wordRetry, wordServiceFailure } from '../ending/service-failure-words.js'
import { wordCreated, wordGroupSend, wordMessageSent } from '../ending/send-words.js'
import { statusLogger } from '../ending/status-log.js'
import type { Deadline } from '../runtime/deadline.js'
import { log } from '../runtime/log.js'
import { isFinal, type Job } from '../service/job-record.js'
import type { JobService, WriteHooks } from '../service/job-service.js'
import { ServiceError, type GivingUp } from '../service/service-error.js'
import { gitHubIsSilent } from '../github/silence.js'
import { noSignWindowMs } from '../service/service-policy.js'
import { assertNever } from '../runtime/assert-never.js'
import type { JobTracker } from './job-tracker.js'
import type { GitHubSession } from '../github/session.js'

/** What the stage takes: the earlier stages' values, and the tracker it keeps up to date. */
export interface SendAndFollow {
  /** Absent in a dry run. */
  service: JobService | undefined
  settings: Settings
  route: Route
  prepared: Prepared
  deadline: Deadline
  cancelled: AbortSignal
  tracker: JobTracker
  startedAt: number
  replies: ThreadReply | undefined
  /** The run's GitHub session: a group's docs pull request is read again after a wait (without it, taken as open). */
  github?: Pick<GitHubSession, 'token' | 'reader'>
}

/**
 * Sends the prompt (unless it is a dry run: then the exact prompt is shown, and nothing is sent) and
 * follows the job; the outcome is what the following saw.
 */
export async function sendAndFollow(stage: SendAndFollow): Promise<RunOutcome> {
  const { service, settings, route, prepared, cancelled, tracker, startedAt, replies } = stage
  const group = routedGroup(route)
  if (settings.dryRun || !service) {
    setDryRunOutputs()
    showDryRun(prepared.leaving)
    if (group) log.info(wordGroupSend(group, true))
    return { ending: 'dry-run', job: null, jobId: routedJobId(route), followUp: messageSource(route) !== null }
  }
  tracker.newJobWay = newJobWayOf(route)
  const logStatus = statusLogger(startedAt)
  const onJob = (job: Job): void => {
    tracker.job = job
    tracker.jobId = job.id
    logStatus(job)
    replies?.progress(tracker.knownJob())
  }
  const sent = await sendPrompt(service, stage, onJob)
  if (typeof sent === 'object') {
    setQueuedOutputs()
    return { ending: 'queued', job: null, jobId: '', notBefore: sent.notBefore, wait: settings.wait }
  }
  if (sent === 'waited-out' && group) {
    const hold = {
      why: 'waited-out' as const,
      group: group.settings.name,
      mark: group.mark,
      timeoutMs: settings.timeoutMs
    }
    return { ending: 'held', hold, ...tracker.knownJob() }
  }
  cancelled.throwIfAborted()
  const outcome = await followToTheEnd(service, stage, onJob)
  cancelled.throwIfAborted()
  return outcome
}

/**
 * A new job is created; an existing one with a prompt gets it as a follow-up message. Each is sent
 * once, whatever happens (see JobService.write); never a new job instead, but for a group's job that
 * takes no message (see sendToGroupJob): then the service surely took nothing, and the group gets a
 * new job. A group's job still busy when the timeout runs out gets nothing: 'waited-out'.
 */
async function sendPrompt(
  service: JobService,
  stage: SendAndFollow,
  onJob: (job: Job) => void
): Promise<'sent' | 'waited-out' | Queued> {
  const { settings, route, prepared, deadline, tracker } = stage
  const hooks: WriteHooks = {
    onRetry: (failure, waitMs, tries) => log.warning(wordRetry(failure, waitMs, tries)),
    onTakenUnread: (failure) => log.warning(wordServiceFailure(failure)),
    onSending: (inFlight: boolean) => {
      tracker.writeInFlight = inFlight
      tracker.writeStarted ||= inFlight
    }
  }
  const create = async (writeHooks: WriteHooks = hooks): Promise<'sent'> => {
    const job = await service.createJob(prepared.sent, deadline, writeHooks)
    deliver(tracker, 'create')
    log.info(wordCreated(job.id, settings.projectId))
    onJob(job)
    return 'sent'
  }
  switch (route.kind) {
    case 'create':
      return createOrQueue(create, { ...stage, hooks })
    case 'follow':
      setJobIdOutput((tracker.jobId = route.jobId))
      return 'sent'
    case 'message':
      switch (route.via) {
        case 'group':
          return sendToGroup(service, stage, route, { hooks, onJob, create })
        case 'input':
        case 'note':
        case 'thread':
        case 'status':
          break
        default:
          return assertNever(route, 'message route')
      }
      setJobIdOutput((tracker.jobId = route.jobId))
      tracker.followUp = true
      await sendMessage(service, stage, { jobId: route.jobId, hooks, onJob })
      return 'sent'
    default:
      return assertNever(route, 'route')
  }
}

/** A create the rate limit refused, queued for a reporting run: when the service allows it again. */
interface Queued {
  notBefore: string | null
}

/**
 * The route's create; one the rate limit refused is kept for a reporting run (queued, hand-over/hand-over.ts)
 * when this run can hand it over (a token to write the record with, GitHub answering, and a prompt
 * the record can keep): at once with wait false, so the runner is not held through the service's
 * wait; with wait true once no try or no time is left for it, rather than lose it.
 */
async function createOrQueue(
  create: (hooks: WriteHooks) => Promise<'sent'>,
  { settings, prepared, hooks }: Pick<SendAndFollow, 'settings' | 'prepared'> & { hooks: WriteHooks }
): Promise<'sent' | Queued> {
  // A prompt too long to keep is tried as a held run tries it, and its ending says why it was not queued.
  let unkept: Extract<GivingUp, { by: 'tooLongToQueue' }> | null = null
  const keepForLater = async (_failure: ServiceError, outOfTime: boolean): Promise<boolean> => {
    if (!settings.githubToken || gitHubIsSilent() || (settings.wait && !outOfTime)) return false
    // Loaded on a 429 only: the create waits for none of it.
    const { packPrompt, MAX_PROMPT_PARTS, PART_CHARS } = await import('../hand-over/queued-prompt.js')
    const packed = packPrompt(prepared.sent)
    if (!('tooLong' in packed)) return true
    unkept = {
      by: 'tooLongToQueue',
      compressedChars: packed.tooLong.compressedChars,
      most: MAX_PROMPT_PARTS * PART_CHARS
    }
    return false
  }
  try {
    return await create({ ...hooks, keepForLater })
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error
    if (unkept && error.problem.what === 'rateLimited') throw error.givingUp(unkept, error.kind)
    if (error.givenUp?.by !== 'keptForLater') throw error
    const { retryAfterMs } = error
    return { notBefore: retryAfterMs === null ? null : new Date(Date.now() + retryAfterMs).toISOString() }
  }
}

/** A follow-up message to the job the route names: sent once (see JobService.write). */
async function sendMessage(
  service: JobService,
  { prepared, deadline, tracker }: SendAndFollow,
  { jobId, hooks, onJob }: { jobId: string; hooks: WriteHooks; onJob: (job: Job) => void }
): Promise<void> {
  const job = await service.sendMessage(jobId, prepared.sent, deadline, hooks)
  deliver(tracker, 'message')
  log.info(wordMessageSent(jobId))
  if (job) onJob(job)
}

/** A message to the group's job, or a new job for the group when that one takes none (see sendToGroupJob). */
async function sendToGroup(
  service: JobService,
  { prepared, deadline, tracker, github, settings }: SendAndFollow,
  { group, jobId, found }: Extract<Route, { via: 'group' }>,
  { hooks, onJob, create }: { hooks: WriteHooks; onJob: (job: Job) => void; create: () => Promise<'sent'> }
): Promise<'sent' | 'waited-out'> {
  // A group's code, and the read of its pull request, load for a group's run only.
  const [{ readPullRequestDetails }, { sendToGroupJob }] = await Promise.all([
    import('../github/pull-request-details.js'),
    import('../group/group-send.js')
  ])
  const result = await sendToGroupJob(service, jobId, prepared.sent, {
    pollIntervalMs: settings.pollIntervalMs,
    deadline,
    hooks,
    onJob,
    onRetry: (failure, waitMs) => log.info(wordRetry(failure, waitMs)),
    onBusy: () => log.info(wordGroupSend(group, false, 'busy')),
    // Merged (or closed) while its job worked: the message would go to a job whose pull request is done.
    docsState: async () => {
      if (!github) return 'open'
      const details = await readPullRequestDetails(found.pr, github, deadline.signal, { tokenInput: Input.githubToken })
      return details?.state === 'merged' || details?.state === 'closed' ? details.state : 'open'
    }
  })
  if (result.kind === 'waited-out') return 'waited-out'
  if (result.kind === 'create') {
    log.info(wordGroupSend(group, false, result.why))
    return create()
  }
  setJobIdOutput((tracker.jobId = jobId))
  tracker.followUp = true
  deliver(tracker, 'message')
  log.info(wordMessageSent(jobId, group.settings.name))
  if (result.job) onJob(result.job)
  return 'sent'
}

/** After a refused message, the way to a new job: a comment where the commenter gave no jobId. */
function newJobWayOf(route: Route): NewJobWay | undefined {
  if (route.kind !== 'message') return undefined
  switch (route.via) {
    case 'note':
    case 'thread':
    case 'status':
      return { by: 'comment', trigger: route.trigger }
    case 'input':
    case 'group':
      return undefined
    default:
      return assertNever(route, 'message route')
  }
}

/** The service took the create or the message: the jobCreated output says which. */
function deliver(tracker: JobTracker, what: 'create' | 'message'): void {
  tracker.delivered = what
  setJobCreatedOutput(what === 'create')
}

/**
 * Follows the job to a final status, or not: a job the create answered as final needs no following
 * (after a message, a final status may be the one from before it). An existing job given no prompt
 * is always followed; a job just created or sent a message, unless wait is false.
 */
async function followToTheEnd(
  service: JobService,
  { settings, route, deadline, tracker }: SendAndFollow,
  onJob: (job: Job) => void
): Promise<RunOutcome> {
  const { followUp, jobId } = tracker
  if (tracker.job && isFinal(tracker.job.status) && !followUp) {
    return { ending: 'final', job: tracker.job, jobId, followUp, requirePr: settings.requirePr }
  }
  if (!settings.wait && !followsWhateverWait(route)) return { ending: 'created', ...tracker.knownJob() }
  const windowMs = noSignWindowMs(settings.pollIntervalMs)
  // Loaded after the create or the message, which waits for none of the following.
  const { followJob } = await import('../service/follow-job.js')
  const result = await followJob(service, jobId, tracker.job, {
    pollIntervalMs: settings.pollIntervalMs,
    deadline,
    onJob,
    onRetry: (failure, waitMs) => log.info(wordRetry(failure, waitMs)),
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
        job: tracker.job,
        ...known,
        timeoutMs: settings.timeoutMs,
        lastProblem: result.lastProblem
      }
  }
}
