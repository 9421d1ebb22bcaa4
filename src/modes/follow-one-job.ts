import { decideRoute } from '../follow/decide-route.js'
import { routedGroup, type Route } from '../kernel/route.js'
import { describeSettings, readFirstInputs, readGitHubToken, readSettings } from '../inputs/settings.js'
import type { FirstInputs, Settings } from '../kernel/settings.js'
import { openGitHubSession, type GitHubSession } from '../github/session.js'
import { describeTimingInForce } from '../inputs/timing-notes.js'
import { checkProxyVariables } from '../net/proxy-settings.js'
import { preparePrompt, type Prepared } from '../prompt/assemble.js'
import type { GatherSinceMark } from '../context/change-context.js'
import type { RunOutcome } from '../kernel/run-outcome.js'
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

// The mode that follows one job (every run before there were modes), told in the order it happens:
// the comment that asked (if one did), the inputs, where the request goes, the prompt with its
// context, then the create (or the follow-up message) and the following; then the hand-over of a job
// not followed to its end, and the ending. Each step is a call into its feature's room; a step that
// ends the run returns its ending at once, with what the steps before it returned (Reached), which
// the ending is told with; one that throws ends the run with its failure. The ending is told at once
// in one place (a cancel's forced exit shares it, once), then in the summary, the reply and the note.

/** Sends the prompt where the request goes (or follows the job named) and tells the ending. */
export async function followOneJob(start: ModeStart): Promise<void> {
  // The job so far, kept by the send-and-follow step: a cancel may need it before that step returns.
  const tracker = new JobTracker()
  const tellOnce = onlyOnce(tellEndingAtOnce)
  const cancel = watchForCancel(() => tellOnce(tracker.cancelledOutcome()), CANCEL_GRACE_MS)
  // The one GitHub session of the run: every step that reads or writes GitHub takes it.
  const github = openGitHubSession(readGitHubToken(), start.runner)
  const run: FollowRun = { ...start, tracker, cancel, github }
  const { outcome, ...reached } = await followTheRequest(run)
  // A queued create is told once its record is written (or not): its words say whether it is kept.
  if (outcome.ending !== 'queued') tellOnce(outcome)
  try {
    // Told under the same cancel handling as the rest of the run: a signal now must not kill the
    // step before the summary, the reply and the note are written.
    await endTheRun(run, reached, outcome, tellOnce)
  } finally {
    cancel.stop()
  }
  await reached.service?.close()
}

/** The run's own: what the entry handed it, the tracker the send-and-follow step keeps, the cancel watch. */
interface FollowRun extends ModeStart {
  tracker: JobTracker
  cancel: CancelWatch
  github: GitHubSession
}

/** What each step returned, as far as the run got: the ending is told with it. */
interface Reached {
  ask: CommentAsk | null
  settings: Settings | null
  /** Absent in a dry run, and before the settings are read. */
  service: JobService | undefined
  route: Route | null
  groupStatus: GroupStatusComment | null
  prepared: Prepared | null
}

