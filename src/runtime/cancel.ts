import { CancelledError } from './errors.js'

/**
 * A cancel: the runner sends SIGINT, then SIGTERM 7.5 s later, then kills the process. From the
 * first signal the run has this long to say what it knows; a create in flight is let finish
 * meanwhile, so that its answer still names the job. Later signals do not cut it short.
 */
export const CANCEL_GRACE_MS = 7000

export interface CancelWatch {
  /** Aborts with a CancelledError when the runner cancels the run. */
  signal: AbortSignal
  /** How long the grace has left before the forced exit: Infinity until a signal came. */
  graceLeftMs(): number
  stop(): void
}

/**
 * Turns the runner's SIGINT (then SIGTERM) into an abort. The first signal starts a grace of
 * `graceMs` (CANCEL_GRACE_MS) for the run to say what it knows (the job id, how to follow it again), and to let a
 * create in flight be answered; if the run has not finished by then, `onForcedExit` says it and
 * the process exits. Later signals do not cut the grace short: the runner sends SIGTERM a few
 * seconds after SIGINT, and a create answered in between must still name its job.
 */
export function watchForCancel(onForcedExit: () => void, graceMs: number): CancelWatch {
  const controller = new AbortController()
  let exitAt = Infinity
  const onSignal = (signal: NodeJS.Signals): void => {
    if (controller.signal.aborted) return
    exitAt = Date.now() + graceMs
    controller.abort(new CancelledError(signal))
    setTimeout(() => {
      onForcedExit()
      process.exit(1)
    }, graceMs).unref()
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  return {
    signal: controller.signal,
    graceLeftMs: () => exitAt - Date.now(),
    stop: () => {
      // Once cancelled, the handlers stay and ignore later signals: the run is saying what it
      // knows, and the grace's timer ends the process if it takes too long.
      if (controller.signal.aborted) return
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
    }
  }
}
