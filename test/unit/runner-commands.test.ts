// The helper the action-level tests use to ask "would the runner obey this?" must see what the
// runner sees, or those tests prove nothing.
import { describe, expect, it } from 'vitest'
import { commandsTheRunnerWouldObey, unexpectedCommands } from '../support/runner-commands.js'

describe('commandsTheRunnerWouldObey', () => {
  it.each([
    ['::add-mask::x', 'add-mask', 'x'],
    ['  \t::error::x', 'error', 'x'],
    ['\u00a0\u0085::warning::x', 'warning', 'x'],
    ['::ERROR::x', 'error', 'x'],
    ['::error file=a.js,line=1::x%0Ay', 'error', 'x\ny'],
    ['text before ##[add-mask]x', 'add-mask', 'x'],
    ['##[set-output name=a;]x', 'set-output', 'x'],
    ['::stop-commands::token', 'stop-commands', 'token']
  ])('reads %j as a command', (line, name, data) => {
    expect(commandsTheRunnerWouldObey(`ordinary line\n${line}\nanother`)).toEqual([
      expect.objectContaining({ name, data })
    ])
  })

  it('splits lines at \\n, \\r\\n and a bare \\r', () => {
    expect(commandsTheRunnerWouldObey('a\n::error::1\r\n::error::2\r::error::3').map((c) => c.data)).toEqual([
      '1',
      '2',
      '3'
    ])
  })

  it.each(['text ::error::x', '::unknown::x', '::error x', '## [error]x', '##[error x', 'a\\n::error::x'])(
    'does not read %j as a command',
    (line) => {
      expect(commandsTheRunnerWouldObey(line)).toEqual([])
    }
  )
})

describe('unexpectedCommands', () => {
  const expected = { secrets: ['svc_key'], marker: 'PWNED' }

  it("lets the action's own commands through", () => {
    const stdout = '::add-mask::svc_key\n::debug::settings\n::warning::Job x is PWNED-ish\n::error::It failed.\n'
    expect(unexpectedCommands(stdout, expected)).toEqual([])
  })

  it.each([
    '::add-mask::something else',
    '::error::PWNED',
    '  ::warning::indented',
    '::error file=x::with properties',
    'Job ##[notice]old form',
    '::stop-commands::x',
    '::set-output name=prLink::x'
  ])('flags %j', (line) => {
    expect(unexpectedCommands(line, expected)).toHaveLength(1)
  })
})
