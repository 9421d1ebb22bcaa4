import { describe, expect, it } from 'vitest'
import { formatDuration, nearMissDuration, parseDuration } from '../../../src/runtime/duration.js'

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

describe('nearMissDuration', () => {
  it.each([
    ['30 minutes', '30m'],
    ['30M', '30m'],
    ['5 s', '5s'],
    ['5sec', '5s'],
    ['2 hrs', '2h'],
    ['250 millis', '250ms'],
    ['1h30m', '90m'],
    ['1h 30m 15s', '5415s']
  ])('reads %j as %s, which the refusal suggests', (text, meant) => {
    expect(nearMissDuration(text)).toBe(meant)
    expect(() => parseDuration(text, 'timeout')).toThrow(`which is not a duration. Did you mean ${meant}? Use`)
  })

  it.each(['soon', '1e3', '-1s', '0m', '5 parsecs', 'm'])('suggests nothing for %j', (text) => {
    expect(nearMissDuration(text)).toBeNull()
    expect(() => parseDuration(text, 'timeout')).toThrow('which is not a duration. Use a positive number')
  })
})

describe('parseDuration bounds', () => {
  it('checks a duration after rounding it to whole milliseconds', () => {
    expect(parseDuration('1.4ms', 'timeout')).toBe(1)
    expect(() => parseDuration('0.4ms', 'timeout')).toThrow(
      "Input timeout is '0.4ms', which is shorter than 1ms, the shortest accepted. Use 1ms or more."
    )
  })

  it('refuses what is below the shortest accepted, saying why', () => {
    const bounds = { minMs: 1000, whyMin: 'polling more often only adds load on the service' }
    expect(parseDuration('1s', 'pollInterval', bounds)).toBe(1000)
    expect(() => parseDuration('999ms', 'pollInterval', bounds)).toThrow(
      "Input pollInterval is '999ms', which is shorter than 1s, the shortest accepted: polling more often only adds load on the service. Use 1s or more."
    )
  })

  it('refuses a duration no timer can hold, naming the largest accepted', () => {
    expect(parseDuration('2147483647ms', 'timeout')).toBe(2_147_483_647)
    expect(parseDuration('596h', 'timeout')).toBe(596 * 3_600_000)
    for (const text of ['2147483648ms', '600h', '99999999999999999999']) {
      expect(() => parseDuration(text, 'timeout')).toThrow(
        `Input timeout is '${text}', which is longer than a timer can hold. The largest accepted value is 2147483647ms, about 596h (24.8 days).`
      )
    }
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
