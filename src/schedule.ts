import type { Random } from './retry.js'

// The first interval is split in three (0.4 + 0.3 + 0.3 of it): a job that ends within seconds is
// seen within a second or two, and a long job costs three requests more than a plain loop, all in
// its first interval. Growing, then steady, keeps the load on the service flat for long jobs.
const RAMP = [0.4, 0.3, 0.3]
// Each wait is stretched by up to 10%, so that many runs started together (a push to many
// repositories, a cron at :00) spread out instead of polling in step. Stretched, never shortened:
// the request count a job costs never grows because of jitter.
const JITTER = 0.1

/** The waits between polls, forever: sooner at first, then settling on `intervalMs`. */
export function* pollDelays(intervalMs: number, random: Random = Math.random): Generator<number, never> {
  for (const fraction of RAMP) yield stretch(intervalMs * fraction, random)
  for (;;) yield stretch(intervalMs, random)
}

function stretch(ms: number, random: Random): number {
  return Math.round(ms * (1 + JITTER * random()))
}
