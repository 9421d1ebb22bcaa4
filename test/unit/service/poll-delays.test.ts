import { describe, expect, it } from 'vitest'
import { pollDelays } from '../../../src/service/poll-delays.js'

function first(n: number, intervalMs: number, random: () => number): number[] {
  const delays = pollDelays(intervalMs, random)
  return Array.from({ length: n }, () => delays.next().value)
}

describe('pollDelays', () => {
  it('asks sooner at first, then settles on the interval', () => {
    expect(first(6, 5000, () => 0)).toEqual([2000, 1500, 1500, 5000, 5000, 5000])
  })

  it('fits the early polls into the first interval, so a long job costs three requests more than a plain loop', () => {
    const delays = first(3, 5000, () => 0)
    expect(delays.reduce((a, b) => a + b)).toBe(5000)
  })

  it('stretches each wait by up to 10%, never shortens it', () => {
    expect(first(4, 5000, () => 0.999)).toEqual([2200, 1650, 1650, 5500])
  })

  it('spreads runs started together', () => {
    let seed = 1
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647
    const starts = Array.from({ length: 20 }, () => first(6, 5000, random).reduce((a, b) => a + b))
    expect(new Set(starts).size).toBeGreaterThan(15)
  })
})
