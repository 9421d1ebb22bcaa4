// Vitest's global setup: the action-level tests run the bundle that the current src/ builds, not the
// committed dist/ (which `.ci/run` checks separately). The build goes to a cache folder, keyed by a
// hash of everything that goes into it, so a suite run after no change to the sources does not wait
// for ncc again.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const ROOT = join(import.meta.dirname, '..', '..')
const CACHE = join(ROOT, 'node_modules', '.cache', 'action-under-test')
const INPUTS = ['src', 'scripts/bundle.js', 'scripts/write-licenses.js', 'package-lock.json', 'tsconfig.json']

export default function setup(): void {
  const hash = sourceHash()
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

function sourceHash(): string {
  const hash = createHash('sha256')
  for (const file of INPUTS.flatMap((path) => filesUnder(join(ROOT, path)))) {
    hash.update(file.slice(ROOT.length)).update('\0').update(readFileSync(file)).update('\0')
  }
  return hash.digest('hex')
}

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return []
  if (!statSync(path).isDirectory()) return [path]
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()
}
