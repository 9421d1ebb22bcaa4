// The credential scan is linear on any text: each hostile shape (scripts/credential-hostile.js, each
// of which once cost the scan its length squared) is timed at 1 and 4 MiB against ordinary text of
// the same sizes, in this test, by ratio: four times the text must cost well under sixteen times the
// time (what a quadratic shape costs), and a hostile text no more than a few times ordinary text.
// CPU time of this process (one round, the best of three when a bound is missed), so that other work
// on the machine counts little; the bounds are wide (a linear scan measures about 4 and 1), and a
// quadratic one misses them by far.
// And the scan's work is bounded per piece and per run, whatever it is given.
import { describe, expect, it } from 'vitest'
import { HOSTILE_SHAPES, ordinaryText } from '../../../scripts/credential-hostile.js'
import {
  blankCredentials,
  MOST_SCANNED_PER_PIECE,
  MOST_SCANNED_PER_RUN,
  NOT_SCANNED
} from '../../../src/safety/credentials.js'
import { blankText } from '../../../src/safety/credentials/scan.js'

const MiB = 1024 * 1024

/** The CPU milliseconds the scan of `text` takes, the best of `rounds`. */
function cpuMs(text: string, rounds = 1): number {
  let best = Infinity
  for (let round = 0; round < rounds; round++) {
    const started = process.cpuUsage()
    blankText(text)
    const used = process.cpuUsage(started)
    best = Math.min(best, (used.user + used.system) / 1000)
  }
  return best
}

describe('the scan on hostile text', () => {
  it('costs time in proportion to the text: 4 MiB of each shape against 1 MiB, and against ordinary text', () => {
    blankText(ordinaryText(64 * 1024))
    const ordinary4 = cpuMs(ordinaryText(4 * MiB), 2)
    const slow: string[] = []
    for (const [shape, make] of Object.entries(HOSTILE_SHAPES)) {
      const [small, large] = [make(MiB), make(4 * MiB)]
      // One round each; the best of three again when a bound is missed (a pause of the machine's).
      const measure = (rounds: number) => {
        const one = cpuMs(small, rounds)
        const four = cpuMs(large, rounds)
        // A millisecond or two of noise does not make a ratio of small numbers.
        const ok = Math.max(four, 1) / Math.max(one, 1) < 10 && four / Math.max(ordinary4, 1) < 12
        return {
          ok,
          said: `${shape}: ${one.toFixed(0)} ms for 1 MiB, ${four.toFixed(0)} ms for 4 MiB, ordinary ${ordinary4.toFixed(0)} ms`
        }
      }
      const first = measure(1)
      const result = first.ok ? first : measure(3)
      if (!result.ok) slow.push(result.said)
    }
    expect(slow).toEqual([])
    expect(Math.max(ordinary4, 1) / Math.max(cpuMs(ordinaryText(MiB), 2), 1)).toBeLessThan(10)
  }, 180_000)
})

describe('the work per piece and per run', () => {
  it('reads a piece to the last line end within the most a section holds, and no piece past the most a run reads', async () => {
    const line = 'const value = computeTotal(items) // sums the lines\n'
    const long = line.repeat(Math.ceil((MOST_SCANNED_PER_PIECE * 1.5) / line.length))
    const pieces = Array.from({ length: 10 }, (_, i) => ({ path: `src/f${i}.ts`, patch: long }))
    const { facts } = await blankCredentials({ summary: ['A push'], files: { list: pieces } })
    const patches = facts.files.list.map((file) => file.patch ?? '')
    const read = patches.filter((patch) => patch !== NOT_SCANNED)
    // Each piece read is its first lines, whole, within the bound.
    for (const patch of read) {
      expect(patch.length).toBeLessThanOrEqual(MOST_SCANNED_PER_PIECE)
      expect(patch.length).toBeGreaterThan(MOST_SCANNED_PER_PIECE - line.length)
      expect(long.startsWith(patch)).toBe(true)
      expect(patch.endsWith('// sums the lines')).toBe(true)
    }
    // As many as the run's bound holds; the rest say they were left out.
    expect(read).toHaveLength(Math.floor(MOST_SCANNED_PER_RUN / MOST_SCANNED_PER_PIECE))
    expect(patches.slice(read.length)).toEqual(Array(10 - read.length).fill(NOT_SCANNED))
  }, 60_000)
})
