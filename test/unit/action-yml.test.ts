// Workflows depend on the names in action.yml; the code reads them from src/constants.ts.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { Input, Output } from '../../src/constants.js'
import { ACTION_VERSION } from '../../src/version.js'

const actionYml = readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')

/** The keys directly under a top-level section, with whether each has a description. */
function entries(section: string): Map<string, boolean> {
  const body = actionYml.split(new RegExp(`^${section}:\\n`, 'm'))[1].split(/^\S/m)[0]
  const found = new Map<string, boolean>()
  let current = ''
  for (const line of body.split('\n')) {
    const key = /^ {2}(\w+):\s*$/.exec(line)
    if (key) found.set((current = key[1]), false)
    else if (/^ {4}description:\s*\S/.test(line)) found.set(current, true)
  }
  return found
}

describe('action.yml', () => {
  it('declares exactly the inputs the code reads, each described', () => {
    const inputs = entries('inputs')
    expect([...inputs.keys()].sort()).toEqual(Object.values(Input).sort())
    expect([...inputs.values()].every(Boolean)).toBe(true)
  })

  it('declares exactly the outputs the code sets, each described', () => {
    const outputs = entries('outputs')
    expect([...outputs.keys()].sort()).toEqual(Object.values(Output).sort())
    expect([...outputs.values()].every(Boolean)).toBe(true)
  })

  it('runs the bundle on node24', () => {
    expect(actionYml).toMatch(/^runs:\n {2}using: node24\n {2}main: dist\/index\.js$/m)
  })

  it('sends the version package.json gives in its User-Agent', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
    expect(ACTION_VERSION).toBe(pkg.version)
  })
})
