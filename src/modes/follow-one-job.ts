import { decideRoute, routedGroup, type Route } from '../comment/route.js'
import { describeSettings, readFirstInputs, readSettings, type Settings } from '../inputs/settings.js'
import { describeTimingInForce } from '../inputs/timing-notes.js'
import { checkProxyVariables } from '../net/proxy-settings.js'
import { preparePrompt, type Prepared } from '../prompt/assemble.js'
import type { RunOutcome } from '../report/run-ending.js'
import { readCommentAsk, showCancelOnThread, type CommentAsk } from '../run/comment-ask.js'
import { JobTracker } from '../run/job-tracker.js'
import { sendAndFollow } from '../run/send-and-follow.js'
import { handOverJob } from '../run/hand-over.js'
import { claimRecordsOfJob } from '../run/settle-records.js'
import { announceEnding, failedOutcome, tellEnding } from '../run/tell-ending.js'
import { showGroupOnCodePullRequest, tellCodeClosed } from '../run/group-stage.js'
import type { GroupStatusComment } from '../report/group-record.js'
import { CANCEL_GRACE_MS, watchForCancel } from '../runtime/cancel.js'
import { startDeadline } from '../runtime/deadline.js'
import { log } from '../runtime/log.js'
import { JobService } from '../service/job-service.js'
import type { ModeStart } from './mode-start.js'

// The mode that follows one job (every run before there were modes): told in the order it happens,
// the comment that asked (if one did), the inputs, where the request goes, the prompt with its
// context, then the create (or the follow-up message) and the following. Each stage (src/run/)
// returns a value the next ones take; the ending is announced in one place (a cancel's forced exit
// shares it, once), then told in the summary, the reply and the note.

/** Sends the prompt where the request goes (or follows the job named) and tells the ending. */
export async function followOneJob({ startedAt, runner, env }: ModeStart): Promise<void> {
  // The job so far, kept by the send-and-follow stage: a cancel may need it before that stage returns.
  const tracker = new JobTracker()
  const announceOnce = onlyOnce(announceEnding)
  const cancel = watchForCancel(() => announceOnce(tracker.cancelledOutcome()), CANCEL_GRACE_MS)
  // What the ending is told with, each set once by its stage, however far the run got.
  let ask: CommentAsk | null = null
  let settings: Settings | null = null
  let prepared: Prepared | null = null
  let service: JobService | undefined
  let route: Route | null = null
  let groupStatus: GroupStatusComment | null = null

  const runToEnding = async (): Promise<RunOutcome> => {
    // A comment-triggered run takes its prompt from the comment, and answers on its thread (even
    // to say that the workflow's inputs are wrong), so the comment's settings and the token are read first.
    const first = readFirstInputs(runner)
    const asked = await readCommentAsk(first, runner, cancel.signal)
    if (asked && 'skipped' in asked) return { ending: 'skipped', reason: asked.skipped, ...tracker.knownJob() }
    if ((ask = asked)) showCancelOnThread(ask, () => tracker.cancelledOutcome(), cancel.signal, startedAt)
    settings = readSettings(runner, first)
    log.debug(`Settings: ${describeSettings(settings)}`)
    log.info(describeTimingInForce({ ...settings, follows: settings.wait || settings.jobId !== '' }))
    checkProxyVariables(env)
    const deadline = startDeadline(startedAt + settings.timeoutMs, cancel.signal)
    service = settings.dryRun ? undefined : new JobService(settings)
    // A thread's job is read once before a message goes to it: it may have ended, or its pull request closed.
    const reader = service
    const readJob = reader ? (jobId: string, signal: AbortSignal) => reader.getJob(jobId, signal) : null
    route = await decideRoute(settings, ask, { runner, signal: deadline.signal, readJob })
    cancel.signal.throwIfAborted()
    // A group's code pull request closed: its docs pull request is told, and nothing is sent.
    const closed = await tellCodeClosed(route, settings, deadline.signal, runner)
    if (closed) return { ending: 'skipped', reason: closed, ...tracker.knownJob() }
    groupStatus = showGroupOnCodePullRequest(route, settings, runner)
    const instruction = ask?.instruction ?? null
    const made = await preparePrompt({ settings, instruction, route, deadline, runner })
    if ('skipped' in made) return { ending: 'skipped', reason: made.skipped, ...tracker.knownJob() }
    prepared = made
    const replies = ask?.replies
    return sendAndFollow({
      service,
      settings,
      route,
      prepared,
      deadline,
      cancelled: cancel.signal,
      tracker,
      startedAt,
      replies
    })
  }

  let outcome: RunOutcome
  try {
    outcome = await runToEnding()
  } catch (error) {
    outcome = failedOutcome(error, tracker)
  }
  announceOnce(outcome)
  const { writeStarted, delivered } = tracker
  const elapsedMs = Date.now() - startedAt
  // Set inside runToEnding: the compiler does not see it there.
  const routed = route as Route | null
  const group = routed && routedGroup(routed)
  try {
    // Told under the same cancel handling as the rest of the run: a signal now must not kill the
    // step before the summary, the reply and the note are written. A job an earlier run handed over
    // has its records claimed first: a reporting run telling it meanwhile leaves the note instead.
    const settling = await claimRecordsOfJob(outcome, settings, delivered === 'create', runner)
    await tellEnding({
      leaveNote: !settling.elsewhere,
      outcome,
      ask,
      settings,
      prepared,
      writeStarted,
      delivered,
      group,
      groupStatus,
      elapsedMs,
      cancel,
      runner
    })
    // A job not followed to its end is handed over: its record waits for a reporting run.
    const sent = (prepared as Prepared | null)?.sent ?? ''
    const creates = routed?.kind === 'create'
    await handOverJob({ outcome, settings, ask, group, delivered, prompt: sent, creates, runner })
    // A job an earlier run handed over, followed to its end here: its records are told now, once.
    await settling.tell()
  } finally {
    cancel.stop()
  }
  await (service as JobService | undefined)?.close()
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
