import { decideRoute } from '../follow/decide-route.js'
import { routedGroup, type Route } from '../kernel/route.js'
import { describeSettings, readFirstInputs, readGitHubToken, readSettings } from '../inputs/settings.js'
import type { FirstInputs, Settings } from '../kernel/settings.js'
import { openGitHubSession, type GitHubSession } from '../github/session.js'
import { describeTimingInForce } from '../inputs/timing-notes.js'
import { checkProxyVariables } from '../net/proxy-settings.js'
import { preparePrompt, type Prepared } from '../prompt/assemble.js'
import type { RunOutcome } from '../ending/run-ending.js'
import { readCommentAsk, settleAsk, showCancelOnThread, type CommentAsk } from '../thread/comment-ask.js'
import { JobTracker } from '../follow/job-tracker.js'
import { sendAndFollow } from '../follow/send-and-follow.js'
import { tellEndingAtOnce, failedOutcome, tellEnding } from '../follow/tell-ending.js'
import { holdGroupRun, holdUnreadContext, showGroupOnCodePullRequest } from '../group/group-stage.js'
import type { GroupStatusComment } from '../group/group-status.js'
import { CANCEL_GRACE_MS, watchForCancel, type CancelWatch } from '../runtime/cancel.js'
import { startDeadline, type Deadline } from '../runtime/deadline.js'
import { log } from '../runtime/log.js'
import { JobService } from '../service/job-service.js'
import type { ModeStart } from './mode-start.js'

// The mode that follows one job (every run before there were modes): told in the order it happens,
// the comment that asked (if one did), the inputs, where the request goes, the prompt with its
// context, then the create (or the follow-up message) and the following. Each stage (in its feature's folder)
// returns a value the next ones take; the ending is told at once in one place (a cancel's forced exit
// shares it, once), then told in the summary, the reply and the note, with what the stages returned
// as far as the run got.

/** Sends the prompt where the request goes (or follows the job named) and tells the ending. */
export async function followOneJob(start: ModeStart): Promise<void> {
  // The job so far, kept by the send-and-follow stage: a cancel may need it before that stage returns.
  const tracker = new JobTracker()
  const tellOnce = onlyOnce(tellEndingAtOnce)
  const cancel = watchForCancel(() => tellOnce(tracker.cancelledOutcome()), CANCEL_GRACE_MS)
  // The one GitHub session of the run: every stage that reads or writes GitHub takes it.
  const github = openGitHubSession(readGitHubToken(), start.runner)
  const { outcome, ...reached } = await fromTheComment({ ...start, tracker, cancel, github })
  // A queued create is told once its record is written (or not): its words say whether it is kept.
  if (outcome.ending !== 'queued') tellOnce(outcome)
  const { writeStarted, delivered } = tracker
  const { route, settings, ask, prepared } = reached
  const group = route && routedGroup(route)
  const { runner } = start
  try {
    // Loaded now, after the create: the run's first request waits for neither (docs/benchmark.md).
    const [{ claimRecordsOfJob }, { handOverJob, markHandedOver }] = await Promise.all([
      import('../hand-over/settle-records.js'),
      import('../hand-over/hand-over.js')
    ])
    // Told under the same cancel handling as the rest of the run: a signal now must not kill the
    // step before the summary, the reply and the note are written. A job an earlier run handed over
    // has its records claimed first: a reporting run telling it meanwhile leaves the note instead.
    const settling = await claimRecordsOfJob(outcome, settings, delivered === 'create', { runner, github })
    const creates = route?.kind === 'create'
    const prompt = prepared?.sent ?? ''
    const handOver = { outcome, settings, ask, group, delivered, prompt, creates, runner, github }
    // A job not followed to its end is handed over: its record waits for a reporting run. It is left
    // before the ending is told, whose words promise the ending only once the record exists, and only
    // where a reporting run has recorded itself in the index.
    const handed = await handOverJob(handOver)
    const told = markHandedOver(handOver, handed?.reporterKnown ?? true, handed?.left)
    tellOnce(told)
    await tellEnding({
      ...reached,
      leaveNote: !settling.elsewhere,
      outcome: told,
      writeStarted,
      delivered,
      group,
      elapsedMs: Date.now() - start.startedAt,
      cancel,
      runner,
      github
    })
    // A job an earlier run handed over, followed to its end here: its records are told now, once.
    await settling.tell()
  } finally {
    cancel.stop()
  }
  await reached.service?.close()
}

/** The run's own: what the entry handed it, the tracker the send-and-follow stage keeps, the cancel watch. */
interface FollowRun extends ModeStart {
  tracker: JobTracker
  cancel: CancelWatch
  github: GitHubSession
}

/** What each stage returned, as far as the run got: the ending is told with it. */
interface Reached {
  ask: CommentAsk | null
  settings: Settings | null
  /** Absent in a dry run, and before the settings are read. */
  service: JobService | undefined
  route: Route | null
  groupStatus: GroupStatusComment | null
  prepared: Prepared | null
}

type Ended = Reached & { outcome: RunOutcome }

const NOTHING: Reached = {
  ask: null,
  settings: null,
  service: undefined,
  route: null,
  groupStatus: null,
  prepared: null
}

