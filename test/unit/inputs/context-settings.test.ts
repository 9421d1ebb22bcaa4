// The context and contextLimit inputs: what each accepts, and the sentence for what it does not.
import { describe, expect, it } from 'vitest'
import { parseContextLimit, parseContextMode } from '../../../src/inputs/context-settings.js'
import { ActionError } from '../../../src/runtime/errors.js'

describe('context', () => {
  it.each([
    ['', 'changes'],
    ['none', 'none'],
    ['changes', 'changes'],
    ['diff', 'diff'],
    [' DIFF ', 'diff']
  ])('%j is %s', (value, mode) => {
    expect(parseContextMode(value)).toBe(mode)
  })

  it.each(['full', 'true', 'diffs'])('refuses %j, naming the input, the value and what it accepts', (value) => {
    expect(() => parseContextMode(value)).toThrow(ActionError)
    expect(() => parseContextMode(value)).toThrow(
      `Input context is '${value}', which is not one of none, changes, diff.`
    )
  })
})

describe('contextLimit', () => {
  it.each([
    ['', 20_000],
    ['1000', 1_000],
    ['20000', 20_000],
    ['1000000', 1_000_000]
  ])('%j is %d', (value, limit) => {
    expect(parseContextLimit(value)).toBe(limit)
  })

  it.each(['999', '1000001', '20k', '20,000', '1e4', '1500.5', '-2000', 'lots'])(
    'refuses %j, naming the input, the value and the range',
    (value) => {
      expect(() => parseContextLimit(value)).toThrow(ActionError)
      expect(() => parseContextLimit(value)).toThrow(
        `Input contextLimit is '${value}', which is not a whole number between 1,000 and 1,000,000.`
      )
    }
  )
})
