// Many runs of the bundled action against a stand-in that fails at random (seeded, so a failure
// can be replayed): whatever happens, a run makes at most one job, a run that succeeds names the
// one job it made, every failure is one of the sentences the action means to say, and the key is
// never printed, not even when error pages echo it or step debug logging is on. The runs and the
// rules are test/support/soak.js, which `npm run soak` runs at a larger scale.
import { describe, expect, it } from 'vitest'
import { describeSoak, soak } from '../support/soak.js'

const RUNS = 40

describe('soak: many runs against random faults', () => {
  it(
    `${RUNS} runs: at most one job each, the right job named, known failures only, the key never printed`,
    // 40 runs, four at a time: a shared 2-core machine under load took over a minute.
    { timeout: 180_000 },
    async () => {
      const report = await soak({ runs: RUNS })
      console.log(`soak:\n${describeSoak(report).join('\n')}`)

      expect(report.problems).toEqual([])
      expect(report.jobsPerRun.twoOrMore).toBe(0)
      expect(report.requestsWithoutKey).toBe(0)
      // The soak did soak: faults of both kinds were met, most runs still got through, and an
      // echoed key reached the log only blanked out.
      expect(report.faults.reads).toBeGreaterThan(RUNS / 4)
      expect(report.faults.creates).toBeGreaterThan(0)
      expect(report.succeeded).toBeGreaterThan(RUNS / 2)
      expect(report.blanked).toBeGreaterThan(0)
    }
  )
})
