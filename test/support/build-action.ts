// Vitest's global setup: the action-level tests run the bundle that the current src/ builds. That is
// the committed dist/ when it records the hash of exactly these sources (a fresh clone, where the
// build would cost the suite half a minute of CPU); otherwise a build in a cache folder, keyed by the
// same hash, so a suite run after no change to the sources does not wait for ncc again either.
// `.ci/run` checks separately that dist/ is what the sources build.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { BUNDLE_SOURCES, bundleFreshness, hashFiles } from '../../scripts/source-hash.js'

const ROOT = join(import.meta.dirname, '..', '..')
const CACHE = join(ROOT, 'node_modules', '.cache', 'action-under-test')

export default function setup(): void {
  // The workers inherit the environment: test/support/run-action.js runs this bundle.
  process.env.ACTION_ENTRY = join(builtFromTheSources(), 'index.js')
}

/** A folder holding the bundle the current sources build. */
function builtFromTheSources(): string {
  if (bundleFreshness(ROOT, 'dist') === 'current') return join(ROOT, 'dist')
  const hash = hashFiles(ROOT, BUNDLE_SOURCES)
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
  return CACHE
}
