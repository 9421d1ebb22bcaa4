// @ts-check
// Builds the action from src/ into a folder (dist/ by default): ncc's bundle, then the licenses of
// every package it can contain. `npm run bundle` writes dist/, which is committed; the test suite
// builds the same way into a folder of its own (test/support/build-action.ts), so that the tests
// always run what the current sources build.
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'

const out = process.argv[2] ?? 'dist'
const ncc = createRequire(import.meta.url).resolve('@vercel/ncc/dist/ncc/cli.js')

execFileSync(process.execPath, [ncc, 'build', 'src/index.ts', '-o', out, '--minify', '--quiet'], { stdio: 'inherit' })
execFileSync(process.execPath, ['scripts/write-licenses.js', join(out, 'licenses.txt')], { stdio: 'inherit' })
