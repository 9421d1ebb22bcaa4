import { setTimeout as delay } from 'node:timers/promises'
import { DeadlineError } from './errors.js'

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
  const timeUp = new AbortController()
  const timer = setTimeout(() => timeUp.abort(new DeadlineError()), Math.max(0, at - Date.now()))
  // The timer only bounds work that is already under way; it must not keep a finished run alive.
  timer.unref()
  return {
    at,
    signal: AbortSignal.any([cancel, timeUp.signal]),
    timeUp: timeUp.signal,
    remainingMs: () => Math.max(0, at - Date.now())
  }
}

/** Waits `ms`, or less when `signal` aborts (then it rejects with the signal's reason). */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) {
    signal?.throwIfAborted()
    return
  }
  try {
    await delay(ms, undefined, { signal })
  } catch (error) {
    if (signal?.aborted) throw signal.reason
    throw error
  }
}
