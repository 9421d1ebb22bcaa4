import { describe, expect, it } from 'vitest'
import { sleep, startDeadline } from '../../../src/runtime/deadline.js'
import { DeadlineError } from '../../../src/runtime/errors.js'
import { backoffMs, retryAfterMs } from '../../../src/net/retry-policy.js'
import { contextBudgetMs } from '../../../src/context/run-context.js'
import { readBackoff } from '../../../src/service/service-policy.js'

describe('backoffMs', () => {
  it('doubles from the base, within the upper half of each step', () => {
    expect(backoffMs(1, 1000, 30_000, () => 0)).toBe(500)
    expect(backoffMs(1, 1000, 30_000, () => 1 - 1e-12)).toBe(1000)
    expect(backoffMs(3, 1000, 30_000, () => 0)).toBe(2000)
    expect(backoffMs(3, 1000, 30_000, () => 1 - 1e-12)).toBe(4000)
  })

  it('never goes past the cap', () => {
    expect(backoffMs(20, 1000, 30_000, () => 1 - 1e-12)).toBe(30_000)
  })
})

describe('contextBudgetMs', () => {
  it("gives the context's reads at most 10s, and at most half the time left: the rest is the create's", () => {
    expect(contextBudgetMs(30 * 60_000)).toBe(10_000)
    expect(contextBudgetMs(9000)).toBe(4500)
    expect(contextBudgetMs(4000)).toBe(2000)
    expect(contextBudgetMs(0)).toBe(0)
  })
})

describe('readBackoff', () => {
  it('starts at 250ms whatever pollInterval is, so a read that failed is soon asked again', () => {
    expect(readBackoff(1000).baseMs).toBe(250)
    expect(readBackoff(60_000).baseMs).toBe(250)
  })

  it('never backs off to less than the poll itself at the cap', () => {
    expect(readBackoff(1000).capMs).toBe(30_000)
    expect(readBackoff(60_000).capMs).toBe(60_000)
  })
})

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-21T12:00:00Z')
  it('reads seconds', () => {
    expect(retryAfterMs('7', now)).toBe(7000)
    expect(retryAfterMs('0', now)).toBe(0)
  })
  it('reads an HTTP date as the time until then', () => {
    expect(retryAfterMs('Sat, 21 Nov 2026 12:00:30 GMT', now)).toBe(30_000)
  })
  it('takes a date in the past as now', () => {
    expect(retryAfterMs('Sat, 21 Nov 2026 11:00:00 GMT', now)).toBe(0)
  })
  it('ignores a missing or unreadable header', () => {
    expect(retryAfterMs(undefined, now)).toBeNull()
    expect(retryAfterMs('', now)).toBeNull()
    expect(retryAfterMs('soon', now)).toBeNull()
  })
})

describe('sleep', () => {
  const deadlineIn = (ms: number, cancel = new AbortController().signal) => startDeadline(Date.now() + ms, cancel)

  it('ends early with the reason when the run is cancelled', async () => {
    const controller = new AbortController()
    const reason = new Error('cancelled')
    setTimeout(() => controller.abort(reason), 20)
    const started = Date.now()
    await expect(sleep(5000, deadlineIn(10_000, controller.signal))).rejects.toBe(reason)
    // Half the wait it cut short: room for a busy machine, and far from the 5 s it would have taken.
    expect(Date.now() - started).toBeLessThan(2500)
  })

  it.each([
    ['a wait longer than a timer can hold', 3_000_000_000],
    ['a wait longer than the time left', 60_000]
  ])('cuts %s to the time left, and ends with the deadline', async (_name, ms) => {
    const warnings: Error[] = []
    const onWarning = (warning: Error): number => warnings.push(warning)
    process.on('warning', onWarning)
    try {
      const started = Date.now()
      await expect(sleep(ms, deadlineIn(300))).rejects.toBeInstanceOf(DeadlineError)
      expect(Date.now() - started).toBeGreaterThanOrEqual(290)
      // Ten times the 0.3 s left, with room for a busy machine; the wait itself is a minute or more.
      expect(Date.now() - started).toBeLessThan(3000)
      await new Promise((resolve) => setImmediate(resolve))
      expect(warnings.map((w) => w.name)).not.toContain('TimeoutOverflowWarning')
    } finally {
      process.off('warning', onWarning)
    }
  })

  it('waits the whole of a wait shorter than the time left', async () => {
    const started = Date.now()
    await sleep(100, deadlineIn(10_000))
    expect(Date.now() - started).toBeGreaterThanOrEqual(99)
  })
})
