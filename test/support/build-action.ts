// Vitest's global setup: the action-level tests run the bundle that the current src/ builds, not the
// committed dist/ (which `.ci/run` checks separately). The build goes to a cache folder, keyed by a
// hash of everything that goes into it, so a suite run after no change to the sources does not wait
// for ncc again.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { hashFiles } from '../../scripts/source-hash.js'

const ROOT = join(import.meta.dirname, '..', '..')
const CACHE = join(ROOT, 'node_modules', '.cache', 'action-under-test')
const INPUTS = ['src', 'scripts/bundle.js', 'scripts/write-licenses.js', 'package-lock.json', 'tsconfig.json']

export default function setup(): void {
  const hash = hashFiles(ROOT, INPUTS)
  const stamp = join(CACHE, '.source-hash')
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== hash) {
    rmSync(CACHE, { recursive: true, force: true })
    try {
      execFileSync(process.execPath, ['scripts/bundle.js', CACHE], { cwd: ROOT, stdio: 'inherit' })
    } catch {
      throw new Error(
        'The action could not be built from src/ (see the output above), so the action-level tests cannot run.'
      )
    }
    writeFileSync(stamp, hash)
  }
  // The workers inherit the environment: test/support/run-action.js runs this bundle.
  process.env.ACTION_ENTRY = join(CACHE, 'index.js')
}
