import { log } from './log.js'
import { neutralise } from '../safety/neutralise.js'

/**
 * An error whose message is already a sentence for the person reading the log: what happened and
 * what to do. Anything else that reaches the top is a bug, and is reported as one.
 */
export class ActionError extends Error {
  override name = 'ActionError'
}

/** The run was cancelled (SIGINT or SIGTERM from the runner). */
export class CancelledError extends Error {
  override name = 'CancelledError'
  constructor(readonly signal: string) {
    super(`The run was cancelled (${signal}).`)
  }
}

/** The step's `timeout` ran out. */
export class DeadlineError extends Error {
  override name = 'DeadlineError'
  constructor() {
    super('The timeout ran out.')
  }
}

/** A sentence for the log, never a stack trace; an error that is not ours is reported as a bug. */
export function failureMessage(error: unknown): string {
  if (error instanceof ActionError) return error.message
  // Not our words: whatever the error carries from outside is shown neutralised.
  const message = neutralise(error instanceof Error ? error.message : String(error), 300)
  return `The action failed unexpectedly: ${message}. Please report this, with the step's log, as an issue on the action's repository.`
}

/** A bug's stack, at debug level: a user who reports one can rerun with debug logging and attach it. */
export function logStackForBugReport(error: unknown): void {
  if (error instanceof ActionError || !(error instanceof Error) || !error.stack) return
  log.debug(`Stack of the unexpected error: ${error.stack}`)
}
