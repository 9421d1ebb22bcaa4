// @ts-check
// The soak: many runs of the bundled action, each against a stand-in service of its own that fails
// at random (seeded, so that a soak can be run again the same way), a few at a time. Each run is
// checked against the rules that hold whatever happens: at most one job, the job made is the job
// named, every failure is one of the sentences the action means to say, the key never printed and
// sent only in the Authorization header. The soak test (test/action/soak.test.ts) runs a few dozen
// runs in the suite; `npm run soak` (scripts/soak.js) runs as many as it is asked to. Node's
// built-ins only, like the rest of test/support.
import { runAction, withoutMaskCommands } from './run-action.js'
import { startStandInService } from './stand-in-service.js'

export const SOAK_SEED = 20261121
export const SOAK_FAULT_RATE = 0.25
export const SOAK_CONCURRENCY = 4
/**
 * pollInterval at the shortest the action accepts (1 s), and a timeout that leaves room for a few retries.
 * Jobs stay active 0.1-1.6 s (below), so that a run reads its job a few times.
 */
const SOAK_INPUTS = { projectId: 'docs', pollInterval: '1s', timeout: '3s' }

/** The sentences a failed step may end with here, by kind; anything else is a bug. */
export const FAILURE_KINDS = /** @type {Array<[string, RegExp]>} */ ([
  ['create may or may not have made a job', /may or may not have been created/],
  ['rate limited', /rate limit was reached \(HTTP 429\)/],
  ['create rejected (400)', /rejected the job request \(HTTP 400/],
  ['redirect not followed', /answered with a redirect \(HTTP 307 to .*\*\*\*\), which is not followed/],
  ['not a job record, gave up', /not a job record.*giving up on job/],
  ['job not found', /was not found in project/],
  ['timed out', /did not reach a final status within the timeout/]
])

/**
 * mulberry32: a small seeded PRNG, enough to make a soak repeatable.
 * @param {number} seed
 * @returns {() => number}
 */
export function mulberry32(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * Error answers that echo the key back, as a misbehaving proxy or service might.
 * @param {string} key
 * @returns {import('./stand-in-service.js').Fault[]}
 */
export function echoingFaults(key) {
  const echo = `Authorization: Bearer ${key}`
  return [
    {
      method: 'GET',
      status: 502,
      body: `<html><body><h1>Bad gateway</h1><pre>${echo}</pre></body></html>`,
      contentType: 'text/html'
    },
    {
      method: 'GET',
      status: 200,
      body: `<html><body>Sign in to the proxy. ${echo}</body></html>`,
      contentType: 'text/html'
    },
    { method: 'GET', status: 503, body: { error: `upstream rejected ${echo}` }, headers: { 'retry-after': '0' } },
    {
      method: 'POST',
      status: 429,
      body: `Too many requests for ${echo}`,
      contentType: 'text/plain',
      headers: { 'retry-after': '0' }
    },
    { method: 'POST', status: 400, body: { error: `bad request: ${echo}` } },
    {
      method: 'POST',
      status: 503,
      body: `<html><body>${echo}</body></html>`,
      contentType: 'text/html',
      afterCreate: true
    },
    { method: 'GET', status: 307, headers: { location: `http://127.0.0.1:9/login/${key}` } }
  ]
}

/** Where a run's output goes: each is searched for the key. */
const CHANNELS = /** @type {const} */ (['stdout', 'stderr', 'outputs', 'summary'])

/**
 * @typedef {object} SoakOptions
 * @property {number} runs
 * @property {number} [concurrency] Runs at a time (default 4).
 * @property {number} [seed] Run i draws everything random from `seed + i` (default SOAK_SEED).
 * @property {number} [faultRate] The share of requests that get a random fault (default 0.25).
 * @property {string} [entry] The bundle to run (default: run-action.js's ACTION_ENTRY).
 * @property {(finished: number) => void} [onRun] Called after each run.
 *
 * @typedef {object} SoakReport
 * @property {number} runs
 * @property {number} seed
 * @property {number} faultRate
 * @property {number} concurrency
 * @property {number} wallMs
 * @property {number} slowestRunMs
 * @property {{ none: number, one: number, twoOrMore: number }} jobsPerRun Runs by how many jobs they made.
 * @property {Record<string, number>} endings Runs by exit code and final status or failure kind.
 * @property {number} succeeded
 * @property {{ creates: number, reads: number }} faults Faults injected, random and scripted.
 * @property {number} echoed Runs with an error page or redirect that echoed the key.
 * @property {number} blanked Runs that printed such an echo with the key blanked (`Bearer ***`).
 * @property {number} debug Runs with RUNNER_DEBUG=1.
 * @property {Record<string, number>} keyAppearances Runs whose stdout (less `::add-mask::`),
 *   stderr, outputs or job summary held the key or its secret part, by where.
 * @property {number} requests Requests the stand-ins received.
 * @property {number} requestsWithoutKey Requests without `Authorization: Bearer <key>`.
 * @property {string[]} problems Every rule a run broke, with its output.
 */

/**
 * Runs the soak and tallies what happened.
 * @param {SoakOptions} options
 * @returns {Promise<SoakReport>}
 */
export async function soak(options) {
  const seed = options.seed ?? SOAK_SEED
  const faultRate = options.faultRate ?? SOAK_FAULT_RATE
  const concurrency = options.concurrency ?? SOAK_CONCURRENCY
  /** @type {SoakReport} */
  const report = {
    runs: options.runs,
    seed,
    faultRate,
    concurrency,
    wallMs: 0,
    slowestRunMs: 0,
    jobsPerRun: { none: 0, one: 0, twoOrMore: 0 },
    endings: {},
    succeeded: 0,
    faults: { creates: 0, reads: 0 },
    echoed: 0,
    blanked: 0,
    debug: 0,
    keyAppearances: Object.fromEntries(CHANNELS.map((channel) => [channel, 0])),
    requests: 0,
    requestsWithoutKey: 0,
    problems: []
  }
  const started = Date.now()
  let next = 0
  let finished = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < options.runs) {
        const i = next++
        const runStarted = Date.now()
        await soakOnce(i, { seed, faultRate, entry: options.entry }, report)
        report.slowestRunMs = Math.max(report.slowestRunMs, Date.now() - runStarted)
        options.onRun?.(++finished)
      }
    })
  )
  report.wallMs = Date.now() - started
  return report
}

