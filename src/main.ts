import { readRunner } from './github/runner.js'
import { isReportingRun } from './inputs/report-settings.js'
import { maskSecrets } from './inputs/settings.js'
import { followOneJob } from './modes/follow-one-job.js'
import { assertNever } from './runtime/assert-never.js'
import { failureMessage } from './runtime/errors.js'
import { log } from './runtime/log.js'

// The run: the key masked before anything can print it, the runner's environment and event file read
// once (every stage takes that value), then the mode this run is. A mode is one
// small file in src/modes/ telling its story over the stages of the feature folders (as actions/cache's
// restoreOnly.ts over restoreImpl.ts): a new mode is a member of Mode, its case below, and its file.

/**
 * What a run does: `follow`, send the prompt where the request goes (or follow the job named) and tell
 * its ending; `report`, tell the endings of the jobs earlier runs handed over (`report: pending`).
 */
export type Mode = 'follow' | 'report'

export async function run(): Promise<void> {
  const startedAt = Date.now()
  maskSecrets()
  const start = { startedAt, runner: readRunner(process.env), env: process.env }
  let mode: Mode
  try {
    mode = chooseMode()
  } catch (error) {
    // A report value this action does not know: nothing it was not asked for is done.
    log.failed(failureMessage(error))
    return
  }
  switch (mode) {
    case 'follow':
      return followOneJob(start)
    case 'report':
      // Loaded only by a reporting run: a run that follows its job sends the create without it.
      return (await import('./modes/report-pending.js')).reportPending(start)
    default:
      return assertNever(mode, 'mode')
  }
}

/** The mode the inputs ask for: `report: pending` reports; any other run follows one job. */
function chooseMode(): Mode {
  return isReportingRun() ? 'report' : 'follow'
}
