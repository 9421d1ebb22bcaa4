// The last stage: how the run ended, said once (the outputs and the log line), then told where people
// look: the job summary, the reply on the thread (which also records the thread's job), and the note
// on the pull request the job opened.
import type { GroupRun } from '../kernel/group.js'
import type { GroupStatusComment } from '../group/group-status.js'
import { setJobOutputs } from '../ending/outputs.js'
import { describeEnding } from '../ending/run-ending.js'
import { writesSummary, type RunOutcome } from '../kernel/run-outcome.js'
import { wordFailedRequest } from '../ending/service-failure-words.js'
import type { Settings } from '../kernel/settings.js'
import type { Prepared } from '../prompt/assemble.js'
import type { CancelWatch } from '../runtime/cancel.js'
import { timeLimit } from '../runtime/deadline.js'
import { CancelledError, failureMessage, logStackForBugReport } from '../runtime/errors.js'
import { log } from '../runtime/log.js'
import { ServiceError } from '../service/service-error.js'
import type { CommentAsk } from '../thread/comment-ask.js'
import type { Runner } from '../github/runner.js'
import type { JobTracker } from './job-tracker.js'
import type { GitHubSession } from '../github/session.js'

/** Tells the ending at once, in the outputs and the log (the summary, the reply and the note come after: tellEnding): from the run, or from the forced exit after a cancel. */
export function tellEndingAtOnce(outcome: RunOutcome): void {
  if (outcome.job) setJobOutputs(outcome.job)
  const { level, log: line } = describeEnding(outcome)
  log[level](line)
}

/** How a run that threw ended: a cancel, or an error whose sentence says what happened and what to do. */
export function failedOutcome(error: unknown, tracker: JobTracker): RunOutcome {
  if (error instanceof CancelledError) return tracker.cancelledOutcome()
  const known = tracker.knownJob()
  if (!(error instanceof ServiceError)) {
    logStackForBugReport(error)
    return { ending: 'error', ...known, reason: failureMessage(error) }
  }
  const { reason, told } = wordFailedRequest(error, known)
  return { ending: 'error', ...known, reason, failure: error.kind, ...(told ? { told } : {}) }
}

/** What the ending is told with, however far the run got. */
export interface EndingTold {
  outcome: RunOutcome
  /** False when another run (a reporting run telling the same job) leaves the note on the agent's pull request. */
  leaveNote?: boolean
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
  /** The run's cancel watch: the ending is told under it, within what its grace has left. */
  cancel: Pick<CancelWatch, 'signal' | 'graceLeftMs'>
  runner: Runner
  /** The run's one GitHub session (github/session.ts). */
  github: GitHubSession
}

/**
 * The ending, told where people look: the job summary (for every ending but a skip, an event that
 * starts nothing: a run that failed before any job existed says so there too), the thread's reply,
 * and the note on a pull request the job opened.
 * Every GitHub call of it shares one bound, side by
 * side (ending-bound.ts); a cancel meanwhile gives up the pull request's details, and the rest is
 * still written. None fails the step.
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
  cancel,
  runner,
  github,
  leaveNote
}: EndingTold): Promise<void> {
  // Loaded once the run has ended: the create waits for none of what tells its ending.
  const [
    { leaveAgentNote },
    { groupNoteOf, groupShown },
    { recordGroupRun, groupNotePart },
    { agentPullRequestShown, opensPullRequest },
    { ENDING_DETAILS_MS, startEndingBound },
    { writeSummary }
  ] = await Promise.all([
    import('../thread/agent-note.js'),
    import('../ending/group-shown.js'),
    import('../group/group-record.js'),
    import('../ending/agent-pull-request-shown.js'),
    import('../github/ending-bound.js'),
    import('../ending/summary.js')
  ])
  const bound = startEndingBound(cancel.graceLeftMs(), !!ask || opensPullRequest(outcome))
  // What the agent did, as GitHub shows its pull request: one read, for the summary and the reply,
  // within half the bound so that they have the rest. Held for the whole read (see timeLimit).
  const detailsLimit = timeLimit(ENDING_DETAILS_MS, bound.signal, cancel.signal)
  try {
    const pullRequest = agentPullRequestShown(outcome, github, detailsLimit.signal)
    // A job the group's run created makes its pull request the group's, with the mark in the note;
    // then the group's mark, label and code pull request comment (group/group-record.ts).
    const shown = groupNoteOf(group, delivered)
    const groupNote = shown && groupNotePart(shown)
    const comment = ask?.comment ?? null
    const noted =
      leaveNote === false
        ? Promise.resolve()
        : leaveAgentNote({ outcome, settings, comment, signal: bound.signal, runner, github, group: groupNote })
    const note = noted.then(
      () =>
        group &&
        settings &&
        recordGroupRun({ outcome, group, delivered, settings, statusComment: groupStatus }, bound.signal, {
          runner,
          github
        })
    )
    const reply = ask?.replies.finish(outcome, elapsedMs, pullRequest, bound.signal)
    const summary =
      writesSummary(outcome) &&
      pullRequest.then((shown) =>
        writeSummary({
          outcome,
          prompt: prepared?.prompt ?? ask?.instruction.text ?? '',
          context: prepared?.context ?? '',
          leaving: prepared?.leaving && { ...prepared.leaving, wasSent: writeStarted },
          elapsedMs,
          pullRequest: shown,
          group: group && groupShown(group, outcome, delivered, runner)
        })
      )
    await Promise.all([summary, reply, note])
  } finally {
    detailsLimit.clear()
    bound.clear()
  }
}
