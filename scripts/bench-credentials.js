// @ts-check
// Measures the credential scan (src/safety/credentials/, bundled with ncc into node_modules/.cache):
// - recall: a corpus of real-shape samples of every format in gitleaks' public rule list (generated
//   afresh from each format's shape with a seeded generator: scripts/credential-samples.js), each in
//   a diff line, an environment assignment, a JSON value and a commit message; a sample counts as
//   blanked when none of its secret is left in what the scan returns;
// - false positives: ordinary text, this project's history (`git log -p`) and the READMEs, sources and
//   package.json files of the installed packages under node_modules (read here, nothing downloaded);
//   every line the scan changed is printed so that a reader can judge it;
// - recall through encodings: every self-naming format right after each escape (`\n`, `%3D`, …), split
//   by a line continuation, or URL-encoded whole, in a diff and in a pull request's body;
// - false positives on public values: a corpus of vendors' published examples, fingerprints, cache
//   and idempotency keys, page tokens and digests as docs write them (credential-public-values.js);
// - speed: milliseconds per 1,000 lines, on ordinary text and on text dense with credentials; and
//   for each hostile shape (credential-hostile.js), the time for 4 MiB against 1 MiB, and against
//   ordinary text of the same size.
// `npm run bench:credentials [-- --per-format N] [-- --history <range>]`; exits 1 below 95 % recall,
// below 100 % through encodings, with any line of the installed packages changed, or when 4 times a
// hostile text takes more than 8 times as long. This project's history is listed, not counted
// against it: the scan's own tests hold credential-shaped fixtures on purpose, which must be blanked.
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { HOSTILE_SHAPES, ordinaryText } from './credential-hostile.js'
import { PUBLIC_VALUES } from './credential-public-values.js'
import { credentialSamples, escapedSamples, SECRET_FILE_SAMPLES } from './credential-samples.js'

const args = process.argv.slice(2)
const option = (/** @type {string} */ name, /** @type {string} */ fallback) => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : fallback
}
const perFormat = Number(option('--per-format', '10'))
const historyRange = option('--history', '')
const verbose = args.includes('--verbose')

const out = join('node_modules', '.cache', 'credential-bench')
const ncc = createRequire(import.meta.url).resolve('@vercel/ncc/dist/ncc/cli.js')
execFileSync(process.execPath, [ncc, 'build', 'scripts/credential-bench-entry.ts', '-o', out, '--quiet'], {
  stdio: 'inherit'
})
/** @type {{ blankText: (text: string) => { text: string, kinds: string[] }, fileKind: (path: string) => string }} */
const scan = await import(pathToFileURL(resolve(out, 'index.js')).href)

