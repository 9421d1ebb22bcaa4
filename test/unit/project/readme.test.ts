// The README is what users read first: its tables must say what action.yml says, it must stay short
// enough to read in five minutes, and no snippet in it (nor any example workflow) may teach pasting
// an output or event text into a shell script, where a crafted value would run as a command.
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { inputsTable, parseActionYml, renderReadme, staleTables } from '../../../scripts/readme-tables.js'

const root = new URL('../../../', import.meta.url)
const readme = readFileSync(new URL('README.md', root), 'utf8')
const actionYml = readFileSync(new URL('action.yml', root), 'utf8')
const examplesDir = new URL('examples/workflows/', root)
const examples = readdirSync(examplesDir)
  .filter((name) => name.endsWith('.yml'))
  .map((name) => ({ name, text: readFileSync(new URL(name, examplesDir), 'utf8') }))

/** The text of every `run:` in a workflow: an inline value, or the block indented under it. */
function runScripts(yaml: string): string[] {
  const lines = yaml.split('\n')
  const scripts: string[] = []
  lines.forEach((line, i) => {
    const run = /^(\s*)(?:- )?run:\s*(.*)$/.exec(line)
    if (!run) return
    const indent = run[1].length
    const body = [run[2]]
    for (let j = i + 1; j < lines.length && (lines[j].trim() === '' || lines[j].search(/\S/) > indent); j++) {
      body.push(lines[j])
    }
    scripts.push(body.join('\n'))
  })
  return scripts
}

/** The `${{ }}` expressions in a script that paste a step's output or the event's text into it. */
function pastedIntoScript(script: string): string[] {
  return [...script.matchAll(/\$\{\{([^}]*)\}\}/g)]
    .filter(([, expression]) => /\bsteps\.[\w-]+\.outputs\b|\bgithub\.event\b/.test(expression))
    .map(([whole]) => whole)
}

function yamlBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ya?ml\n([\s\S]*?)^```/gm)].map(([, body]) => body)
}

describe('README.md', () => {
  it('has the inputs and outputs tables action.yml gives (npm run readme:tables rewrites them)', () => {
    expect(staleTables(readme, actionYml)).toEqual([])
  })

  it('is at most 12 KB', () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(12 * 1024)
  })

  it.each(yamlBlocks(readme).map((block, i) => [i + 1, block]))(
    'YAML block %i passes outputs and event text to run: through env:',
    (_, block) => {
      expect(runScripts(block).flatMap(pastedIntoScript)).toEqual([])
    }
  )

  it('has YAML blocks with run: scripts for the checks above to read', () => {
    expect(yamlBlocks(readme).flatMap(runScripts).length).toBeGreaterThan(0)
  })
})

describe('examples/workflows', () => {
  it.each(examples.map(({ name, text }) => [name, text]))(
    '%s passes outputs and event text to run: through env:',
    (_, text) => {
      expect(runScripts(text).flatMap(pastedIntoScript)).toEqual([])
    }
  )
})

describe('scripts/readme-tables.js', () => {
  it('reads action.yml: folded blocks joined into one line, quoted defaults unquoted', () => {
    const action = parseActionYml(actionYml)
    const inputs = action.inputs as Record<string, Record<string, string>>
    expect(inputs.wait.default).toBe('true')
    expect(inputs.timeout.description).not.toContain('\n')
    expect(inputs.githubToken.default).toBe('${{ github.token }}')
  })

  it('refuses a YAML form it does not read, naming the line', () => {
    const lines = actionYml.split('\n')
    const at = lines.indexOf('outputs:')
    lines.splice(at, 0, 'extra: [a, b]')
    expect(() => parseActionYml(lines.join('\n'))).toThrow(`action.yml line ${at + 1}: '[a, b]' is a YAML form`)
  })

  it('puts an input action.yml gains into the table, with its default', () => {
    const withLanguage = actionYml.replace(
      /^outputs:/m,
      [
        '  language:',
        '    description: >-',
        '      The language the agent writes in: en, de',
        '      or fr | any.',
        "    default: 'en'",
        '',
        'outputs:'
      ].join('\n')
    )
    expect(inputsTable(parseActionYml(withLanguage))).toContain(
      '| `language` | `en` | The language the agent writes in: en, de or fr \\| any. |'
    )
  })

  it('says which table is stale, and rewrites it between its markers', () => {
    const stale = readme.replace('| `prLink` |', '| `prLinks` |')
    expect(staleTables(stale, actionYml)).toEqual(['outputs'])
    expect(renderReadme(stale, actionYml)).toBe(readme)
  })

  it('refuses a README without the markers, saying where the table goes', () => {
    expect(() => renderReadme('# A README\n', actionYml)).toThrow(/<!-- inputs:start -->/)
  })
})
