import { setTimeout as delay } from 'node:timers/promises'
import { DeadlineError } from './errors.js'

/**
 * The longest wait a timer can hold (2^31-1 ms, about 24.8 days). Node turns a longer one into a
 * 1 ms wait, with a TimeoutOverflowWarning: no duration the action accepts may be longer.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1

/** The end of the time a step may spend, and one signal that fires at it or on cancel. */
export interface Deadline {
  /** When the time runs out (epoch milliseconds). */
  readonly at: number
  /** Aborts with a DeadlineError at `at`, or with the cancel signal's reason before that. */
  readonly signal: AbortSignal
  /** Aborts with a DeadlineError at `at` only: for work that is let finish on cancel. */
  readonly timeUp: AbortSignal
  remainingMs(): number
}

export function startDeadline(at: number, cancel: AbortSignal): Deadline {
  const inMs = Math.max(0, at - Date.now())
  // A guard, not a path any input can reach: inputs/settings.ts refuses a timeout longer than this.
  if (inMs > MAX_TIMER_MS) throw new RangeError(`A deadline ${inMs}ms away is more than a timer can hold.`)
  const timeUp = new AbortController()
  const timer = setTimeout(() => timeUp.abort(new DeadlineError()), inMs)
  // The timer only bounds work that is already under way; it must not keep a finished run alive.
  timer.unref()
  return {
    at,
    signal: AbortSignal.any([cancel, timeUp.signal]),
    timeUp: timeUp.signal,
    remainingMs: () => Math.max(0, at - Date.now())
  }
}

/**
 * Waits `ms`, cut to the time the step has left: every wait between requests goes through here,
 * so none can outlast the deadline, however long a backoff or a server's Retry-After asks for.
 * A wait that reaches the deadline ends with a DeadlineError; a cancel ends it with its reason.
 */
export async function sleep(ms: number, deadline: Deadline): Promise<void> {
  const { signal } = deadline
  signal.throwIfAborted()
  const remainingMs = deadline.remainingMs()
  const reachesDeadline = ms >= remainingMs
  try {
    if (remainingMs > 0 && ms > 0) await delay(Math.min(ms, remainingMs), undefined, { signal })
  } catch (error) {
    if (signal.aborted) throw signal.reason
    throw error
  }
  if (reachesDeadline) throw new DeadlineError()
}

/** A bound on one wait: its signal, and whether it was the bound (not another signal) that ended it. */
export interface TimeLimit {
  /** Aborts `ms` after the limit was set (a TimeoutError, as AbortSignal.timeout), or with any of the other signals. */
  readonly signal: AbortSignal
  /** Whether the time ran out. */
  timedOut(): boolean
  /** Stops the timer: the wait is over. */
  clear(): void
}

/**
 * A time limit on one wait, together with other signals (a cancel, the run's end). Not
 * `AbortSignal.any([AbortSignal.timeout(ms), …])`: on some Node versions the combined signal holds
 * its sources weakly, and a timeout signal that nothing else holds is collected by the garbage
 * collector with its timer, so the bound never fires. Here the pending timer holds the controller
 * it aborts, so the limit lives as long as the wait, whatever the Node version.
 */
export function timeLimit(ms: number, ...others: AbortSignal[]): TimeLimit {
  const controller = new AbortController()
  const timer = setTimeout(
    () => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
    Math.min(Math.max(0, ms), MAX_TIMER_MS)
  )
  // The limit only bounds a wait under way: it must not keep a finished run alive.
  timer.unref()
  return {
    signal: others.length ? AbortSignal.any([controller.signal, ...others]) : controller.signal,
    timedOut: () => controller.signal.aborted,
    clear: () => clearTimeout(timer)
  }
}
