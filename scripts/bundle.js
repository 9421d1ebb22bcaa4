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

execFileSync(process.execPath, ['scripts/write-licenses.js', join(out, 'licenses.txt')], { stdio: 'inherit' })

// What it was built from, for the demo to tell a dist/ older than src/ (scripts/source-hash.js).
writeFileSync(join(out, SOURCE_HASH_FILE), `${hashFiles('.', BUNDLE_SOURCES)}\n`)
