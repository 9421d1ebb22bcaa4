// @ts-check
// Builds the action from src/ into a folder (dist/ by default): ncc's bundle, its split chunks
// minified as ncc minifies the entry, then the licenses of every package it can contain.
// `npm run bundle` writes dist/, which is committed; the test suite builds the same way into a
// folder of its own (test/support/build-action.ts), so that the tests always run what the current
// sources build.
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { minify } from 'terser'
import { BUNDLE_SOURCES, hashFiles, SOURCE_HASH_FILE } from './source-hash.js'

const out = process.argv[2] ?? 'dist'
const ENTRY = 'index.js'
const ncc = createRequire(import.meta.url).resolve('@vercel/ncc/dist/ncc/cli.js')

// ncc writes over the folder without emptying it: a chunk the sources no longer split off would stay,
// dead but shipped (and kept by the check that dist/ is what the sources build).
rmSync(out, { recursive: true, force: true })
execFileSync(
  process.execPath,
  [ncc, 'build', 'src/index.ts', '-o', out, '--minify', '--quiet', '-e', 'supports-color'],
  { stdio: 'inherit' }
)

// `ncc --minify` minifies the entry only, and leaves the chunks that dynamic import()s split off (the
// GitHub client) as webpack wrote them. These are the options ncc gives terser for the entry: names
// only, no rewriting of the code, class and function names kept (Octokit's errors are told apart
// by them).
for (const name of readdirSync(out)) {
  if (!name.endsWith('.js') || name === ENTRY) continue
  const file = join(out, name)
  const minified = await minify(readFileSync(file, 'utf8'), {
    module: true,
    compress: false,
    mangle: { keep_classnames: true, keep_fnames: true }
  })
  if (minified.code === undefined) throw new Error(`terser returned nothing for ${file}.`)
  writeFileSync(file, minified.code)
}

// Every file's module functions in parentheses, which V8 reads as "called at once" and compiles as it
// loads the file. Minified, they lose the parentheses webpack writes, and V8 then skims each module's
// function when it loads the file and parses it again when the module runs: nearly every module of
// index.js runs before the create, so start-up paid for reading the bundle twice (about 15 ms of the
// action's 110 to its first request, measured side by side with npm run bench).
for (const name of readdirSync(out)) {
  if (!name.endsWith('.js')) continue
  const file = join(out, name)
  writeFileSync(file, await compiledOnLoad(readFileSync(file, 'utf8'), file))
}

execFileSync(process.execPath, ['scripts/write-licenses.js', join(out, 'licenses.txt')], { stdio: 'inherit' })

// What it was built from, for the demo to tell a dist/ older than src/ (scripts/source-hash.js).
writeFileSync(join(out, SOURCE_HASH_FILE), `${hashFiles('.', BUNDLE_SOURCES)}\n`)

/**
 * Terser's syntax tree, as far as compiledOnLoad reads it (terser's own types leave it out).
 * @typedef {{ pos: number }} Token
 * @typedef {object} Node
 * @property {string} TYPE
 * @property {Token} start
 * @property {Token} end
 * @property {unknown} [key]
 * @property {Node} [value]
 * @property {Node[]} [properties]
 * @property {Node[]} [body]
 * @property {Node[]} [definitions]
 * @property {Node} [exported_definition]
 */

/**
 * The bundle with each function of webpack's module table in parentheses. The table is the one object
 * of the file's top level whose keys are all module ids (`var t={770:(e,t,r)=>{…},…}` in the entry,
 * `export const modules={…}` in a chunk); terser's parse says where each function starts, and each
 * ends just before the comma that precedes the next id (or the table's closing brace).
 * @param {string} code @param {string} file
 */
async function compiledOnLoad(code, file) {
  const parsed = await minify(
    code,
    /** @type {import('terser').MinifyOptions} */ ({
      module: true,
      compress: false,
      mangle: false,
      output: { ast: true, code: false }
    })
  )
  const ast = /** @type {{ ast?: Node }} */ (parsed).ast
  const tables = (ast?.body ?? [])
    .flatMap((statement) => (statement.exported_definition ?? statement).definitions ?? [])
    .map((definition) => definition.value)
    .filter((value) => value?.TYPE === 'Object')
    .map((value) => /** @type {Node & { properties: Node[] }} */ (value))
    .filter(({ properties }) => properties.length > 0 && properties.every(isModuleFunction))
  if (tables.length !== 1)
    throw new Error(`${file}: expected one table of modules at its top level, found ${tables.length}.`)
  const [table] = tables
  /** @type {[number, string][]} */
  const inserts = []
  table.properties.forEach((property, i) => {
    const next = table.properties[i + 1]
    const end = next ? code.lastIndexOf(',', next.start.pos) : table.end.pos
    if (code[end - 1] !== '}') throw new Error(`${file}: module ${String(property.key)} does not end where expected.`)
    inserts.push([property.value?.start.pos ?? -1, '('], [end, ')'])
  })
  const pieces = []
  let from = 0
  for (const [at, text] of inserts.sort(([a], [b]) => a - b)) {
    pieces.push(code.slice(from, at), text)
    from = at
  }
  return pieces.join('') + code.slice(from)
}

/** A property of webpack's module table: a module id and its function. @param {Node} property */
function isModuleFunction(property) {
  return /^\d+$/.test(String(property.key)) && /^(Arrow|Function)$/.test(property.value?.TYPE ?? '')
}
