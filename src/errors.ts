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
