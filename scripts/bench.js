// @ts-check
// `npm run bench`: the bundled action side by side with what a user would write instead, in one
// run, against the stand-in service on 127.0.0.1. Prints a Markdown table of medians, with the
// targets of issue 5 and whether each is met (the exit code is 1 when one is not).
//
//   node scripts/bench.js [--runs N] [--quick] [--node PATH] [--entry PATH]
//
// 1. Start-up: from just before the process is spawned to the moment the service has the POST
//    (both Date.now() in this process), for the action and for a minimal Node program that only
//    sends that POST (scripts/bench-minimal-post.js). Each run alone, after one warm-up run each.
// 2. Detection: jobs that stay active 3 s and 30 s; how long the step's process runs past the
//    job's end (its exit minus the moment the service turns the job final) and how many GETs it
//    made, for the action with default inputs and for a curl + jq loop (scripts/bench-curl-loop.sh).
//    These runs go concurrently, each with its own stand-in service, their starts 300 ms apart.
// 3. Bundle size (all JavaScript under dist/), peak memory of the action's runs (the kernel's
//    high-water mark of resident memory, written at exit by scripts/bench-peak-memory.js), and
//    what a default run loads: bundled modules run and Node built-ins, from an instrumented copy.
//
// Node built-ins and the test support files only: it runs on a fresh clone, with no install step.
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { ACTION_ENTRY, startAction } from '../test/support/run-action.js'
import { startStandInService } from '../test/support/stand-in-service.js'

const here = dirname(fileURLToPath(import.meta.url))
const MINIMAL_POST = join(here, 'bench-minimal-post.js')
const CURL_LOOP = join(here, 'bench-curl-loop.sh')
const PEAK_MEMORY = pathToFileURL(join(here, 'bench-peak-memory.js')).href
const SRC = join(here, '..', 'src')

const HELP = `Usage: node scripts/bench.js [options]
  --runs N      measured runs of each kind (default: 9 for start-up, 3 for detection)
  --quick       skip the 30 s job
  --node PATH   the node binary for the action and the minimal program (default: this one)
  --entry PATH  the bundle to measure (default: dist/index.js)`

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string' },
    quick: { type: 'boolean', default: false },
    node: { type: 'string' },
    entry: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false }
  }
})
if (args.help) {
  console.log(HELP)
  process.exit(0)
}
const runs = args.runs === undefined ? null : Number(args.runs)
if (runs !== null && !(Number.isInteger(runs) && runs > 0)) {
  console.error(`--runs must be a whole number above 0, not '${args.runs}'.\n\n${HELP}`)
  process.exit(2)
}
const STARTUP_RUNS = runs ?? 9
const DETECTION_RUNS = runs ?? 3
const CASES_MS = args.quick ? [3000] : [3000, 30_000]
const STAGGER_MS = 300
const ENTRY = args.entry ?? ACTION_ENTRY
const PROJECT = 'docs'
const PROMPT = 'Document the new --dry-run flag in the CLI reference.'

/** The runs under way: if one goes wrong, the others are stopped rather than left polling. */
const running = new Set()
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

const TARGET = { startupRatio: 1.5, bundleBytes: 1.5e6, peakBytes: 100e6, extraGets: 1 }

/**
 * @typedef {'action' | 'minimal' | 'minimalFetch' | 'curl'} Program
 * @typedef {import('../test/support/stand-in-service.js').StandInService} Service
 * @typedef {object} RunSpec
 * @property {Program} program
 * @property {number} activeMs How long the job stays active.
 * @property {boolean} [noWait] The action only creates the job (start-up runs).
 * @property {boolean} [report] Load bench-peak-memory.js into the run.
 * @property {string} [entry] Another bundle (the instrumented copy).
 * @property {number} [delayMs] Start this much later.
 * @typedef {object} Measured
 * @property {Program} program
 * @property {number} activeMs
 * @property {number} startupMs From just before the spawn to the service's receipt of the POST.
 * @property {number} pastEndMs From the job's end to the process's exit.
 * @property {number} gets
 * @property {number[]} getOffsetsMs When each GET came, from the job's creation.
 * @property {{ maxRssBytes: number, builtins: string[], bundle?: BundleReport } | null} report
 * @typedef {{ defined: number, initial: number, definedBytes: number, run: number, runBytes: number }} BundleReport
 */

/**
 * @param {RunSpec} spec @param {Service} service
 * @returns {import('../test/support/run-action.js').RunOptions & { env: Record<string, string> }}
 */
