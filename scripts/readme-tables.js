// @ts-check
// `npm run readme:tables`: the README's inputs and outputs tables are generated from action.yml, so
// that what users read and what the runner accepts cannot drift apart. With --write it rewrites the
// tables in README.md; without, it exits 1 with a sentence when they differ. Node's built-ins only:
// no YAML package is installed, so action.yml's simple shape is read by a small, strict parser here.
import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** @typedef {{ [key: string]: string | YamlMap | null }} YamlMap */

/**
 * Parses the shape action.yml has: nested mappings whose values are plain, quoted or block scalars
 * (`>-`, `>`, `|-`, `|`), with comments and blank lines. Anything else (sequences, flow
 * collections, anchors, tabs, a plain scalar over several lines) is an error naming the line: this
 * is a reader for this one file, not for YAML at large. Every scalar stays a string.
 * @param {string} text
 * @returns {YamlMap}
 */
export function parseActionYml(text) {
  const lines = text.replace(/\r\n?/g, '\n').split('\n')
  let at = 0

  /** @param {string} why @returns {never} */
  const fail = (why) => {
    throw new Error(
      `action.yml line ${at + 1}: ${why}. scripts/readme-tables.js reads only mappings of plain, ` +
        `quoted and block scalars.`
    )
  }
  /** @param {string} line */
  const blank = (line) => /^\s*(#.*)?$/.test(line)
  /** @param {string} line */
  const indentOf = (line) => line.length - line.trimStart().length
  const nextContent = () => {
    let i = at
    while (i < lines.length && blank(lines[i])) i++
    return i
  }

  /** @param {number} indent @returns {YamlMap} */
  function mapping(indent) {
    /** @type {YamlMap} */
    const map = {}
    for (at = nextContent(); at < lines.length; at = nextContent()) {
      const line = lines[at]
      if (/^ *\t/.test(line)) fail('a tab in the indentation')
      const lineIndent = indentOf(line)
      if (lineIndent < indent) break
      if (lineIndent > indent) fail('an indentation deeper than the mapping it is in')
      const entry = /^ *([A-Za-z_][\w-]*):(?: +(.*))?$/.exec(line)
      if (!entry) fail(`'${line.trim()}' is not a "key: value" line`)
      const [, key, rest = ''] = entry
      if (Object.hasOwn(map, key)) fail(`${key} is given twice`)
      const value = rest.replace(/^#.*$/, '').trim()
      if (value === '') {
        at++
        const next = nextContent()
        map[key] = next < lines.length && indentOf(lines[next]) > indent ? mapping(indentOf(lines[next])) : null
      } else if (/^[>|]/.test(value)) {
        const header = value
        at++
        map[key] = block(header, indent)
      } else {
        map[key] = scalar(value)
        at++
      }
    }
    return map
  }

  /**
   * A `>-`, `>`, `|-` or `|` block under a key indented `parentIndent`.
   * @param {string} header
   * @param {number} parentIndent
   */
  function block(header, parentIndent) {
    const style = /^([>|])(-?)$/.exec(header)
    if (!style) fail(`the block header '${header}' is not one of >-, >, |- or |`)
    /** @type {string[]} */
    const body = []
    let indent = -1
    for (; at < lines.length; at++) {
      const line = lines[at]
      if (line.trim() === '') {
        body.push('')
        continue
      }
      if (indentOf(line) <= parentIndent) break
      if (indent === -1) indent = indentOf(line)
      if (indentOf(line) < indent) fail('a block line indented less than the block')
      if (style[1] === '>' && indentOf(line) > indent) fail('a more-indented line in a folded block')
      body.push(line.slice(indent))
    }
    while (body.length > 0 && body[body.length - 1] === '') body.pop()
    const joined = style[1] === '|' ? body.join('\n') : fold(body)
    return style[2] === '-' ? joined : `${joined}\n`
  }

  /** @param {string} value */
  function scalar(value) {
    if (value.startsWith("'")) {
      const quoted = /^'((?:[^']|'')*)'\s*(#.*)?$/.exec(value)
      if (!quoted) fail('a single-quoted value that does not end where the line does')
      return quoted[1].replace(/''/g, "'")
    }
    if (value.startsWith('"')) {
      const quoted = /^("(?:[^"\\]|\\.)*")\s*(#.*)?$/.exec(value)
      if (!quoted) fail('a double-quoted value that does not end where the line does')
      try {
        return /** @type {string} */ (JSON.parse(quoted[1]))
      } catch {
        return fail('a double-quoted value with an escape this reader does not know')
      }
    }
    if (/^[[{&*!%@`,-]/.test(value)) fail(`'${value}' is a YAML form this reader does not take`)
    const plain = value.replace(/\s+#.*$/, '')
    if (/:\s/.test(plain)) fail(`'${plain}' holds ": ", which YAML does not allow in a plain value: quote it`)
    return plain
  }

  const root = mapping(0)
  if (at < lines.length) fail('an indented line outside any mapping')
  return root
}

/** YAML folding: lines join with a space, and each empty line becomes a line break. @param {string[]} lines */
function fold(lines) {
  let text = ''
  let previous = ''
  for (const line of lines) {
    if (line === '') text += '\n'
    else text += previous === '' ? line : ` ${line}`
    previous = line
  }
  return text
}

/** @typedef {{ name: string, description: string, required: boolean, default: string | null }} Entry */

/**
 * The inputs or outputs of action.yml, in the file's order.
 * @param {YamlMap} action
 * @param {'inputs' | 'outputs'} section
 * @returns {Entry[]}
 */
export function entriesOf(action, section) {
  const map = action[section]
  if (!map || typeof map !== 'object') throw new Error(`action.yml has no ${section} mapping.`)
  return Object.entries(map).map(([name, spec]) => {
    if (!spec || typeof spec !== 'object') throw new Error(`action.yml: ${section}.${name} is not a mapping.`)
    const field = (/** @type {string} */ key) => {
      const value = spec[key]
      if (value !== undefined && typeof value !== 'string') {
        throw new Error(`action.yml: ${section}.${name}.${key} is not a value.`)
      }
      return value ?? null
    }
    const description = field('description')
    if (!description) throw new Error(`action.yml: ${section}.${name} has no description.`)
    return { name, description, required: field('required') === 'true', default: field('default') }
  })
}

/** Text safe inside a Markdown table cell, on one line. @param {string} text */
function cell(text) {
  return text.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|').replace(/</g, '&lt;')
}

/**
 * A table Prettier leaves alone: it would pad every row to the widest, which the README's size
 * cannot afford.
 * @param {string[]} header
 * @param {string[][]} rows
 */
function table(header, rows) {
  const line = (/** @type {string[]} */ cells) => `| ${cells.join(' | ')} |`
  return ['<!-- prettier-ignore -->', line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n')
}

/** @param {YamlMap} action */
export function inputsTable(action) {
  return table(
    ['input', 'default', 'description'],
    entriesOf(action, 'inputs').map((input) => [
      `\`${input.name}\``,
      input.required ? 'required' : input.default === null ? '' : `\`${cell(input.default)}\``,
      cell(input.description)
    ])
  )
}