const pct = (/** @type {number} */ n, /** @type {number} */ d) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)} %`)

// Recall.
const samples = credentialSamples(perFormat)
/** @type {Map<string, { caught: number, total: number, missed: Set<string> }>} */
const families = new Map()
/** @type {typeof families} */
const rules = new Map()
/** @type {typeof families} */
const settings = new Map()
let caught = 0
const missedExamples = []
for (const sample of samples) {
  const { text } = scan.blankText(sample.text)
  const ok = sample.secrets.every((secret) => !leaks(text, secret))
  if (ok) caught++
  else if (missedExamples.length < 40) missedExamples.push(sample)
  for (const [map, key] of /** @type {[typeof families, string][]} */ ([
    [families, sample.family],
    [rules, sample.rule],
    [settings, sample.where]
  ])) {
    const entry = map.get(key) ?? { caught: 0, total: 0, missed: new Set() }
    entry.total++
    if (ok) entry.caught++
    else entry.missed.add(sample.rule)
    map.set(key, entry)
  }
}

/**
 * Whether any of the secret is left: the whole, or (for a long one) a quarter of it.
 * @param {string} text
 * @param {string} secret
 */
function leaks(text, secret) {
  if (text.includes(secret)) return true
  if (secret.length < 40) return false
  const q = Math.floor(secret.length / 4)
  for (let i = 0; i < 4; i++) if (text.includes(secret.slice(i * q, (i + 1) * q))) return true
  return false
}

const ruleCount = rules.size
const wholeRules = [...rules.values()].filter((r) => r.caught === r.total).length
console.log(
  `Credential samples: ${samples.length} (${ruleCount} formats: gitleaks' rule list and connection strings with a password, ${perFormat} values each, in 4 settings)`
)
console.log(
  `Blanked: ${caught} of ${samples.length}, ${pct(caught, samples.length)}; formats caught in every sample: ${wholeRules} of ${ruleCount}\n`
)
console.log('Recall per family:')
for (const [family, r] of [...families].sort(
  (a, b) => a[1].caught / a[1].total - b[1].caught / b[1].total || a[0].localeCompare(b[0])
)) {
  const missed = r.missed.size ? `  missed in: ${[...r.missed].join(', ')}` : ''
  console.log(
    `  ${family.padEnd(26)} ${String(r.caught).padStart(5)} / ${String(r.total).padEnd(5)} ${pct(r.caught, r.total).padStart(8)}${missed}`
  )
}
console.log('\nRecall per setting:')
for (const [where, r] of settings)
  console.log(
    `  ${where.padEnd(26)} ${String(r.caught).padStart(5)} / ${String(r.total).padEnd(5)} ${pct(r.caught, r.total).padStart(8)}`
  )
if (missedExamples.length && args.includes('--show-missed')) {
  console.log('\nSome samples missed:')
  for (const s of missedExamples) console.log(`  [${s.rule}, ${s.where}] ${JSON.stringify(s.text).slice(0, 220)}`)
}

// Recall through encodings.
const escaped = escapedSamples()
/** @type {Map<string, { caught: number, total: number }>} */
const byEscape = new Map()
let escapedCaught = 0
for (const sample of escaped) {
  const { text } = scan.blankText(sample.text)
  const ok = sample.secrets.every((secret) => !leaks(text, secret))
  if (ok) escapedCaught++
  else if (verbose)
    console.log(
      `  missed: [${sample.rule}, ${sample.escape}, ${sample.where}] ${JSON.stringify(sample.text).slice(0, 200)}`
    )
  const entry = byEscape.get(sample.escape) ?? { caught: 0, total: 0 }
  entry.total++
  if (ok) entry.caught++
  byEscape.set(sample.escape, entry)
}
console.log(
  `\nThrough encodings: ${escapedCaught} of ${escaped.length} blanked, ${pct(escapedCaught, escaped.length)} (each self-naming format after each escape, in a diff and in a pull request's body)`
)
console.log(
  `  ${[...byEscape].map(([escape, r]) => `${escape === 'continuation' ? 'split by \\⏎' : escape} ${r.caught}/${r.total}`).join(', ')}`
)

// Secret files.
const files = SECRET_FILE_SAMPLES.filter(([, path]) => scan.fileKind(path) === 'secret').length
console.log(`\nSecret files named, their diff never sent: ${files} of ${SECRET_FILE_SAMPLES.length}`)
for (const [, path] of SECRET_FILE_SAMPLES)
  if (scan.fileKind(path) !== 'secret') console.log(`  not a secret file: ${path}`)

// False positives.
/** @type {{ source: string, text: string, fixtures?: boolean }[]} */
const ordinary = []
const history = execFileSync('git', ['log', '-p', '--no-color', ...(historyRange ? [historyRange] : [])], {
  encoding: 'utf8',
  maxBuffer: 512 * 1024 * 1024
})
// Listed for a reader to judge, not a failure: the history holds the scan's own test fixtures.
ordinary.push({ source: `this project's history (git log -p ${historyRange})`.trim(), text: history, fixtures: true })
const modules = readdirSync('node_modules')
  .flatMap((name) =>
    name.startsWith('@') ? readdirSync(join('node_modules', name)).map((sub) => `${name}/${sub}`) : [name]
  )
  .filter((name) => !name.startsWith('.') && !/secretlint|secret|credential|token/i.test(name))
  .sort()
