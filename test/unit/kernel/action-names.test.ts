// Workflows depend on the names in action.yml; the code reads them from src/kernel/action-names.ts.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { Input, Output } from '../../../src/kernel/action-names.js'
import { ACTION_VERSION } from '../../../src/runtime/version.js'
import { entriesOf, parseActionYml } from '../../../scripts/readme-tables.js'

const actionYml = readFileSync(new URL('../../../action.yml', import.meta.url), 'utf8')

const action = parseActionYml(actionYml)
const names = (section: 'inputs' | 'outputs') => entriesOf(action, section).map((entry) => entry.name)

/** The `with:` keys of every step that runs this action (`uses: ./`) in a workflow file. */
function localActionInputs(workflow: string): string[][] {
  const steps = workflow.split(/\n(?=\s*- )/).filter((step) => /^\s*(- )?uses: \.\/\s*$/m.test(step))
  return steps.map((step) => {
    const block = /^(\s*)with:\n((?:\1 {2}.*\n?)*)/m.exec(step)
    return block ? [...block[2].matchAll(/^\s*(\w+):/gm)].map((m) => m[1]) : []
  })
}

describe('action.yml', () => {
  it('declares exactly the inputs the code reads, each described', () => {
    // entriesOf throws on an entry without a description.
    expect(names('inputs').sort()).toEqual(Object.values(Input).sort())
  })

  it('declares exactly the outputs the code sets, each described', () => {
    expect(names('outputs').sort()).toEqual(Object.values(Output).sort())
  })

  it('has a description the Marketplace shows whole (125 characters at most)', () => {
    const description = String(action.description)
    expect(description).toMatch(/^Ask the documentation agent job service/)
    expect(description).not.toContain('\n')
    expect(description.length).toBeLessThanOrEqual(125)
  })

  it('runs the bundle on node24', () => {
    expect(actionYml).toMatch(/^runs:\n {2}using: node24\n {2}main: dist\/index\.js$/m)
  })

  it('is run in the test workflow with inputs it declares, the required ones included', () => {
    const workflow = readFileSync(new URL('../../../.github/workflows/test.yml', import.meta.url), 'utf8')
    const runs = localActionInputs(workflow)
    const required = entriesOf(action, 'inputs').filter((entry) => entry.required)
    expect(runs.length).toBeGreaterThan(0)
    for (const given of runs) {
      expect(given.filter((name) => !names('inputs').includes(name))).toEqual([])
      expect(required.map((entry) => entry.name).filter((name) => !given.includes(name))).toEqual([])
    }
  })

  it('sends the version package.json gives in its User-Agent', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      version: string
    }
    expect(ACTION_VERSION).toBe(pkg.version)
  })
})
