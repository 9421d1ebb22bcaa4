// The hand-over soak, small: on one stand-in GitHub that keeps its state across runs and one
// stand-in service, seeded hand-overs (comments and pushes with wait false), reporting runs (two at
// once, cancelled), the service's 429s (a short Retry-After, none, an hour's) and 5xx, GitHub's 502s
// on writes (some made despite it), follow-ups and withdrawals; then quiet reporting runs. Each
// request and job is judged by the rules of test/support/hand-over-soak.js, which `npm run soak --
// --hand-over` plays at a larger size.
import { describe, expect, it } from 'vitest'
import { describeHandOverSoak, handOverSoak, RULES } from '../support/hand-over-soak.js'

const REQUESTS = 10

describe('hand-over soak: many requests on one GitHub that keeps its state', () => {
  it(
    `${REQUESTS} requests: each made once or refused in words, each ending told once, no status left pending, the key never printed`,
    // About 20 s alone; a shared 2-core machine under load takes longer.
    { timeout: 150_000 },
    async () => {
      const report = await handOverSoak({ requests: REQUESTS })
      console.log(`hand-over soak:\n${describeHandOverSoak(report).join('\n')}`)

      // The soak did soak: reporting runs asked for, faults of each kind, withdrawals, jobs made.
      expect(report.scheduled).toBeGreaterThan(3)
      // (How many reporting runs were cancelled or ran two at once depends on GitHub starting them: a
      // reporting workflow left off while a job is open starts none, which the rules below catch.)
      expect(report.withdrawn).toBeGreaterThan(0)
      expect(Object.keys(report.serviceFaults)).toEqual(
        expect.arrayContaining(['429-short', '429-none', '429-long', '5xx-before', '5xx-after'])
      )
      expect(report.jobs).toBeGreaterThan(3)
      expect(report.breaks.filter((b) => HOLDING.includes(b.rule))).toEqual([])
      // What the rules not held yet found, for whoever makes them hold.
      if (report.breaks.length) console.log(report.breaks.map((b) => `${b.rule}: ${b.what}`).join('\n'))
    }
  )
})

/**
 * The rules the main branch does not keep yet, each seen broken by the soak on main (see `npm run soak
 * -- --hand-over`); none now. The suite holds every rule: told-once since two runs that make the index
 * at once use the same issue, and a job whose record GitHub refused counts only where its words say so;
 * reply-tells-ending since a reply whose first post GitHub answered with a 502 and did not make is
 * posted again before the record names it; made-or-refused since a queued create whose record could
 * not be left is said NOT kept, and one the service refused again after its mark as being sent gives
 * its claim up even where GitHub refuses to queue it again, so it is sent again rather than told as
 * maybe made. Put a rule here while it is seen broken on main, and take it out once it holds.
 */
const NOT_YET: (keyof typeof RULES)[] = []
const HOLDING = (Object.keys(RULES) as (keyof typeof RULES)[]).filter((rule) => !NOT_YET.includes(rule))
