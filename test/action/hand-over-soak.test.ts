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

      // The soak did soak: reporting runs, two at once and cancelled; faults of each kind; withdrawals.
      expect(report.reportingRuns).toBeGreaterThan(3)
      expect(report.cancelled).toBeGreaterThan(0)
      expect(report.withdrawn).toBeGreaterThan(0)
      expect(Object.keys(report.serviceFaults)).toEqual(
        expect.arrayContaining(['429-short', '429-none', '429-long', '5xx-before', '5xx-after'])
      )
      expect(report.jobs).toBeGreaterThan(3)
      expect(report.breaks.filter((b) => HOLDING.includes(b.rule))).toEqual([])
    }
  )
})

/** The rules the suite holds the soak to: all of them. */
const HOLDING = Object.keys(RULES) as (keyof typeof RULES)[]