function launchOptions(spec, service) {
  const inputs = { projectId: PROJECT, prompt: PROMPT, apiKey: service.apiKey, baseUrl: service.url }
  /** @type {Record<string, string>} */
  const env = {}
  if (spec.report) {
    env.NODE_OPTIONS = `--import=${PEAK_MEMORY}`
    env.BENCH_REPORT_FILE = join(mkdtempSync(join(tmpdir(), 'bench-report-')), 'report.json')
  }
  switch (spec.program) {
    case 'action':
      return {
        entry: spec.entry ?? ENTRY,
        node: args.node,
        inputs: spec.noWait ? { ...inputs, wait: 'false' } : inputs,
        env
      }
    case 'minimal':
      return { entry: MINIMAL_POST, node: args.node, inputs, env }
    case 'minimalFetch':
      return { entry: MINIMAL_POST, node: args.node, inputs, env: { ...env, BENCH_CLIENT: 'fetch' } }
    case 'curl':
      return {
        entry: CURL_LOOP,
        node: 'bash',
        inputs: {},
        env: { BASE_URL: service.url, PROJECT_ID: PROJECT, API_KEY: service.apiKey, PROMPT }
      }
  }
}

/**
 * One run of one program against a stand-in service of its own.
 * @param {RunSpec} spec
 * @returns {Promise<Measured>}
 */
async function measure(spec) {
  if (spec.delayMs) await new Promise((resolve) => setTimeout(resolve, spec.delayMs))
  const service = await startStandInService({ plan: { activeMs: spec.activeMs } })
  try {
    const options = launchOptions(spec, service)
    const startedAt = Date.now()
    const { child, done } = startAction(options)
    let exitedAt = 0
    running.add(child)
    child.once('exit', () => {
      exitedAt = Date.now()
      running.delete(child)
    })
    const run = await done
    const [job] = service.jobs.values()
    const posts = service.requestsOf('POST')
    const finished = spec.program !== 'action' || spec.noWait || run.outputs.status === 'completed'
    if (run.code !== 0 || !job || posts.length !== 1 || !finished) {
      throw new Error(
        `A run of ${spec.program} went wrong (exit code ${run.code}, ${posts.length} POSTs):\n${run.stdout}\n${run.stderr}`
      )
    }
    const gets = service.requestsOf('GET')
    const reportFile = options.env.BENCH_REPORT_FILE
    const report = reportFile ? JSON.parse(readFileSync(reportFile, 'utf8')) : null
    if (reportFile) rmSync(dirname(reportFile), { recursive: true, force: true })
    return {
      program: spec.program,
      activeMs: spec.activeMs,
      startupMs: posts[0].at - startedAt,
      pastEndMs: exitedAt - service.endsAt(job.id),
      gets: gets.length,
      getOffsetsMs: gets.map((r) => r.at - job.createdAt),
      report
    }
  } finally {
    await service.close()
  }
}

/**
 * A copy of the bundle that records which of its modules run (for bench-peak-memory.js to report);
 * null when the bundle's shape is not the one known (a minified bundle, another bundler).
 * @param {string} entry
 */
function instrumentedCopy(entry) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-dist-'))
  cpSync(dirname(entry), dir, { recursive: true })
  const file = join(dir, entry.slice(dirname(entry).length + 1))
  // webpack's runtime, as ncc writes it: the module cache, then the one call of a module's function.
  const cache = 'var __webpack_module_cache__ = {};'
  const call = '__webpack_modules__[moduleId]'
  const text = readFileSync(file, 'utf8')
  if (text.split(cache).length !== 2 || text.split(call).length !== 2) {
    rmSync(dir, { recursive: true, force: true })
    return null
  }
  const record =
    'globalThis.__benchBundle = { modules: __webpack_modules__, initial: Object.keys(__webpack_modules__).length, run: [] };'
  writeFileSync(
    file,
    text.replace(cache, `${cache} ${record}`).replace(call, `(globalThis.__benchBundle.run.push(moduleId), ${call})`)
  )
  return { file, dir }
}

/** An instrumented copy of src/ built without --minify; null without ncc (a fresh clone). */
function instrumentedUnminifiedBuild() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-unminified-'))
  const ncc = join(here, '..', 'node_modules', '@vercel', 'ncc', 'dist', 'ncc', 'cli.js')
  const built = spawnSync(process.execPath, [ncc, 'build', join(SRC, 'index.ts'), '-o', dir, '--quiet'], {
    encoding: 'utf8'
  })
  const copy = built.status === 0 ? instrumentedCopy(join(dir, 'index.js')) : null
  rmSync(dir, { recursive: true, force: true })
  return copy
}

/** All JavaScript under a directory, in bytes. @param {string} dir @returns {number} */
function javaScriptBytes(dir) {
  let total = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) total += javaScriptBytes(path)
    else if (/\.(js|mjs|cjs)$/.test(entry.name)) total += statSync(path).size
  }
  return total
}

