import type { Random } from '../net/retry-policy.js'
import { ServicePolicy } from './service-policy.js'

/** The waits between polls, forever: sooner at first, then settling on `intervalMs` (see ServicePolicy.poll). */
export function* pollDelays(intervalMs: number, random: Random = Math.random): Generator<number, never> {
  for (const fraction of ServicePolicy.poll.ramp) yield stretch(intervalMs * fraction, random)
  for (;;) yield stretch(intervalMs, random)
}

function stretch(ms: number, random: Random): number {
  return Math.round(ms * (1 + ServicePolicy.poll.jitter * random()))
}
