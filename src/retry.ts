import { setTimeout as delay } from 'node:timers/promises'

/** A source of numbers in [0, 1): Math.random in a run, a fixed sequence in a test. */
export type Random = () => number

/**
 * How long to wait before the next try after `failures` failures in a row: exponential from
 * `baseMs`, capped at `capMs`, and spread over its upper half ("equal jitter") so that many runs
 * failing together do not come back together.
 */
export function backoffMs(failures: number, baseMs: number, capMs: number, random: Random = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, failures - 1))
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}

/**
 * Reads a Retry-After header, seconds or an HTTP date, as milliseconds from `now`; null when it is
 * missing or unreadable. A date in the past means "now".
 */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | null {
  const value = Array.isArray(header) ? header[0] : header
  if (value === undefined || value.trim() === '') return null
  const text = value.trim()
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000)
  const at = Date.parse(text)
  return Number.isNaN(at) ? null : Math.max(0, at - now)
}

/**
 * Waits `ms`, or less when `signal` aborts (then it rejects with the signal's reason).
 */
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