/** How the steps ended: the ending, and what they returned before it. */
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
 * The steps up to the run's ending, in order; the first that ends the run returns its ending, with
 * what the steps before it returned (`reached`), and one that throws ends it with its failure. A
 * comment-triggered run takes its prompt from the comment and answers on its thread (even to say that
 * the workflow's inputs are wrong), so the comment's settings and the token are read before the rest.
 */
async function followTheRequest(run: FollowRun): Promise<Ended> {
  const { runner, github, cancel, tracker } = run
  let reached = NOTHING
  const ended = (outcome: RunOutcome): Ended => ({ ...reached, outcome })
  try {
    const first = readFirstInputs(runner, github.token)
    const ask = await readCommentAsk(first, runner, github, cancel.signal)
    if (ask && 'skipped' in ask) return ended(skipped(run, ask.skipped))
    if (ask) showCancelOnThread(ask, () => tracker.cancelledOutcome(), cancel.signal, run.startedAt)
    reached = { ...reached, ask }

    const settings = readTheSettings(run, first)
    const service = settings.dryRun ? undefined : new JobService(settings)
    reached = { ...reached, settings, service }
    const deadline = startDeadline(run.startedAt + settings.timeoutMs, cancel.signal)
    // The reply records the job from now on; a label's request its thread already has sends nothing.
    const repeated = ask && (await settleAsk(ask, settings, github, deadline.signal))
    if (repeated) return ended(skipped(run, repeated))

    const route = await routeTheRequest(run, ask, { settings, service, deadline })
    reached = { ...reached, route }
    // A group's run with nothing to send (its changes sent already, its code pull request closed), or
    // that cannot tell what to send, ends here, held.
    const held =
      (await holdGroupRun(route, deadline.signal, run)) ??
      (await holdForHandedOverGroupJob(run, route, { settings, service }, deadline))
    if (held) return ended(held)
    reached = { ...reached, groupStatus: await showGroupOnCodePullRequest(route, settings, run) }

    const instruction = ask?.instruction ?? null
    const prepared = await preparePrompt({ settings, instruction, route, deadline, runner, github, gatherSinceMark })
    if ('skipped' in prepared) return ended(skipped(run, prepared.skipped))
    // A group's context that could not read the changes since the group's mark sends nothing rather than less.
    const unread = holdUnreadContext(route, prepared)
    reached = { ...reached, prepared }
    if (unread) return ended(unread)

    const { startedAt } = run
    const replies = ask?.replies
    const sending = { service, settings, route, prepared, deadline, tracker, startedAt, replies, github }
    return ended(await sendAndFollow({ ...sending, cancelled: cancel.signal }))
  } catch (error) {
    return ended(failedOutcome(error, tracker))
  }
}

/** The settings, read once and checked, with what the log says of them, and the proxy variables checked. */
function readTheSettings(run: FollowRun, first: FirstInputs): Settings {
  const settings = readSettings(run.runner, first)
  log.debug(`Settings: ${describeSettings(settings)}`)
  log.info(describeTimingInForce({ ...settings, follows: settings.wait || settings.jobId !== '' }))
  checkProxyVariables(run.env)
  return settings
}

/**
 * Where the request goes, decided once, and the reply told: a thread's job is read once before a
 * message goes to it (it may have ended, or its pull request closed).
 */
async function routeTheRequest(
  run: FollowRun,
  ask: CommentAsk | null,
  { settings, service, deadline }: { settings: Settings; service: JobService | undefined; deadline: Deadline }
): Promise<Route> {
  const readJob = service ? (jobId: string, signal: AbortSignal) => service.getJob(jobId, signal) : null
  const route = await decideRoute(settings, ask, { ...run, signal: deadline.signal, readJob })
  run.cancel.signal.throwIfAborted()
  ask?.replies.routed(route)
  return route
}

/** A group's run about to create beside the group's handed-over job still working is held; loaded for a group only. */
async function holdForHandedOverGroupJob(
  run: FollowRun,
  route: Route,
  inputs: { settings: Settings; service: JobService | undefined },
  deadline: Deadline
): Promise<RunOutcome | null> {
  if (!routedGroup(route)) return null
  const { holdForHandedOverJob } = await import('../hand-over/group-handed-over.js')
  return holdForHandedOverJob(route, inputs, deadline.signal, run)
}

/**
 * After the steps: a job an earlier run handed over has its records claimed first (a reporting run
 * telling it meanwhile leaves the note instead); a job not followed to its end is handed over; the
 * ending is told at once, then where people look; and the earlier run's records of a job followed to
 * its end here are told.
 */
async function endTheRun(
  run: FollowRun,
  reached: Reached,
  outcome: RunOutcome,
  tellOnce: (outcome: RunOutcome) => void
): Promise<void> {
  const { runner, github, cancel, tracker } = run
  const { writeStarted, delivered } = tracker
  const { route, settings, ask, prepared } = reached
  const group = route && routedGroup(route)
  // Loaded now, after the create: the run's first request waits for neither (docs/benchmark.md).
  const [{ claimRecordsOfJob }, { handOverJob, markHandedOver }] = await Promise.all([
    import('../hand-over/settle-records.js'),
    import('../hand-over/hand-over.js')
  ])
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
    elapsedMs: Date.now() - run.startedAt,
    cancel,
    runner,
    github
  })
  // A job an earlier run handed over, followed to its end here: its records are told now, once.
  await settling.tell()
}

/** The group's gatherer of the changes since its mark (group/since-mark.ts), loaded only when a context is gathered. */
const gatherSinceMark: GatherSinceMark = async (gathering, eventLine) =>
  (await import('../group/since-mark.js')).gatherSinceMark(gathering, eventLine)

/** An event that starts no job, and why. */
function skipped(run: FollowRun, reason: string): RunOutcome {
  return { ending: 'skipped', reason, ...run.tracker.knownJob() }
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