/** The newest modification time of the files under a directory. @param {string} dir @returns {number} */
function newestChange(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestChange(path) : statSync(path).mtimeMs)
  }
  return newest
}

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** @param {number[]} values @param {(n: number) => string} format */
function summary(values, format) {
  const m = format(median(values))
  if (values.length < 2) return m
  return `${m} (${format(Math.min(...values))}–${format(Math.max(...values))})`
}

const ms = (/** @type {number} */ n) => `${Math.round(n)} ms`
const seconds = (/** @type {number} */ n) => `${(n / 1000).toFixed(2)} s`
const count = (/** @type {number} */ n) => String(Math.round(n * 10) / 10)
const megabytes = (/** @type {number} */ n) => `${(n / 1e6).toFixed(2)} MB`
const verdict = (/** @type {boolean} */ ok) => (ok ? '**PASS**' : '**FAIL**')
const log = (/** @type {string} */ line) => process.stderr.write(`${line}\n`)

const LABEL = {
  action: 'the action',
  minimal: 'minimal Node program (node:http)',
  minimalFetch: 'minimal Node program (fetch)',
  curl: 'curl + jq loop'
}

for (const tool of ['curl', 'jq']) {
  if (spawnSync(tool, ['--version']).error) {
    console.error(`The benchmark needs ${tool} on the PATH, for the curl + jq loop it measures the action against.`)
    process.exit(2)
  }
}

// --- 1. Start-up, every run alone -------------------------------------------------------------
if (newestChange(SRC) > statSync(ENTRY).mtimeMs && !args.entry) {
  log('Note: src/ has changed since dist/ was built; this measures dist/ as it is (npm run bundle rebuilds it).')
}
/** @type {Program[]} */
const startupPrograms = ['action', 'minimal', 'minimalFetch', 'curl']
log(`Start-up: ${STARTUP_RUNS} runs of each, one at a time, after one warm-up run each...`)
/** @type {Record<Program, number[]>} */
const startup = { action: [], minimal: [], minimalFetch: [], curl: [] }
for (let round = -1; round < STARTUP_RUNS; round++) {
  // The order turns each round, so that no program always comes right after another.
  const shift = Math.max(0, round) % startupPrograms.length
  for (const program of [...startupPrograms.slice(shift), ...startupPrograms.slice(0, shift)]) {
    const result = await measure({ program, activeMs: 0, noWait: true })
    if (round >= 0) startup[program].push(result.startupMs)
  }
}

// --- What a default run loads -----------------------------------------------------------------
log('Loading: one default run of an instrumented copy of the bundle, and one of the minimal program...')
// A minified bundle hides webpack's runtime: then an unminified build of the same sources is
// instrumented instead (ncc is a dev dependency), which runs the same modules.
const copy = instrumentedCopy(ENTRY) ?? instrumentedUnminifiedBuild()
const loaded = await measure({ program: 'action', activeMs: 0, report: true, entry: copy?.file })
if (copy) rmSync(copy.dir, { recursive: true, force: true })
const minimalLoaded = await measure({ program: 'minimal', activeMs: 0, report: true })

// --- 2. Detection, concurrently -----------------------------------------------------------------
log(
  `Detection: jobs active ${CASES_MS.map((n) => `${n / 1000} s`).join(' and ')}, ${DETECTION_RUNS} runs each of the action and the curl loop, concurrently...`
)
/** @type {RunSpec[]} */
const specs = []
for (let r = 0; r < DETECTION_RUNS; r++) {
  for (const activeMs of CASES_MS) {
    for (const program of /** @type {Program[]} */ (['action', 'curl'])) {
      specs.push({ program, activeMs, report: program === 'action', delayMs: specs.length * STAGGER_MS })
    }
  }
}
const detection = await Promise.all(specs.map(measure))

// --- 3. The table -------------------------------------------------------------------------------
const bundleBytes = javaScriptBytes(dirname(ENTRY))
const peaks = detection.filter((m) => m.program === 'action').map((m) => m.report?.maxRssBytes ?? 0)
const ratio = median(startup.action) / median(startup.minimal)
const failures = []

const rows = [
  '| Measure | The action | What a user would use instead | Target | Result |',
  '|---|---|---|---|---|',
  `| Start-up: process start → the service has the POST | ${summary(startup.action, ms)} | ${summary(startup.minimal, ms)}, ${LABEL.minimal} | ≤ ${TARGET.startupRatio}× the minimal program | ${ratio.toFixed(2)}× ${verdict(ratio <= TARGET.startupRatio)} |`,
  `| | | ${summary(startup.minimalFetch, ms)}, ${LABEL.minimalFetch} | | ${(median(startup.action) / median(startup.minimalFetch)).toFixed(2)}× |`,
  `| | | ${summary(startup.curl, ms)}, ${LABEL.curl} | | |`
]
if (ratio > TARGET.startupRatio) failures.push('start-up')