/** @param {YamlMap} action */
export function outputsTable(action) {
  return table(
    ['output', 'description'],
    entriesOf(action, 'outputs').map((output) => [`\`${output.name}\``, cell(output.description)])
  )
}

/** The tables README.md holds, each between `<!-- NAME:start -->` and `<!-- NAME:end -->`. */
export const TABLES = /** @type {const} */ ({ inputs: inputsTable, outputs: outputsTable })

/** @param {string} name */
function markers(name) {
  return { start: `<!-- ${name}:start -->`, end: `<!-- ${name}:end -->` }
}

/**
 * The README with every generated table as action.yml says it should be.
 * @param {string} readme
 * @param {string} actionYml
 */
export function renderReadme(readme, actionYml) {
  const action = parseActionYml(actionYml)
  let text = readme
  for (const [name, render] of Object.entries(TABLES)) {
    const { start, end } = markers(name)
    const from = text.indexOf(start)
    const to = text.indexOf(end)
    if (from === -1 || to === -1 || to < from || text.indexOf(start, from + 1) !== -1) {
      throw new Error(
        `README.md needs exactly one ${start} … ${end} pair, in that order, where the ${name} table goes.`
      )
    }
    text = `${text.slice(0, from + start.length)}\n\n${render(action)}\n\n${text.slice(to)}`
  }
  return text
}

/**
 * The names of the tables in the README that differ from what action.yml gives.
 * @param {string} readme
 * @param {string} actionYml
 * @returns {string[]}
 */
export function staleTables(readme, actionYml) {
  const rendered = renderReadme(readme, actionYml)
  return Object.keys(TABLES).filter((name) => {
    const { start, end } = markers(name)
    const between = (/** @type {string} */ text) => text.slice(text.indexOf(start), text.indexOf(end))
    return between(readme) !== between(rendered)
  })
}

function main() {
  const root = fileURLToPath(new URL('..', import.meta.url))
  const readmePath = resolve(root, 'README.md')
  const readme = readFileSync(readmePath, 'utf8')
  const actionYml = readFileSync(resolve(root, 'action.yml'), 'utf8')
  if (process.argv.includes('--write')) {
    const rendered = renderReadme(readme, actionYml)
    if (rendered !== readme) writeFileSync(readmePath, rendered)
    console.log(rendered === readme ? 'README.md tables already match action.yml.' : 'README.md tables rewritten.')
    return
  }
  const stale = staleTables(readme, actionYml)
  if (stale.length > 0) {
    console.error(
      `README.md's ${stale.join(' and ')} table${stale.length > 1 ? 's differ' : ' differs'} from action.yml: ` +
        `run 'npm run readme:tables' and commit README.md.`
    )
    process.exitCode = 1
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main()
  } catch (error) {
    console.error(/** @type {Error} */ (error).message)
    process.exitCode = 1
  }
}
