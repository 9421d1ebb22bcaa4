// How long a run of the bundle may take beyond the time it was given. Only the tests of "the step
// ends within its timeout" (or its cancel grace) measure a real process: everything else in the suite
// is told by the requests the stand-ins received, their order and count, and the action's own words.
//
// Where a request reached a stand-in, the time is measured from it to the exit: the step's clock had
// started by then, so the bound is the timeout itself plus the run's own work after its last wait
// (writing outputs and the summary, exiting; tens of milliseconds on an idle 2-core machine), with room
// for a machine many times slower and for the test worker's delay in seeing the exit. Node's start-up
// (about 0.3 s of CPU, and what a busy machine stretches most) is then left out, as the timeout leaves
// it out. Runs that send nothing are measured from their start, within the same allowance. The defects
// these bounds catch (a wait not cut to the deadline, a request without a limit) cost tens of seconds.
import type { ActionRun } from './run-action.js'

export const RUN_OVERHEAD_MS = 2500

/** The longest a run given `timeoutMs` may take while it keeps its promise (see above). */
export function withinTimeout(timeoutMs: number): number {
  return timeoutMs + RUN_OVERHEAD_MS
}

/** How long the run went on after the first request a stand-in received (its `at`). */
export function msAfter(first: { at: number } | undefined, run: ActionRun): number {
  if (!first) throw new Error('The stand-in received no request, so the run cannot be timed from one.')
  return run.endedAt - first.at
}
