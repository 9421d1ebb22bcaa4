import { RetryPolicy, type Random } from '../net/retry-policy.js'

/** The waits between polls, forever: sooner at first, then settling on `intervalMs` (see RetryPolicy.poll). */
export function* pollDelays(intervalMs: number, random: Random = Math.random): Generator<number, never> {
  for (const fraction of RetryPolicy.poll.ramp) yield stretch(intervalMs * fraction, random)
  for (;;) yield stretch(intervalMs, random)
}

function stretch(ms: number, random: Random): number {
  return Math.round(ms * (1 + RetryPolicy.poll.jitter * random()))
}