/**
 * A comment-triggered run takes its prompt from the comment, and answers on its thread (even to say
 * that the workflow's inputs are wrong), so the comment's settings and the token are read first.
 */
async function fromTheComment(run: FollowRun): Promise<Ended> {
  return orFailed(run, NOTHING, async () => {
    const first = readFirstInputs(run.runner, run.github.token)
    const ask = await readCommentAsk(first, run.runner, run.github, run.cancel.signal)
    if (ask && 'skipped' in ask) return skipped(run, NOTHING, ask.skipped)
    if (ask) showCancelOnThread(ask, () => run.tracker.cancelledOutcome(), run.cancel.signal, run.startedAt)
    return fromTheSettings(run, { ...NOTHING, ask }, first)
  })
}

/** The inputs, then where the request goes: a thread's job is read once before a message goes to it. */
async function fromTheSettings(run: FollowRun, reached: Reached, first: FirstInputs): Promise<Ended> {
  return orFailed(run, reached, async () => {
    const settings = readSettings(run.runner, first)
    log.debug(`Settings: ${describeSettings(settings)}`)
    log.info(describeTimingInForce({ ...settings, follows: settings.wait || settings.jobId !== '' }))
    checkProxyVariables(run.env)
    const service = settings.dryRun ? undefined : new JobService(settings)
    return orFailed(run, { ...reached, settings, service }, async () => {
      const deadline = startDeadline(run.startedAt + settings.timeoutMs, run.cancel.signal)
      // The reply records the job from now on; a label's request its thread already has sends nothing.
      const repeated = reached.ask && (await settleAsk(reached.ask, settings, run.github, deadline.signal))
      if (repeated) return skipped(run, { ...reached, settings, service }, repeated)
      // It may have ended, or its pull request closed.
      const readJob = service ? (jobId: string, signal: AbortSignal) => service.getJob(jobId, signal) : null
      const route = await decideRoute(settings, reached.ask, { ...run, signal: deadline.signal, readJob })
      run.cancel.signal.throwIfAborted()
      reached.ask?.replies.routed(route)
      return fromTheRoute(run, { ...reached, service, settings, route, deadline })
    })
  })
}

/** What the stages after the route take: the settings, the route and the deadline, decided. */
interface Routed extends Reached {
  settings: Settings
  route: Route
  deadline: Deadline
}

/**
 * A group's run with nothing to send (its changes sent already, its code pull request closed) or that
 * cannot tell what to send ends here, held; otherwise the prompt with its context, sent and followed.
 */
async function fromTheRoute(run: FollowRun, routed: Routed): Promise<Ended> {
  const { settings, route, deadline, ask } = routed
  return orFailed(run, routed, async () => {
    const held = (await holdGroupRun(route, deadline.signal, run)) ?? (await holdForHandedOverGroupJob(routed, run))
    if (held) return { ...routed, outcome: held }
    const shown = { ...routed, groupStatus: await showGroupOnCodePullRequest(route, settings, run) }
    return orFailed(run, shown, async () => {
      const instruction = ask?.instruction ?? null
      const prepared = await preparePrompt({
        settings,
        instruction,
        route,
        deadline,
        runner: run.runner,
        github: run.github
      })
      if ('skipped' in prepared) return skipped(run, shown, prepared.skipped)
      // A group's context that could not read the changes since the group's mark sends nothing rather than less.
      const unread = holdUnreadContext(route, prepared)
      if (unread) return { ...shown, prepared, outcome: unread }
      return fromThePrompt(run, { ...shown, prepared })
    })
  })
}

/** A group's run about to create beside the group's handed-over job still working is held; loaded for a group only. */
async function holdForHandedOverGroupJob(routed: Routed, run: FollowRun): Promise<RunOutcome | null> {
  if (!routedGroup(routed.route)) return null
  const { holdForHandedOverJob } = await import('../hand-over/group-handed-over.js')
  return holdForHandedOverJob(routed.route, routed, routed.deadline.signal, run)
}

/** The create (or the message) and the following: the send-and-follow stage. */
async function fromThePrompt(run: FollowRun, sending: Routed & { prepared: Prepared }): Promise<Ended> {
  const { tracker, cancel, startedAt } = run
  return orFailed(run, sending, async () => ({
    ...sending,
    outcome: await sendAndFollow({
      ...sending,
      tracker,
      cancelled: cancel.signal,
      startedAt,
      replies: sending.ask?.replies,
      github: run.github
    })
  }))
}

/** The stage's ending; when it throws, the failure's, told with what the stages before it returned. */
async function orFailed(run: FollowRun, reached: Reached, stage: () => Promise<Ended>): Promise<Ended> {
  try {
    return await stage()
  } catch (error) {
    return { ...reached, outcome: failedOutcome(error, run.tracker) }
  }
}

/** An event that starts no job, and why. */
function skipped(run: FollowRun, reached: Reached, reason: string): Ended {
  return { ...reached, outcome: { ending: 'skipped', reason, ...run.tracker.knownJob() } }
}

/** The function, called the first time only: the ending is told at once, once, by a cancel or by the run. */
function onlyOnce<T>(fn: (value: T) => void): (value: T) => void {
  let called = false
  return (value) => {
    if (called) return
    called = true
    fn(value)
  }
}
