// Which changed files tell the agent the most. Source comes first, then tests; the rest is named
// but its diff is never shown: a lockfile, a generated or vendored file or a binary says what
// changed by its name, and its diff would only crowd out the code's. A file that holds credentials
// by convention (.env, a private key, .npmrc...) is named with its line counts, and its diff is
// never sent, whatever is in it (the names: safety/secret-files.ts).
import { isSecretFile } from '../safety/secret-files.js'

/** What a changed file is, for ordering and for whether its diff is worth showing. */
export type FileKind = 'source' | 'test' | 'lockfile' | 'generated' | 'vendored' | 'binary' | 'secret'

const RANK: Record<FileKind, number> = {
  source: 0,
  test: 1,
  lockfile: 2,
  generated: 2,
  vendored: 2,
  binary: 2,
  secret: 2
}

const LOCKFILES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lock',
  'bun.lockb',
  'deno.lock',
  'cargo.lock',
  'gemfile.lock',
  'poetry.lock',
  'pipfile.lock',
  'uv.lock',
  'pdm.lock',
  'composer.lock',
  'go.sum',
  'go.work.sum',
  'flake.lock',
  'mix.lock',
  'pubspec.lock',
  'podfile.lock',
  'package.resolved',
  'packages.lock.json',
  'gradle.lockfile',
  'conan.lock'
])
const VENDORED_DIRS = /(^|\/)(vendor|vendors|third[_-]party|node_modules|bower_components|external|\.yarn)\//i
const GENERATED_DIRS = /(^|\/)(dist|build|out|target|coverage|generated|__generated__|\.next)\//i
const GENERATED_NAMES = /(\.min\.(js|css)|\.map|\.pb\.go|_pb2\.py|\.generated\.\w+|\.g\.dart|\.designer\.cs)$/i
const BINARY_EXTENSIONS =
  /\.(png|jpe?g|gif|bmp|ico|webp|avif|tiff?|psd|pdf|zip|gz|tgz|bz2|xz|7z|rar|jar|war|whl|egg|woff2?|ttf|otf|eot|mp[34]|mov|avi|webm|wav|ogg|flac|wasm|exe|dll|so|dylib|a|o|lib|bin|class|pyc|pyo|sqlite|db)$/i
const TEST_DIRS = /(^|\/)(tests?|__tests__|spec|specs|testdata|test-data|fixtures|e2e|__snapshots__|__mocks__)\//i
const TEST_NAMES =
  /([._-](test|tests|spec)\.\w+|_test\.go|(^|\/)test_[^/]+\.py|Tests?\.(java|kt|cs|swift|scala)|\.snap)$/

export function fileKind(path: string): FileKind {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase()
  if (isSecretFile(path)) return 'secret'
  if (LOCKFILES.has(name) || name.endsWith('.lock')) return 'lockfile'
  if (BINARY_EXTENSIONS.test(name)) return 'binary'
  if (VENDORED_DIRS.test(path)) return 'vendored'
  if (GENERATED_DIRS.test(path) || GENERATED_NAMES.test(name)) return 'generated'
  if (TEST_DIRS.test(path) || TEST_NAMES.test(path)) return 'test'
  return 'source'
}

/** Whether a file of this kind may have its diff shown. */
export function diffWorthShowing(kind: FileKind): boolean {
  return kind === 'source' || kind === 'test'
}

/** The files, most telling first; files of the same rank keep the order GitHub gave them. */
export function mostTellingFirst<T extends { path: string }>(files: readonly T[]): T[] {
  return files
    .map((file, index) => ({ file, index, rank: RANK[fileKind(file.path)] }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ file }) => file)
}
