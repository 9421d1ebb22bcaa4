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
