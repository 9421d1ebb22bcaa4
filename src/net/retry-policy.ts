// How a wait after a failure is measured, whoever waits: the backoff and the Retry-After header.
// The numbers each stage waits by live beside its code (service/service-policy.ts, runtime/cancel.ts,
// github/reader.ts, github/pull-request-details.ts, thread/comment-reply.ts, github/ending-bound.ts);
// docs/retries-and-timeouts.md gathers them for a reader.

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
 * The wait after a failure: the backoff, with Retry-After (seconds or an HTTP date) as a floor under
 * it, never the whole wait, so that a server that keeps answering `Retry-After: 0` is not asked in a
 * tight loop. Like every wait, it is cut to the time the step has left (see sleep in deadline.ts).
 */
export function retryWaitMs(backoff: number, retryAfter: number | null): number {
  return Math.max(retryAfter ?? 0, backoff)
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