/**
 * @param {string} source
 * @param {number} budget
 * @param {(dir: string) => string[]} pick
 */
const take = (source, budget, pick) => {
  let lines = 0
  const parts = []
  for (const name of modules) {
    for (const path of pick(join('node_modules', name))) {
      let text
      try {
        if (!statSync(path).isFile() || statSync(path).size > 200_000) continue
        text = readFileSync(path, 'utf8')
      } catch {
        continue
      }
      parts.push(text)
      lines += text.split('\n').length
      if (lines >= budget) break
    }
    if (lines >= budget) break
  }
  ordinary.push({ source, text: parts.join('\n') })
}
/**
 * @param {string} dir
 * @param {RegExp} pattern
 * @returns {string[]}
 */
const filesIn = (dir, pattern) => {
  try {
    return readdirSync(dir)
      .filter((f) => pattern.test(f))
      .sort()
      .map((f) => join(dir, f))
  } catch {
    return []
  }
}
take('READMEs of installed packages (prose)', 15000, (/** @type {string} */ dir) => filesIn(dir, /^readme\.md$/i))
take('JavaScript and TypeScript sources of installed packages (code)', 30000, (/** @type {string} */ dir) => [
  ...filesIn(dir, /\.(?:js|mjs|cjs|d\.ts)$/),
  ...filesIn(join(dir, 'lib'), /\.(?:js|mjs|cjs|d\.ts)$/),
  ...filesIn(join(dir, 'dist'), /\.(?:js|mjs|cjs|d\.ts)$/)
])
take('package.json, YAML and other configuration of installed packages', 8000, (/** @type {string} */ dir) => [
  ...filesIn(dir, /^(?:package\.json|tsconfig\.json|.*\.ya?ml|\.npmignore|\.editorconfig)$/)
])

let ordinaryLines = 0
let changed = 0
let changedOutsideFixtures = 0
console.log('\nOrdinary text:')
for (const { source, text, fixtures } of ordinary) {
  // Markers already in the text (this project's docs and tests name them) are set apart first.
  const input = text.replaceAll('[redacted: ', '[marker in the source: ')
  const lines = input.split('\n').length
  ordinaryLines += lines
  const { text: output } = scan.blankText(input)
  const before = input.split('\n')
  const after = output.split('\n')
  // Every line not as it was (when the line count is kept), else every line with a marker (a blanked
  // key block joins its lines).
  const hits =
    before.length === after.length
      ? after.filter((line, i) => line !== before[i])
      : after.filter((line) => line.includes('[redacted: '))
  changed += hits.length
  if (!fixtures) changedOutsideFixtures += hits.length
  console.log(`  ${source}: ${lines.toLocaleString('en-US')} lines, ${hits.length} changed`)
  const shown = hits
  for (const line of shown.slice(0, verbose ? 1000 : 30)) console.log(`    ${line.slice(0, 200)}`)
}
console.log(
  `  In all: ${ordinaryLines.toLocaleString('en-US')} lines, ${changed} changed (${changedOutsideFixtures} outside this project's own fixtures)`
)

// Public values, as docs write them.
let publicChanged = 0
console.log('\nPublic values (published examples, fingerprints, cache and idempotency keys, page tokens, digests):')
for (const { what, text } of PUBLIC_VALUES) {
  const { text: output } = scan.blankText(text)
  if (output !== text) {
    publicChanged++
    console.log(`  changed: ${what}: ${output.slice(0, 160)}`)
  }
}
console.log(
  `  ${publicChanged} of ${PUBLIC_VALUES.length} changed: a false-positive rate of ${pct(publicChanged, PUBLIC_VALUES.length)}`
)