for (const activeMs of CASES_MS) {
  const ofCase = (/** @type {Program} */ program) =>
    detection.filter((m) => m.program === program && m.activeMs === activeMs)
  const action = ofCase('action')
  const curl = ofCase('curl')
  const pastAction = median(action.map((m) => m.pastEndMs))
  const pastCurl = median(curl.map((m) => m.pastEndMs))
  const getsAction = median(action.map((m) => m.gets))
  const getsCurl = median(curl.map((m) => m.gets))
  const job = `${activeMs / 1000} s job`
  const short = activeMs === CASES_MS[0]
  const pastOk = pastAction < pastCurl
  const getsOk = getsAction <= getsCurl + TARGET.extraGets
  rows.push(
    `| ${job}: the step runs past the job's end | ${summary(
      action.map((m) => m.pastEndMs),
      seconds
    )} | ${summary(
      curl.map((m) => m.pastEndMs),
      seconds
    )}, ${LABEL.curl} | ${short ? 'less than the curl loop' : ''} | ${short ? verdict(pastOk) : ''} |`,
    `| ${job}: GETs | ${summary(
      action.map((m) => m.gets),
      count
    )} | ${summary(
      curl.map((m) => m.gets),
      count
    )} | ${short ? '' : `≤ the curl loop + ${TARGET.extraGets}`} | ${short ? '' : verdict(getsOk)} |`
  )
  if (short && !pastOk) failures.push(`${job} past its end`)
  if (!short && !getsOk) failures.push(`${job} GETs`)
  if (!short) {
    // Whether runs started together poll in step: the gaps between GETs once the schedule has
    // settled (the action's waits after its 3rd GET), over every run of the case.
    const gaps = (/** @type {Measured[]} */ measured, /** @type {number} */ from) =>
      measured.flatMap((m) => m.getOffsetsMs.slice(from + 1).map((at, i) => at - m.getOffsetsMs[from + i]))
    const range = (/** @type {number[]} */ values) => `${seconds(Math.min(...values))}–${seconds(Math.max(...values))}`
    rows.push(
      `| ${job}: gaps between GETs once settled (all runs) | ${range(gaps(action, 2))} | ${range(gaps(curl, 0))} | | |`
    )
  }
}

const peak = Math.max(...peaks)
rows.push(
  `| Bundle: all JavaScript under dist/ | ${megabytes(bundleBytes)} | | ≤ 1.5 MB | ${verdict(bundleBytes <= TARGET.bundleBytes)} |`,
  `| Peak memory (max RSS) of a run | ${megabytes(peak)} (largest of ${peaks.length}) | | ≤ 100 MB | ${verdict(peak <= TARGET.peakBytes)} |`
)
if (bundleBytes > TARGET.bundleBytes) failures.push('bundle size')
if (peak > TARGET.peakBytes) failures.push('peak memory')

const nodeVersion = args.node
  ? `Node ${spawnSync(args.node, ['--version'], { encoding: 'utf8' }).stdout.trim()} (${args.node})`
  : `Node ${process.version}`
console.log(
  `${nodeVersion}, ${process.platform} ${process.arch}, ${cpus().length} CPUs. Medians (min–max): start-up of ` +
    `${STARTUP_RUNS} runs each, one at a time, after a warm-up run; detection of ${DETECTION_RUNS} runs each, concurrently.\n`
)
console.log(rows.join('\n'))

const bundle = loaded.report?.bundle
const minimalBuiltins = new Set(minimalLoaded.report?.builtins ?? [])
const extraBuiltins = (loaded.report?.builtins ?? []).filter((name) => !minimalBuiltins.has(name))
console.log('\nWhat a default run of the action loads (a 0 s job: create, one GET):')
if (bundle) {
  const chunks =
    bundle.defined > bundle.initial
      ? `; ${bundle.defined - bundle.initial} modules came from code-split chunks`
      : '; no code-split chunk was loaded'
  console.log(
    `- bundled modules run: ${bundle.run} of ${bundle.initial} in ${ENTRY.split('/').pop()} ` +
      `(${megabytes(bundle.runBytes)} of ${megabytes(bundle.definedBytes)} of module code)${chunks}`
  )
} else {
  console.log('- bundled modules run: not measured (the bundle is not in the shape bench.js knows how to instrument)')
}
console.log(`- Node built-ins the minimal program does not load: ${extraBuiltins.join(', ') || 'none'}`)

if (failures.length) {
  console.log(`\nTargets not met: ${failures.join(', ')}.`)
  process.exitCode = 1
}
