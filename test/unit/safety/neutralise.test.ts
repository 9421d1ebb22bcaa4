// Outside text made safe to log, summarise and post: no control character, no workflow command
// the runner would obey, no secret, bounded. (The bundled action's log is test/action/untrusted-text.test.ts.)
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { registerSecret } from '../../../src/safety/run-secrets.js'
import { codeSpan, hasControlCharacter, neutralise, safeLogLine, safeLogLines } from '../../../src/safety/neutralise.js'
import { commandsTheRunnerWouldObey } from '../../support/runner-commands.js'

const KEY = 'svc_untrusted_text_key_0123456789'

beforeAll(() => {
  // core.setSecret writes ::add-mask:: to stdout; keep the test output readable.
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
  registerSecret(KEY)
  write.mockRestore()
})

// Each of these, logged raw with core.info, is a command the runner obeys.
const ATTACKS: [string, string][] = [
  ['a newline, then a command', 'active\n::add-mask::PWNED'],
  ['a CRLF, then stop-commands', 'active\r\n::stop-commands::PWNED'],
  ['a bare carriage return', 'active\r::error::PWNED'],
  ['an indented command after a newline', 'active\n   \t::warning::PWNED'],
  ['a command after a no-break space', '\u00a0::error::PWNED'],
  ['a command after NEL, which .NET trims', '\u0085::error::PWNED'],
  ['the old form in the middle of a line', 'active ##[add-mask]PWNED'],
  ['the old set-output', 'x ##[set-output name=prLink;]PWNED'],
  ['a command at the very start', '::error::PWNED'],
  ['a command at the start after blanks', '   ::error::PWNED'],
  ['a vertical tab and form feed', '\u000b\u000c::error::PWNED']
]

describe('neutralise', () => {
  it.each(ATTACKS)('leaves no command in %s', (_name, text) => {
    expect(commandsTheRunnerWouldObey(text)).not.toEqual([])
    const safe = neutralise(text)
    expect(commandsTheRunnerWouldObey(safe)).toEqual([])
    expect(commandsTheRunnerWouldObey(`Job job_1 is ${safe}.`)).toEqual([])
    expect(safe).toContain('PWNED')
  })

  it('shows control characters as escapes, on one line', () => {
    expect(neutralise('a\nb\rc\td\u001be\u007ff\u0085g\u2028h\u2029i')).toBe(
      'a\\nb\\rc\\td\\u001be\\u007ff\\u0085g\\u2028h\\u2029i'
    )
    expect(neutralise('right-to-left \u202e override')).toBe('right-to-left \\u202e override')
  })

  it('breaks ##[ wherever it is, however many #', () => {
    expect(neutralise('a ##[error]b ###[c')).toBe('a ## [error]b ### [c')
    expect(neutralise('a ##[error]b')).not.toContain('##[')
  })

  it('blanks a secret, as written or encoded, and trims the blanks around the text', () => {
    expect(neutralise(`key ${KEY} echoed`)).toBe('key *** echoed')
    expect(neutralise(`key ${encodeURIComponent(KEY)}`)).toBe('key ***')
    expect(neutralise(`\n key ${KEY}\r\n`)).toBe('key ***')
  })

  it('caps the length, on a whole character, and says so with …', () => {
    expect(neutralise('x'.repeat(500))).toHaveLength(200)
    expect(neutralise('x'.repeat(500)).endsWith('…')).toBe(true)
    expect(neutralise('😀'.repeat(30), 10)).toBe(`${'😀'.repeat(9)}…`)
    expect(neutralise('short', 10)).toBe('short')
  })

  it('blanks a secret before cutting, so that no part of it is left at the end', () => {
    const text = `${'x'.repeat(190)}${KEY}`
    expect(neutralise(text)).not.toContain('svc_')
  })

  it('changes nothing the second time', () => {
    for (const [, text] of ATTACKS) expect(neutralise(neutralise(text))).toBe(neutralise(text))
  })

  it('leaves ordinary text as it is', () => {
    expect(neutralise('Internal error: try again (HTTP 500) – ünïcödé ok')).toBe(
      'Internal error: try again (HTTP 500) – ünïcödé ok'
    )
  })
})

describe('safeLogLine and safeLogLines', () => {
  it('do not cut the action’s own words', () => {
    expect(safeLogLine('y'.repeat(1000))).toHaveLength(1000)
  })

  it('keep line breaks apart, each line safe', () => {
    const text = 'Error: boom\n    at x (file.js:1:2)\r::error::PWNED\n  ##[warning]PWNED'
    const lines = safeLogLines(text)
    expect(lines.split('\n')).toHaveLength(4)
    expect(commandsTheRunnerWouldObey(lines)).toEqual([])
  })
})

describe('codeSpan', () => {
  it('puts text in a code span, where GitHub renders no mention, link or image', () => {
    expect(codeSpan('@octocat ![x](https://e.example/i.png)')).toBe('`@octocat ![x](https://e.example/i.png)`')
  })

  it('uses a fence longer than any run of backticks inside', () => {
    expect(codeSpan('a`b')).toBe('``a`b``')
    expect(codeSpan('a``b`c')).toBe('```a``b`c```')
  })

  it('pads a backtick at either end so that it does not join the fence', () => {
    expect(codeSpan('`x')).toBe('`` `x ``')
    expect(codeSpan('x`')).toBe('`` x` ``')
  })
})

describe('hasControlCharacter', () => {
  it.each(['a\nb', 'a\rb', 'a\tb', 'a\u0000b', 'a\u0085b', 'a\u2028b'])('finds one in %j', (text) => {
    expect(hasControlCharacter(text)).toBe(true)
  })

  it('finds none in ordinary text', () => {
    expect(hasControlCharacter('docs-site_2 (main)')).toBe(false)
  })
})