// Speed.
// CPU time of this process (user and system), not wall time: other work on the machine does not count.
// The best of a few rounds: the least disturbed by the rest of the machine.
const time = (/** @type {string} */ text, rounds = 5) => {
  scan.blankText(text)
  let best = Infinity
  for (let i = 0; i < rounds; i++) {
    const started = process.cpuUsage()
    scan.blankText(text)
    const used = process.cpuUsage(started)
    best = Math.min(best, (used.user + used.system) / 1000)
  }
  return best
}
const plain = ordinary.map((o) => o.text).join('\n')
const plainLines = plain.split('\n').length
const dense = samples.map((s) => s.text).join('\n')
const denseLines = dense.split('\n').length
const msPlain = time(plain)
const msDense = time(dense)
console.log('\nSpeed (CPU time of the scan, the best of 5 rounds):')
console.log(
  `  ordinary text: ${plainLines.toLocaleString('en-US')} lines in ${msPlain.toFixed(0)} ms, ${((1000 * msPlain) / plainLines).toFixed(2)} ms per 1,000 lines`
)
console.log(
  `  dense with credentials: ${denseLines.toLocaleString('en-US')} lines in ${msDense.toFixed(0)} ms, ${((1000 * msDense) / denseLines).toFixed(2)} ms per 1,000 lines`
)
const half = dense.slice(0, Math.floor(dense.length / 2))
const msHalf = time(half)
console.log(
  `  linear: half the dense text took ${msHalf.toFixed(0)} ms, the whole ${msDense.toFixed(0)} ms (ratio ${(msDense / msHalf).toFixed(2)})`
)

// Hostile text: 4 MiB against 1 MiB of each shape, and against ordinary text of the same size.
const MiB = 1024 * 1024
const msOrdinary1 = time(ordinaryText(MiB), 3)
const msOrdinary4 = time(ordinaryText(4 * MiB), 3)
console.log(
  `  ordinary text (synthetic diff): 1 MiB in ${msOrdinary1.toFixed(0)} ms, 4 MiB in ${msOrdinary4.toFixed(0)} ms (ratio ${(msOrdinary4 / msOrdinary1).toFixed(2)})`
)
let worstRatio = 0
for (const [shape, make] of Object.entries(HOSTILE_SHAPES)) {
  const ms1 = time(make(MiB), 3)
  const ms4 = time(make(4 * MiB), 3)
  worstRatio = Math.max(worstRatio, ms4 / ms1)
  console.log(
    `  hostile, ${shape}: 1 MiB in ${ms1.toFixed(0)} ms, 4 MiB in ${ms4.toFixed(0)} ms (ratio ${(ms4 / ms1).toFixed(2)}; ${(ms4 / msOrdinary4).toFixed(1)} × ordinary)`
  )
}
console.log(`  the time ratio for 4 × hostile input, worst shape: ${worstRatio.toFixed(2)} (linear: 4)`)

// The scan's share of the create's delay: a fresh process loads the scan's bundle and scans a
// context section as large as the default contextLimit (20,000 characters of this project's diffs),
// as a run does before its create. Wall time, median of 7 processes.
const section = history.slice(0, 20_000)
const loadAndScan = []
for (let i = 0; i < 7; i++) {
  const script = `const t=performance.now();const m=await import(${JSON.stringify(pathToFileURL(resolve(out, 'index.js')).href)});m.blankText(${JSON.stringify(section)});console.log(performance.now()-t)`
  const ms = Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }))
  loadAndScan.push(ms)
}
loadAndScan.sort((a, b) => a - b)
console.log(
  `  before the create: loading the scan and scanning a 20,000-character section took ${loadAndScan[3].toFixed(1)} ms (median of 7 fresh processes, wall time; ${loadAndScan[0].toFixed(1)}–${loadAndScan[6].toFixed(1)} ms)`
)

const recall = caught / samples.length
if (
  recall < 0.95 ||
  escapedCaught < escaped.length ||
  changedOutsideFixtures > 0 ||
  files < SECRET_FILE_SAMPLES.length ||
  worstRatio > 8
)
  process.exitCode = 1
