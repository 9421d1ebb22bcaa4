import { describe, expect, it } from 'vitest'
import { sleep } from '../../src/deadline.js'
import { backoffMs, retryAfterMs } from '../../src/retry-policy.js'

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
  it('ends early with the reason when the signal aborts', async () => {
    const controller = new AbortController()
    const reason = new Error('time is up')
    setTimeout(() => controller.abort(reason), 20)
    const started = Date.now()
    await expect(sleep(5000, controller.signal)).rejects.toBe(reason)
    expect(Date.now() - started).toBeLessThan(1000)
  })
})
