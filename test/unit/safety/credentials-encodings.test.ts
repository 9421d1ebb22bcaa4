// The credential scan reads encoded text as it decodes: a token right after a JSON string's escape
// (`\n`, `\t`, `\u00e9`), after a URL's %XX, split by a shell's line continuation, or URL-encoded whole
// is blanked in the bytes that are sent, the escape before it kept. Every self-naming format of the
// corpus (scripts/credential-samples.js, generated from each format's shape with a seeded generator).
import { describe, expect, it } from 'vitest'
import { ordinaryText } from '../../../scripts/credential-hostile.js'
import { ESCAPES, escapedSamples, fill } from '../../../scripts/credential-samples.js'
import { blankCredentials } from '../../../src/safety/credentials.js'
import { blankText } from '../../../src/safety/credentials/scan.js'
import { mulberry32 } from '../../support/soak.js'

const j = (...parts: string[]): string => parts.join('')
const rng = mulberry32(26)

describe('tokens in encoded text', () => {
  const samples = escapedSamples()

  it('every self-naming format after each escape, in a diff and in a pull request body, is blanked', () => {
    const missed = samples
      .filter((sample) => {
        const { text } = blankText(sample.text)
        return sample.secrets.some((secret) => text.includes(secret))
      })
      .map((sample) => `${sample.rule} after ${sample.escape} (${sample.where})`)
    expect(missed).toEqual([])
    // Each escape, both places, and more than a hundred formats were there to be found.
    expect(new Set(samples.map((s) => s.escape))).toEqual(new Set([...ESCAPES, 'URL-encoded whole']))
    expect(new Set(samples.map((s) => s.where))).toEqual(new Set(['diff', 'pull request body']))
    expect(new Set(samples.map((s) => s.rule)).size).toBeGreaterThan(100)
  })

  it('through the entry the context takes: a diff and a pull request body', async () => {
    const some = samples.filter((_, i) => i % 7 === 0)
    const facts = {
      summary: ['A pull request'],
      writing: {
        label: "The pull request's description",
        text: some
          .filter((s) => s.where === 'pull request body')
          .map((s) => s.text)
          .join('\n')
      },
      files: {
        list: some.filter((s) => s.where === 'diff').map((s, i) => ({ path: `src/f${i}.ts`, patch: s.text }))
      }
    }
    const { facts: blanked, blanked: said } = await blankCredentials(facts)
    const sent = JSON.stringify(blanked)
    for (const sample of some) for (const secret of sample.secrets) expect(sent).not.toContain(secret)
    expect(said.length).toBeGreaterThanOrEqual(some.length)
  })

  it('keeps the escape and blanks only the token', () => {
    const value = j('gh', 'p_') + fill('{A36}', rng)
    expect(blankText(`{"a": "one\\n${value}"}`).text).toBe('{"a": "one\\n[redacted: GitHub token]"}')
    expect(blankText(`?q=a%3D${value}&b=1`).text).toBe('?q=a%3D[redacted: GitHub token]&b=1')
    // A token whose first letter is itself an escape (`\u0041` is A): the escape is blanked with it.
    const aws = j('AK', 'IA') + fill('{U16}', rng)
    expect(blankText(`"x \\u0041${aws.slice(1)} y"`).text).toBe('"x [redacted: AWS access key] y"')
  })

  it('blanks a token encoded inside (its `/` as %2F) and one split by a line continuation, escapes and all', () => {
    const secret = fill('{b36}', rng).replace(/^/, 'Ab/') + 'x'
    const encoded = `aws_secret_access_key%3D${encodeURIComponent(secret)}`
    const out = blankText(encoded).text
    expect(out).not.toContain(encodeURIComponent(secret))
    const value = j('xox', 'b-') + fill('{d12}-{d13}-{A24}', rng)
    const split = `SLACK="${value.slice(0, 20)}\\\n${value.slice(20)}"`
    expect(blankText(split).text).toBe('SLACK="[redacted: Slack token]"')
  })

  it('leaves ordinary text with escapes as it was', () => {
    const text = ordinaryText(64 * 1024)
    expect(blankText(text).text).toBe(text)
  })
})
