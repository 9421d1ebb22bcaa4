// The last stage: how the run ended, said once (the outputs and the log line), then told where people
// look: the job summary, the reply on the thread, the note on the pull request the job opened, and
// the note on the thread that asked (when its request made the job).
import { leaveAgentNote } from '../report/agent-note.js'
import type { GroupRun } from '../comment/group-job.js'
import { recordGroupRun, type GroupStatusComment } from '../report/group-record.js'
import { leaveThreadNote } from '../report/thread-note.js'
import { agentPullRequestShown } from '../report/agent-pull-request-shown.js'
import { setJobOutputs } from '../report/outputs.js'
import { describeEnding, type RunOutcome } from '../report/run-ending.js'
import { writeSummary } from '../report/summary.js'
import type { Settings } from '../inputs/settings.js'
import type { Prepared } from '../prompt/assemble.js'
import { CancelledError, failureMessage, logStackForBugReport } from '../runtime/errors.js'
import { log } from '../runtime/log.js'
import { ServiceError } from '../service/service-error.js'
import type { CommentAsk } from './comment-ask.js'
import type { JobTracker } from './job-tracker.js'

/** Sets the outputs and says how the run ended: from the run, or from the forced exit after a cancel. */
export function announceEnding(outcome: RunOutcome): void {
  if (outcome.job) setJobOutputs(outcome.job)
  const { level, log: line } = describeEnding(outcome)
  log[level](line)
}

/** How a run that threw ended: a cancel, or an error whose sentence says what happened and what to do. */
export function failedOutcome(error: unknown, tracker: JobTracker): RunOutcome {
  if (error instanceof CancelledError) return tracker.cancelledOutcome()
  logStackForBugReport(error)
  const failure = error instanceof ServiceError ? error.kind : undefined
  return { ending: 'error', ...tracker.soFar(), reason: failureMessage(error), failure }
}

/** What the ending is told with, however far the run got. */
export interface EndingTold {
  outcome: RunOutcome
  ask: CommentAsk | null
  settings: Settings | null
  prepared: Prepared | null
  /** A create or a message started to go out: the summary says whether the prompt was sent. */
  writeStarted: boolean
  /** What the service took from the run: a create's pull request becomes a group's, a message moves its mark. */
  delivered?: 'create' | 'message'
  /** The run's group, when its route carries one, and its comment on the code pull request if there is one. */
  group: GroupRun | null
  groupStatus: GroupStatusComment | null
  elapsedMs: number
  cancelled: AbortSignal
}

/**
 * The ending, told where people look: the job summary (for every ending but a skip, an event that
 * starts nothing: a run that failed before any job existed says so there too), the thread's reply,
 * and the note on a pull request the job opened. Each is bounded; none fails the step.
 */
export async function tellEnding({
  outcome,
  ask,
  settings,
  prepared,
  writeStarted,
  delivered,
  group,
  groupStatus,
  elapsedMs,
  cancelled
}: EndingTold): Promise<void> {
  // What the agent did, as GitHub shows its pull request: one bounded read, for the summary and the reply.
  const pullRequest = await agentPullRequestShown(outcome, settings?.githubToken ?? '', cancelled)
  if (outcome.ending !== 'skipped') {
    const leaving = prepared?.leaving && { ...prepared.leaving, wasSent: writeStarted }
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
    group && delivered === 'create' && group.lookup.kind !== 'unreadable'
      ? { name: group.settings.name, mark: group.mark }
      : undefined
  await Promise.all([
    ask?.replies.finish(outcome, elapsedMs, pullRequest),
    leaveAgentNote(outcome, settings, ask?.comment ?? null, cancelled, process.env, groupNote).then(
      () => group && settings && recordGroupRun(outcome, group, delivered, settings, cancelled, groupStatus)
    ),
    leaveThreadNote(outcome, settings, ask?.comment ?? null, cancelled)
  ])
}
