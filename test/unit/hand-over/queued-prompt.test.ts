// A queued prompt is kept whatever its length the index can hold: in the record when it fits, else
// compressed into parts of at most one comment's line each, read back only whole and unchanged; one
// longer still is said to be too long, so it is never queued.
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { MAX_PROMPT_PARTS, packPrompt, PART_CHARS, unpackPrompt } from '../../../src/hand-over/queued-prompt.js'

/** Text that compresses poorly: `length` kanji from random bytes. */
function kanji(length: number): string {
  const bytes = randomBytes(length * 2)
  let text = ''
  for (let n = 0; n < length; n++) text += String.fromCharCode(0x4e00 + (bytes.readUInt16LE(n * 2) % 20_000))
  return text
}

describe('a queued prompt, packed', () => {
  it('stays in the record when it fits there', () => {
    expect(packPrompt('Document the retry policy')).toEqual({ inline: 'Document the retry policy' })
  })

  it('is compressed into parts of at most one line each when it does not, and read back whole', () => {
    for (const prompt of [kanji(16_000), kanji(20_700), kanji(100_000)]) {
      const packed = packPrompt(prompt)
      if (!('parts' in packed)) throw new Error(`not in parts: ${Object.keys(packed).join()}`)
      expect(packed.parts.every((part) => part.length <= PART_CHARS && /^[A-Za-z0-9_-]+$/.test(part))).toBe(true)
      expect(unpackPrompt(packed.parts, packed.digest)).toBe(prompt)
    }
  })

  it('is read back only whole and unchanged: a part missing, swapped or edited reads as nothing', () => {
    const packed = packPrompt(kanji(100_000))
    if (!('parts' in packed)) throw new Error('not in parts')
    expect(packed.parts.length).toBeGreaterThan(1)
    expect(unpackPrompt(packed.parts.slice(1), packed.digest)).toBeNull()
    expect(unpackPrompt([...packed.parts].reverse(), packed.digest)).toBeNull()
    expect(unpackPrompt([`${packed.parts[0].slice(0, -1)}A`, ...packed.parts.slice(1)], packed.digest)).toBeNull()
  })

  it('is too long to keep past what its parts can hold, and says how long it is', () => {
    const packed = packPrompt(kanji(600_000))
    expect(packed).toEqual({ tooLong: { compressedChars: expect.any(Number), parts: expect.any(Number) } })
    if (!('tooLong' in packed)) throw new Error('kept')
    expect(packed.tooLong.compressedChars).toBeGreaterThan(MAX_PROMPT_PARTS * PART_CHARS)
  })

  it('keeps a context of a million characters of code', () => {
    const line = (n: number) => `export function retry${n}(tries: number): number { return tries * ${n % 97} }\n`
    let code = ''
    for (let n = 0; code.length < 1_000_000; n++) code += line(n)
    expect('tooLong' in packPrompt(code)).toBe(false)
  })
})