/**
 * One run against a stand-in of its own, tallied into the report.
 * @param {number} i
 * @param {{ seed: number, faultRate: number, entry?: string }} settings
 * @param {SoakReport} report
 */
async function soakOnce(i, { seed, faultRate, entry }, report) {
  const random = mulberry32(seed + i)
  const key = `svc_soak_${i}_${Math.floor(random() * 2 ** 32).toString(36)}`
  const echoed = i % 3 === 0
  const debug = i % 2 === 1
  const echoing = echoingFaults(key)
  const service = await startStandInService({
    apiKey: key,
    plan: { activeMs: 100 + Math.floor(random() * 1500) },
    faults: echoed ? [echoing[Math.floor(random() * echoing.length)]] : [],
    randomFaults: { rate: faultRate, random }
  })
  const run = await runAction({
    entry,
    inputs: { ...SOAK_INPUTS, prompt: `Soak run ${i}`, apiKey: key, baseUrl: service.url },
    env: debug ? { RUNNER_DEBUG: '1' } : {}
  }).finally(() => service.close())

  const problem = (/** @type {string} */ what) => report.problems.push(`run ${i}: ${what}\n${run.stdout}${run.stderr}`)
  const jobIds = [...service.jobs.keys()]
  const created = service.created
  if (created === 0) report.jobsPerRun.none++
  else if (created === 1) report.jobsPerRun.one++
  else {
    report.jobsPerRun.twoOrMore++
    problem(`${created} jobs were made`)
  }
  if (run.outputs.jobId !== undefined && !jobIds.includes(run.outputs.jobId))
    problem(`outputs.jobId ${run.outputs.jobId} names no job`)

  /** @type {string} */
  let ending
  if (run.code === 0) {
    report.succeeded++
    ending = `exit 0, status ${run.outputs.status}`
    if (created !== 1) problem('succeeded without exactly one job')
    if (run.outputs.jobId !== jobIds[0] || run.outputs.status !== 'completed')
      problem('succeeded without naming its completed job')
  } else {
    const error = run.stdout.split('\n').find((line) => line.startsWith('::error::')) ?? '(no ::error:: line)'
    const kind = FAILURE_KINDS.find(([, pattern]) => pattern.test(error))?.[0]
    ending = `exit ${run.code}, ${kind ?? 'an unexpected message'}`
    if (!kind) problem(`failed with an unexpected message: ${error}`)
    // A job the action knows of is named, so that the user can find it again.
    if (created === 1 && kind !== 'create may or may not have made a job' && run.outputs.jobId !== jobIds[0])
      problem('failed after making a job without naming it')
  }
  report.endings[ending] = (report.endings[ending] ?? 0) + 1

  const secret = key.slice('svc_'.length)
  /** @type {Record<(typeof CHANNELS)[number], string>} */
  const printed = {
    stdout: withoutMaskCommands(run.stdout),
    stderr: run.stderr,
    outputs: JSON.stringify(run.outputs),
    summary: run.summary
  }
  for (const channel of CHANNELS) {
    if (printed[channel].includes(secret)) {
      report.keyAppearances[channel]++
      problem(`the key appeared in ${channel}`)
    }
  }
  for (const request of service.requests) {
    report.requests++
    if (request.headers.authorization !== `Bearer ${key}`) {
      report.requestsWithoutKey++
      problem(`${request.method} ${request.path} came without the key`)
    }
    if (request.path.includes(secret)) problem(`the key was in the URL of ${request.method} ${request.path}`)
  }
  if (/\n\s+at .+:\d+:\d+/.test(run.stdout + run.stderr)) problem('a stack trace was printed')
  if (run.stderr !== '') problem('something was written to stderr')
  if (debug && !run.stdout.includes('::debug::')) problem('no debug output with RUNNER_DEBUG=1')

  for (const { method } of service.injected) report.faults[method === 'POST' ? 'creates' : 'reads']++
  if (echoed) report.echoed++
  if (run.all.includes('Bearer ***')) report.blanked++
  if (debug) report.debug++
}

