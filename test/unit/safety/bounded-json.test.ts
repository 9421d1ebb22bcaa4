import { describe, expect, it } from 'vitest'
import { parseBoundedJson } from '../../../src/safety/bounded-json.js'

const BOUNDS = { maxDepth: 3, maxContainers: 5 }

describe('parseBoundedJson', () => {
  it('parses JSON within the bounds', () => {
    expect(parseBoundedJson('{"a": [1, {"b": 2}]}', BOUNDS)).toEqual({ value: { a: [1, { b: 2 }] } })
    expect(parseBoundedJson('"text"', BOUNDS)).toEqual({ value: 'text' })
  })

  it('refuses what nests deeper than maxDepth, or holds more than maxContainers arrays and objects', () => {
    expect(parseBoundedJson('[[[[]]]]', BOUNDS)).toEqual({ refused: 'nested more than 3 deep' })
    expect(parseBoundedJson('[[],[],[],[],[]]', BOUNDS)).toEqual({ refused: 'more than 5 arrays and objects' })
  })

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(parseBoundedJson('["[[[[", "\\"{{{{", "\\\\", "]]"]', BOUNDS)).toEqual({
      value: ['[[[[', '"{{{{', '\\', ']]']
    })
  })

  it('says "not JSON" for anything else, such as a proxy page', () => {
    expect(parseBoundedJson('<html>Sign in</html>', BOUNDS)).toEqual({ refused: 'not JSON' })
    expect(parseBoundedJson('', BOUNDS)).toEqual({ refused: 'not JSON' })
  })

  it('refuses 16 MB nested 8 million deep at its 33rd bracket, without parsing it', () => {
    const deep = `${'['.repeat(8_000_000)}${']'.repeat(8_000_000)}`
    expect(parseBoundedJson(deep, { maxDepth: 32, maxContainers: 100_000 })).toEqual({
      refused: 'nested more than 32 deep'
    })
  })
})
