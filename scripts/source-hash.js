// @ts-check
// A hash of the sources a bundle is built from, written beside the bundle by scripts/bundle.js, so
// that a script running the committed dist/ (the demo) can tell when src/ has changed since: file
// times say nothing after a git clone or checkout. Node's built-ins only: the demo needs no install.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'

/**
 * What a bundle is built from: the action's sources, the build's own scripts and settings, and the
 * locked dependencies. A bundle whose recorded hash matches these is what they build, byte for byte
 * (`.ci/run` checks that the build is reproducible), so the suite may run it rather than build again.
 */
export const BUNDLE_SOURCES = [
  'src',
  'scripts/bundle.js',
  'scripts/write-licenses.js',
  'package-lock.json',
  'tsconfig.json'
]
/** The file, in the bundle's folder, that holds the hash of BUNDLE_SOURCES it was built from. */
export const SOURCE_HASH_FILE = 'source-hash.txt'

/**
 * A sha256 of the files under `paths` (folders or files, relative to `root`): their paths, with /
 * on every system, and their bytes, in a fixed order.
 * @param {string} root
 * @param {string[]} paths
 */
export function hashFiles(root, paths) {
  const hash = createHash('sha256')
  for (const file of paths.flatMap((path) => filesUnder(join(root, path)))) {
    hash.update(relative(root, file).split(sep).join('/')).update('\0').update(readFileSync(file)).update('\0')
  }
  return hash.digest('hex')
}

/**
 * Whether the bundle in `folder` was built from the sources `root` holds now: `current`, `stale`,
 * or `unknown` when the bundle records no hash (built before bundles did).
 * @param {string} root
 * @param {string} folder
 * @returns {'current' | 'stale' | 'unknown'}
 */
export function bundleFreshness(root, folder) {
  const stamp = join(root, folder, SOURCE_HASH_FILE)
  if (!existsSync(stamp)) return 'unknown'
  return readFileSync(stamp, 'utf8').trim() === hashFiles(root, BUNDLE_SOURCES) ? 'current' : 'stale'
}

/** @param {string} path */
function filesUnder(path) {
  if (!existsSync(path)) return []
  if (!statSync(path).isDirectory()) return [path]
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()
}