/**
 * The report as lines of text, as `npm run soak` prints it.
 * @param {SoakReport} report
 * @returns {string[]}
 */
export function describeSoak(report) {
  const { jobsPerRun, faults } = report
  const count = (/** @type {Record<string, number>} */ tally) =>
    Object.entries(tally)
      .sort(([, a], [, b]) => b - a)
      .map(([what, n]) => `    ${String(n).padStart(6)}  ${what}`)
  const keyTotal = Object.values(report.keyAppearances).reduce((sum, n) => sum + n, 0)
  return [
    `runs: ${report.runs}, ${report.concurrency} at a time (seed ${report.seed}, fault rate ${report.faultRate}); ` +
      `${report.succeeded} succeeded`,
    `jobs created per run: 0 in ${jobsPerRun.none}, 1 in ${jobsPerRun.one}, 2 or more in ${jobsPerRun.twoOrMore}`,
    'endings:',
    ...count(report.endings),
    `faults injected: ${faults.creates} on creates, ${faults.reads} on reads; ${report.echoed} runs met an ` +
      `answer echoing the key (${report.blanked} printed it blanked); ${report.debug} ran with RUNNER_DEBUG=1`,
    `key appearances: ${keyTotal} (` +
      Object.entries(report.keyAppearances)
        .map(([channel, n]) => `${channel} ${n}`)
        .join(', ') +
      '; ::add-mask:: lines, which hand the key to the runner to mask, are not counted)',
    `requests without the key: ${report.requestsWithoutKey} of ${report.requests}`,
    `wall time: ${(report.wallMs / 1000).toFixed(1)} s (slowest run ${(report.slowestRunMs / 1000).toFixed(2)} s)`,
    `rules broken: ${report.problems.length}`
  ]
}
