import { CancelledError } from './errors.js'

export interface CancelWatch {
  /** Aborts with a CancelledError when the runner cancels the run. */
  signal: AbortSignal
  stop(): void
}

/**
 * Turns the runner's SIGINT (then SIGTERM) into an abort. The run then has `graceMs` to say what
 * it knows (the job id, how to follow it again); if it has not finished by then, or a second
 * signal comes, `onForcedExit` says it and the process exits.
 */
export function watchForCancel(onForcedExit: () => void, graceMs = 1500): CancelWatch {
  const controller = new AbortController()
  const forceExit = (): never => {
    onForcedExit()
    process.exit(1)
  }
  const onSignal = (signal: NodeJS.Signals): void => {
    if (controller.signal.aborted) forceExit()
    controller.abort(new CancelledError(signal))
    setTimeout(forceExit, graceMs).unref()
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  return {
    signal: controller.signal,
    stop: () => {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
    }
  }
}
