import { describe, expect, it } from 'vitest'
import { formatDuration, parseDuration } from '../../src/duration.js'

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['90s', 90_000],
    ['15m', 900_000],
    ['1h', 3_600_000],
    ['30', 30_000],
    ['1.5s', 1500],
    [' 5s ', 5000]
  ])('reads %s as %i ms', (text, ms) => {
    expect(parseDuration(text, 'timeout')).toBe(ms)
  })

  it.each(['', '5 s', '5sec', '-1s', '0', '0ms', 'soon', '1h30m', '1e3'])('rejects %j, quoting it', (text) => {
    expect(() => parseDuration(text, 'pollInterval')).toThrow(
      `Input pollInterval is '${text}', which is not a duration.`
    )
  })
})

describe('formatDuration', () => {
  it.each([
    [350, '350ms'],
    [4200, '4.2s'],
    [65_000, '1m 5s'],
    [120_000, '2m'],
    [3_720_000, '1h 2m'],
    [3_600_000, '1h']
  ])('writes %i ms as %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text)
  })
})
