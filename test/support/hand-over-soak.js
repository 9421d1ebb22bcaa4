// @ts-check
// The hand-over soak: on ONE stand-in GitHub (its state kept across runs) and one stand-in service,
// a seeded play of what a repository that hands its jobs over lives through: `/docs` comments on
// threads and pushes with commits, each run with `wait: false`; reporting runs (`report: pending`),
// some two at once, some cancelled as the runner cancels (SIGINT or SIGTERM, then SIGTERM 7.5 s
// later, then a kill); the service's rate limit (429 with a short Retry-After, with none, and with
// an hour's), its 5xx (before and after it made the job) and faults on its reads; GitHub's 5xx on
// its writes, some made despite the 502; follow-ups on the threads (chatter, and `/docs also ...`);
// withdrawals (the asking comment deleted, the thread closed as not planned and locked); a triager's
// older issue labelled as the index, and an outsider's copy of a record on the index. Then every
// job ends, GitHub and the service go quiet, an hour passes for the claims (the reactions age), and
// quiet reporting runs start while the reporting workflow is on, as GitHub's scheduler would.
//
// It judges each request (a comment or a push) and each job by the rules below (RULES), and returns
// every rule broken with the seed and what broke. test/action/hand-over-soak.test.ts plays it small;
// `npm run soak -- --hand-over` plays it large. Node's built-ins only, like the rest of test/support.
import { withoutMaskCommands, startAction } from './run-action.js'
import {
  changedFile,
  issueCommentEvent,
  pushEvent,
  runnerEnvironment,
  standInCommit,
  startStandInGitHub,
  workflowDispatchEvent
} from './stand-in-github.js'
import { startStandInService } from './stand-in-service.js'
import { mulberry32 } from './soak.js'

export const HAND_OVER_SEED = 20261201
const SERVER = 'https://github.example'
const REPO = 'octo-org/docs-site'
const SOURCE = `${SERVER}/${REPO}`
const REPORT_WORKFLOW = '.github/workflows/report-later.yml'
const FINAL = new Set(['completed', 'failed', 'archived'])
/** Each run is its own process; none may outlive this (a run's own timeout is 30 s, a cancel's grace 7 s). */
const RUN_LIMIT_MS = 90_000

/**
 * The rules, by name: what each promises. A break is reported under its name, so that a caller can
 * tell which rules hold; no rule is left out of the report.
 */
export const RULES = /** @type {const} */ ({
  'made-once':
    'a request reaches the service at most once (one create or one message); a comment that asks nothing, never',
  'made-or-refused':
    'a request not made (and not withdrawn, and not still waiting out a long Retry-After) is refused in words: no reply or output of it still promises a job',
  'not-after-withdrawal':
    'a request whose asking comment was deleted, or whose thread was closed and locked, is not made after that',
  'retry-after-honoured': 'no create is sent again before the Retry-After of the 429 that refused it',
  'told-once':
    "every job the action knew of has its ending told: in a reporting run's `reported`, at most once more per follow-up message it took, never in two runs at once; or, where GitHub refused its record, its summary and reply say the ending will not be posted and promise nothing",
  'reported-once':
    "an ending a reporting run told (its reply or status links the run) is in that run's `reported`, a cancelled run's included",
  'reply-tells-ending':
    "a request's thread holds at most one reply for it, and that reply no longer promises an ending once it was told",
  'no-status-pending': 'no commit status is left pending after the quiet reporting runs at the end',
  'key-never-printed': 'the API key is in no run output, comment, status or issue',
  'no-unexpected-failure':
    'no run ends "unexpectedly" (a cancel or a fault is not a bug), prints a stack trace, or outlives its bound'
})

/** Words that promise something to come: a reply or an output that still holds one made a promise. */
const PROMISE =
  /will be posted|will be made|will be told|will create|(reporting run|next run) (makes|creates|tells|will)|is queued|waits? (for|in) the|the create waits/i
/** 16,000 characters of Japanese: "Explain the retry policy and its limits, with examples." again and again. */
const LONG_JAPANESE = '再試行の方針とその上限を例とともに説明してください。'.repeat(640).slice(0, 16_000)
/** The words of a hand-over whose record could not be left (report/ending-verdict.ts wordHandedOverNext). */
const NOT_POSTED = /its ending will not be posted/
const UNEXPECTED = /unexpectedly|report this as an issue/i

/**
 * @typedef {'ask' | 'push' | 'follow-up' | 'chatter'} RequestKind
 * @typedef {'none' | '429-short' | '429-none' | '429-long' | '5xx-before' | '5xx-after'} ServiceFault
 *
 * @typedef {object} SoakRequest
 * @property {number} index
 * @property {string} token A mark in its prompt, found again in what the service received.
 * @property {RequestKind} kind
 * @property {ServiceFault} fault
 * @property {boolean} long Its prompt is 16,000 characters of Japanese (a queued one must still be kept, or refused at once).
 * @property {number | null} thread The issue it was asked on (null for a push).
 * @property {number | null} askComment The asking comment's id.
 * @property {string | null} sha The pushed commit.
 * @property {number | null} withdrawnAt When it was withdrawn (Date.now()).
 * @property {'deleted' | 'closed' | null} withdrawnHow
 * @property {number} longWaitUntil For a 429 with an hour's Retry-After: when the service allows it.
 * @property {Map<number, number>} retryAfters The Retry-After (seconds) each refusal of its create gave, by the refused request's time.
 * @property {number[]} replies The comments its run left on its thread.
 * @property {import('./run-action.js').ActionRun | null} run
 *
 * @typedef {object} ReportingRun
 * @property {string} runId
 * @property {number} startedAt
 * @property {number} endedAt
 * @property {boolean} cancelled
 * @property {boolean} quiet One of the quiet runs at the end.
 * @property {{id: string, status: string}[]} reported
 * @property {import('./run-action.js').ActionRun} run
 *
 * @typedef {object} HandOverSoakOptions
 * @property {number} requests How many requests (comments and pushes) to play.
 * @property {number} [seed] Default HAND_OVER_SEED.
 * @property {number} [concurrency] Runs at a time (default 3).
 * @property {number} [githubFaultRate] The share of GitHub writes answered 502, half of them made (default 0.06).
 * @property {number} [serviceReadFaultRate] The share of the service's reads that fail (default 0.1).
 * @property {string} [entry] The bundle (default run-action.js's).
 * @property {(line: string) => void} [onProgress]
 * @property {(world: object) => void} [inspect] Sees the stand-ins and the runs before they close (to debug a break).
 *
 * @typedef {object} Break
 * @property {keyof typeof RULES} rule
 * @property {string} what
 *
 * @typedef {object} HandOverSoakReport
 * @property {number} seed
 * @property {number} requests
 * @property {Record<string, number>} kinds Requests by kind.
 * @property {Record<string, number>} serviceFaults Requests by the fault the service gave their create.
 * @property {number} jobs Jobs made.
 * @property {number} messages Follow-up messages taken.
 * @property {number} runs Runs of the action in all.
 * @property {number} reportingRuns
 * @property {number} scheduled Reporting runs the soak's scheduler asked for.
 * @property {number} notStarted Of those, the ones GitHub did not start: the reporting workflow was off.
 * @property {number} cancelled Reporting runs cancelled.
 * @property {number} twoAtOnce Times two reporting runs started together.
 * @property {number} withdrawn
 * @property {number} copies Records an outsider copied onto the index (0 when it is locked to them).
 * @property {number} githubFaults GitHub writes answered 502.
 * @property {number} githubMade Of those, writes GitHub made despite the 502.
 * @property {number} wallMs
 * @property {Break[]} breaks
 */

/**
 * Plays the soak and judges it.
 * @param {HandOverSoakOptions} options
 * @returns {Promise<HandOverSoakReport>}
 */
export async function handOverSoak(options) {
  const seed = options.seed ?? HAND_OVER_SEED
  const random = mulberry32(seed)
  const pick = (/** @type {number} */ n) => Math.floor(random() * n)
  // What happens at a moment the runs' timing decides (a job made, a run cancelled, a create refused)
  // draws from streams of its own, so that the script above stays the same for a seed.
  const planRandom = mulberry32(seed + 3)
  const cancelRandom = mulberry32(seed + 4)
  const windowRandom = mulberry32(seed + 5)
  const started = Date.now()
  const key = `svc_handover_${seed}_${Math.floor(random() * 2 ** 32).toString(36)}`
  const secret = key.slice('svc_'.length)
  const concurrency = options.concurrency ?? 3
  const progress = options.onProgress ?? (() => {})

  // Jobs work for a few reads, most end completed with a pull request in this repository, some fail.
  let quiet = false
  /** When the last rate limit shorter than an hour lets its create through. */
  let shortWaitsEnd = 0
  /** The nth job's plan: its pull request is #2000+n; the nth message's, #5000+n. */
  const jobPlans = (/** @type {number} */ n) => {
    const failed = planRandom() < 0.2
    return {
      // Most work for a reporting run or three; one in ten has ended by the create's answer.
      // At the end (quiet), a job made from the queue has ended by its first read, as every other has.
      activeReads: quiet || planRandom() < 0.1 ? 0 : 1 + Math.floor(planRandom() * 3),
      final: failed ? 'failed' : 'completed',
      prLink: failed ? null : `${SOURCE}/pull/${2000 + n}`,
      repository: SOURCE
    }
  }
  const messagePlans = (/** @type {number} */ n) => ({
    activeReads: quiet ? 0 : Math.floor(planRandom() * 3),
    prLink: `${SOURCE}/pull/${5000 + n}`,
    repository: SOURCE
  })
  const serviceRandom = mulberry32(seed + 1)
  const serviceChaos = {
    rate: options.serviceReadFaultRate ?? 0.1,
    random: serviceRandom,
    // Creates get their faults from the script below; the random ones are on reads.
    writeFaults: [{ delayMs: 5 }]
  }
  const service = await startStandInService({
    apiKey: key,
    plan: jobPlans,
    messagePlan: messagePlans,
    randomFaults: serviceChaos
  })
  const githubRandom = mulberry32(seed + 2)
  let githubFaults = 0
  let githubMade = 0
  const githubChaos = {
    rate: options.githubFaultRate ?? 0.06,
    random: githubRandom,
    routes: /** @type {import('./stand-in-github.js').Route[]} */ ([
      'comment-create',
      'comment-update',
      'comment-delete',
      'status-create',
      'reaction',
      'issue-create',
      'issue-update',
      'label-add'
    ]),
    fault: () => {
      githubFaults++
      const made = githubRandom() < 0.5
      if (made) githubMade++
      return { status: 502, message: 'Server Error', made }
    }
  }
  const github = await startStandInGitHub({
    randomFaults: githubChaos,
    workflows: [{ id: 90210, path: REPORT_WORKFLOW }]
  })
  for (let n = 1; n <= options.requests * 2 + 10; n++) {
    github.setPullState(2000 + n, 'open')
    github.setPullState(5000 + n, 'open')
  }

  /** @type {Break[]} */
  const breaks = []
  const broke = (/** @type {keyof typeof RULES} */ rule, /** @type {string} */ what) =>
    breaks.push({ rule, what: `seed ${seed}: ${what}` })
  /** @type {import('./run-action.js').ActionRun[]} */
  const allRuns = []
  /** @type {ReportingRun[]} */
  const reportingRuns = []
  let runNumber = 0
  // Each run's GITHUB_RUN_ID, unique: a link on GitHub names the run that wrote it.
  let nextRunId = 7001
  let cancelled = 0
  let scheduled = 0
  let notStarted = 0
  let twoAtOnce = 0
  let withdrawn = 0
  let copies = 0

  /**
   * One run of the action, bounded; its GitHub token names it in the stand-in's requests.
   * @param {Record<string, string>} inputs @param {Record<string, string>} env
   * @param {{cancelAfterMs?: number, signal?: NodeJS.Signals}} [how]
   */
  async function run(inputs, env, how = {}) {
    const k = ++runNumber
    const action = startAction({
      entry: options.entry,
      inputs: {
        projectId: 'docs',
        apiKey: key,
        baseUrl: service.url,
        pollInterval: '1s',
        timeout: '30s',
        ...inputs,
        githubToken: `ghs_soak_run_${k}`
      },
      env
    })
    /** @type {NodeJS.Timeout[]} */
    const timers = []
    const signal = (/** @type {NodeJS.Signals} */ s) => {
      if (action.child.exitCode === null && action.child.signalCode === null) action.child.kill(s)
    }
    if (how.cancelAfterMs !== undefined) {
      // As the runner cancels: the signal, SIGTERM 7.5 s later, a kill 2.5 s after that.
      timers.push(setTimeout(() => signal(how.signal ?? 'SIGINT'), how.cancelAfterMs))
      timers.push(setTimeout(() => signal('SIGTERM'), how.cancelAfterMs + 7500))
      timers.push(
        setTimeout(() => {
          killed = action.child.exitCode === null && action.child.signalCode === null
          signal('SIGKILL')
        }, how.cancelAfterMs + 10_000)
      )
    }
    let outlived = false
    let killed = false
    timers.push(
      setTimeout(() => {
        outlived = true
        signal('SIGKILL')
      }, RUN_LIMIT_MS)
    )
    const result = await action.done.finally(() => timers.forEach(clearTimeout))
    if (killed)
      broke(
        'no-unexpected-failure',
        `run ${k} (cancelled) was still running 10 s after the runner's signal: the runner killed it`
      )
    if (outlived)
      broke(
        'no-unexpected-failure',
        `run ${k} (${inputs.report ? 'reporting' : 'hand-over'}) outlived ${RUN_LIMIT_MS / 1000} s`
      )
    allRuns.push(result)
    return result
  }

  /** The environment of a reporting run, started by the schedule. @param {string} runId */
  const reportEnv = (runId) =>
    runnerEnvironment(github, 'schedule', workflowDispatchEvent(), {
      GITHUB_SERVER_URL: SERVER,
      GITHUB_RUN_ID: runId,
      GITHUB_WORKFLOW_REF: `${REPO}/${REPORT_WORKFLOW}@refs/heads/main`
    })

  /**
   * A reporting run, if GitHub would start one: a disabled workflow starts none.
   * @param {{cancel?: boolean, quiet?: boolean}} [how]
   * @returns {Promise<ReportingRun | null>}
   */
  async function reportingRun(how = {}) {
    scheduled++
    if (!github.isWorkflowActive(REPORT_WORKFLOW.split('/').at(-1) ?? '')) {
      notStarted++
      return null
    }
    const runId = String(nextRunId++)
    const startedAt = Date.now()
    const cancel = how.cancel
      ? {
          cancelAfterMs: 200 + Math.floor(cancelRandom() * 2300),
          signal: /** @type {NodeJS.Signals} */ (cancelRandom() < 0.5 ? 'SIGINT' : 'SIGTERM')
        }
      : {}
    const result = await run({ report: 'pending' }, reportEnv(runId), cancel)
    /** @type {{id: string, status: string}[]} */
    let reported = []
    try {
      const parsed = JSON.parse(result.outputs.reported ?? '[]')
      if (Array.isArray(parsed)) reported = parsed
    } catch {
      // No output (a cancelled run may end before it sets one).
    }
    if (how.cancel) cancelled++
    /** @type {ReportingRun} */
    const entry = {
      runId,
      startedAt,
      endedAt: Date.now(),
      cancelled: !!how.cancel,
      quiet: !!how.quiet,
      reported,
      run: result
    }
    reportingRuns.push(entry)
    return entry
  }

  // The script: every kind of request and event at least once, the rest drawn at random.
  /** @type {SoakRequest[]} */
  const requests = []
  /** @type {(RequestKind)[]} */
  const kinds = []
  const must = /** @type {RequestKind[]} */ (['ask', 'ask', 'ask', 'push', 'follow-up', 'chatter'])
  for (let i = 0; i < options.requests; i++) {
    if (i < must.length) kinds.push(must[i])
    else {
      const r = random()
      kinds.push(r < 0.45 ? 'ask' : r < 0.7 ? 'push' : r < 0.88 ? 'follow-up' : 'chatter')
    }
  }
  const mustFaults = /** @type {ServiceFault[]} */ (['429-short', '429-none', '429-long', '5xx-after', '5xx-before'])
  let nextThread = 20
  let longAsked = 0
  let reportingEvents = 0
  /** @type {number[]} Threads asked on so far. */
  const threads = []
  /** @type {Map<number, Promise<void>>} What is running on each thread: a thread's next event waits for it. */
  const onThread = new Map()
  /** @type {Set<Promise<void>>} */
  const running = new Set()
  /** @param {() => Promise<void>} work @param {number | null} [thread] */
  async function launch(work, thread = null) {
    while (running.size >= concurrency) await Promise.race(running)
    const before = thread === null ? undefined : onThread.get(thread)
    const task = (async () => {
      if (before) await before
      await work()
    })()
    running.add(task)
    if (thread !== null) onThread.set(thread, task)
    task.finally(() => running.delete(task))
  }

  for (let i = 0; i < kinds.length; i++) {
    let kind = kinds[i]
    if ((kind === 'follow-up' || kind === 'chatter') && threads.length === 0) kind = 'ask'
    const token = `req${String(i).padStart(4, '0')}z`
    let fault = /** @type {ServiceFault} */ ('none')
    if (kind !== 'chatter') {
      const forced = mustFaults.shift()
      if (forced && kind !== 'push') fault = forced
      else if (forced) mustFaults.unshift(forced)
      else {
        const r = random()
        fault =
          r < 0.62
            ? 'none'
            : r < 0.74
              ? '429-short'
              : r < 0.82
                ? '429-none'
                : r < 0.88
                  ? '429-long'
                  : r < 0.94
                    ? '5xx-before'
                    : '5xx-after'
      }
      if (kind === 'push' && fault === '429-long') fault = '429-short'
    }
    const thread = kind === 'push' ? null : kind === 'ask' ? nextThread++ : threads[pick(threads.length)]
    if (kind === 'ask' && thread !== null) threads.push(thread)
    /** @type {SoakRequest} */
    const request = {
      index: i,
      token,
      kind,
      fault,
      thread,
      // A long prompt where the rate limit may queue it: the first such ask, then one in three.
      long: kind === 'ask' && fault.startsWith('429') && (!longAsked++ || random() < 0.33),
      askComment: null,
      sha: null,
      withdrawnAt: null,
      withdrawnHow: null,
      longWaitUntil: 0,
      retryAfters: new Map(),
      replies: [],
      run: null
    }
    requests.push(request)
    await launch(() => playRequest(request), thread)

    // Between requests: reporting runs (some two at once, some cancelled), and withdrawals.
    if (i % 3 === 2 || i === kinds.length - 1) {
      // The first three: one alone, one cancelled, two at once; then drawn.
      const r = [0.9, 0.3, 0.1][reportingEvents++] ?? random()
      if (r < 0.25) {
        twoAtOnce++
        await launch(async () => void (await Promise.all([reportingRun(), reportingRun()])))
      } else if (r < 0.5) {
        await launch(async () => void (await reportingRun({ cancel: true })))
      } else {
        await launch(async () => void (await reportingRun()))
      }
    }
    // A triager puts the index's label on an older issue; an outsider copies a record beside it.
    if (i === 1) github.addIssue({ number: 5, title: 'Roadmap', labels: ['docs-agent:jobs'], login: 'octo-triager' })
    if (i === 6) await launch(async () => copyRecord())
    if (i === 4 || (i > 4 && random() < 0.12)) {
      const target = requests
        .filter((q) => q.thread !== null && q.withdrawnAt === null && q.kind === 'ask')
        .at(-1 - pick(3))
      if (target?.thread !== null && target) {
        const how = i === 4 || random() < 0.5 ? 'deleted' : 'closed'
        await launch(async () => withdraw(target, how), target.thread)
      }
    }
  }
  await Promise.all(running)
  progress(`played ${requests.length} requests, ${reportingRuns.length} reporting runs`)

  // The end: every job ends, the faults stop, an hour passes (claims lapse), quiet reporting runs.
  quiet = true
  // The service's short refusals end (7 s at most): a create kept for after its Retry-After is then allowed.
  const leftMs = shortWaitsEnd + 1000 - Date.now()
  if (leftMs > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(leftMs, 10_000)))
  serviceChaos.rate = 0
  githubChaos.rate = 0
  for (const job of service.jobs.values()) {
    job.plan = { ...job.plan, activeReads: 0 }
    for (const message of job.messages) message.plan = { ...message.plan, activeReads: 0 }
  }
  github.ageReactions(61 * 60_000)
  let quietTold = 0
  let idle = 0
  const quietLimit = Math.ceil(service.jobs.size / 20) + 4
  for (let q = 0; q < quietLimit && idle < 2; q++) {
    const done = await reportingRun({ quiet: true })
    if (!done) {
      progress('the reporting workflow is off: GitHub starts no more reporting runs')
      break
    }
    const told = done.reported.filter((j) => FINAL.has(j.status)).length
    quietTold += told
    idle = told === 0 ? idle + 1 : 0
  }
  progress(`quiet reporting runs told ${quietTold}`)

  judge()
  options.inspect?.({ github, service, requests, reportingRuns, allRuns })
  await Promise.all([service.close(), github.close()])

  /** @type {Record<string, number>} */
  const kindTally = {}
  /** @type {Record<string, number>} */
  const faultTally = {}
  for (const q of requests) {
    kindTally[q.kind] = (kindTally[q.kind] ?? 0) + 1
    if (q.kind !== 'chatter') faultTally[q.fault] = (faultTally[q.fault] ?? 0) + 1
  }
  return {
    seed,
    requests: requests.length,
    kinds: kindTally,
    serviceFaults: faultTally,
    jobs: service.created,
    messages: service.messages,
    runs: allRuns.length,
    reportingRuns: reportingRuns.length,
    scheduled,
    notStarted,
    cancelled,
    twoAtOnce,
    withdrawn,
    copies,
    githubFaults,
    githubMade,
    wallMs: Date.now() - started,
    breaks
  }

  /** @param {SoakRequest} request */
  async function playRequest(request) {
    const { token } = request
    scriptServiceFault(request)
    /** @type {Record<string, string>} */
    let inputs = { wait: 'false' }
    /** @type {Record<string, string>} */
    let env
    if (request.kind === 'push') {
      const commit = standInCommit(`Add the ${token} flag`, [changedFile(`src/${token}.ts`)])
      request.sha = commit.sha
      inputs = { ...inputs, prompt: `Document the change ${token}`, context: 'none' }
      env = runnerEnvironment(github, 'push', pushEvent({ commits: [commit] }), {
        GITHUB_SERVER_URL: SERVER,
        GITHUB_RUN_ID: String(nextRunId++)
      })
    } else {
      const thread = /** @type {number} */ (request.thread)
      if (github.issue(thread)?.locked) {
        // A locked thread takes no comment from its people: nothing is asked there.
        request.kind = 'chatter'
        return
      }
      const body =
        request.kind === 'ask'
          ? `/docs document the ${token} option${request.long ? `. ${LONG_JAPANESE}` : ''}`
          : request.kind === 'follow-up'
            ? `/docs also say what ${token} does with the limits`
            : `Thanks, looking forward to it (${token})`
      const id = github.addComment({ issueNumber: thread, body, login: 'octo-maintainer' })
      request.askComment = id
      env = runnerEnvironment(
        github,
        'issue_comment',
        issueCommentEvent({ body, number: thread, commentId: id, login: 'octo-maintainer' }),
        { GITHUB_SERVER_URL: SERVER, GITHUB_RUN_ID: String(nextRunId++) }
      )
    }
    const mine = (/** @type {{login: string}} */ c) => c.login === 'github-actions[bot]'
    const before = new Set(request.thread === null ? [] : github.threadComments(request.thread).map((c) => c.id))
    request.run = await run(inputs, env)
    if (request.thread !== null) {
      request.replies = github
        .threadComments(request.thread)
        .filter((c) => mine(c) && !before.has(c.id))
        .map((c) => c.id)
    }
  }

  /** The service's answer to this request's create, as scripted. @param {SoakRequest} request */
  function scriptServiceFault(request) {
    const { token, fault } = request
    const forThis = (/** @type {{method: string, body: string}} */ req) =>
      req.method === 'POST' && req.body.includes(token)
    const tooMany = { status: 429, body: 'Too Many Requests', contentType: 'text/plain', times: 1e9 }
    if (fault === '429-short' || fault === '429-none' || fault === '429-long') {
      const windowMs =
        fault === '429-long'
          ? 3_600_000
          : fault === '429-short'
            ? 1000 + Math.floor(windowRandom() * 2000)
            : 3000 + Math.floor(windowRandom() * 4000)
      const until = Date.now() + windowMs
      if (fault === '429-long') request.longWaitUntil = until
      else shortWaitsEnd = Math.max(shortWaitsEnd, until)
      service.addFault({
        ...tooMany,
        when: (req) => forThis(req) && req.at < until,
        ...(fault === '429-none'
          ? {}
          : {
              headers: (/** @type {number} */ at) => {
                const seconds = Math.max(1, Math.ceil((until - at) / 1000))
                request.retryAfters.set(at, seconds)
                return { 'retry-after': String(seconds) }
              }
            })
      })
    } else if (fault === '5xx-before') {
      service.addFault({ status: 503, body: '<html><body>503</body></html>', contentType: 'text/html', when: forThis })
    } else if (fault === '5xx-after') {
      service.addFault({
        status: 502,
        body: '<html><body>Bad gateway</body></html>',
        contentType: 'text/html',
        afterCreate: true,
        when: forThis
      })
    }
  }

  /** An outsider posts a copy of the newest record on the index, where GitHub lets them (an unlocked index). */
  async function copyRecord() {
    const index = github.issues.find((issue) => issue.labels.includes('docs-agent:jobs'))
    const record =
      index &&
      github
        .threadComments(index.number)
        .filter((c) => c.login === 'github-actions[bot]')
        .at(-1)
    if (!index || !record) return
    try {
      github.addComment({ issueNumber: index.number, body: record.body, login: 'mallory' })
      copies++
    } catch {
      // Locked: GitHub refuses the outsider's comment.
    }
  }

  /** @param {SoakRequest} request @param {'deleted' | 'closed'} how */
  async function withdraw(request, how) {
    const thread = /** @type {number} */ (request.thread)
    if (how === 'deleted' && request.askComment !== null) github.deleteComment(request.askComment)
    else github.closeIssue(thread, { reason: 'not_planned', lock: true })
    withdrawn++
    // Everything asked on the thread so far is withdrawn by a close; only that request by a deletion.
    for (const q of requests) {
      if (q.thread !== thread || q.withdrawnAt !== null) continue
      if (how === 'closed' || q === request) {
        q.withdrawnAt = Date.now()
        q.withdrawnHow = how
      }
    }
  }

  function judge() {
    const jobs = [...service.jobs.values()]
    /** The jobs some reporting run told the ending of. */
    const told = new Set(reportingRuns.flatMap((r) => r.reported.filter((j) => FINAL.has(j.status)).map((j) => j.id)))
    /** @param {string} token */
    const writesOf = (token) => [
      ...jobs.filter((j) => j.prompt.includes(token)).map((j) => ({ job: j.id, at: j.createdAt, kind: 'create' })),
      ...jobs.flatMap((j) =>
        j.messages.filter((m) => m.prompt.includes(token)).map((m) => ({ job: j.id, at: m.at, kind: 'message' }))
      )
    ]
    const allText = () =>
      github.allComments.map((c) => c.body).join('\n') +
      github.statuses.map((s) => `${s.description} ${s.target_url}`).join('\n') +
      github.issues.map((i) => `${i.title} ${i.body}`).join('\n')
    const outputsOf = (/** @type {import('./run-action.js').ActionRun} */ r) =>
      [withoutMaskCommands(r.stdout), r.stderr, JSON.stringify(r.outputs), r.summary].join('\n')
    const comment = (/** @type {number} */ id) => github.allComments.find((c) => c.id === id)

    for (const q of requests) {
      const writes = writesOf(q.token)
      const name = `request ${q.index} (${q.kind}${q.fault === 'none' ? '' : `, service ${q.fault}`}${q.thread ? ` on #${q.thread}` : ''})`
      if (q.kind === 'chatter') {
        if (writes.length) broke('made-once', `${name} asked nothing and reached the service ${writes.length} times`)
        continue
      }
      if (writes.length > 1)
        broke(
          'made-once',
          `${name} reached the service ${writes.length} times (${writes.map((w) => w.kind).join(', ')})`
        )
      for (const w of writes) {
        if (q.withdrawnAt !== null && w.at > q.withdrawnAt) {
          broke(
            'not-after-withdrawal',
            `${name} was made (${w.kind}) ${w.at - q.withdrawnAt} ms after it was withdrawn (${q.withdrawnHow})`
          )
        }
      }
      checkRetryAfter(q, name)
      const stillWaiting = q.longWaitUntil > Date.now()
      const replies = q.replies.map(comment).filter((c) => c !== undefined)
      if (replies.length > 1) broke('reply-tells-ending', `${name} has ${replies.length} replies on its thread`)
      if (writes.length === 0 && q.withdrawnAt === null && !stillWaiting) {
        const promising = replies.filter((c) => PROMISE.test(c.body))
        if (promising.length || q.run?.outputs.jobCreated === 'true') {
          broke(
            'made-or-refused',
            `${name} was never made, and ${promising.length ? 'its reply still promises: ' + excerpt(promising[0].body) : 'its run said a job was created'}`
          )
        }
      }
      const created = writes.find((w) => w.kind === 'create')
      if (created && replies.length && told.has(created.job)) {
        const still = replies.filter((c) => PROMISE.test(c.body))
        if (still.length)
          broke(
            'reply-tells-ending',
            `${name}: job ${created.job} was told, and its reply still promises: ${excerpt(still[0].body)}`
          )
      }
    }

    // Told once: each job the action knew of, in reporting runs' `reported` with its ending.
    for (const job of jobs) {
      const known =
        allRuns.some((r) => r.outputs.jobId === job.id) ||
        github.allComments.some((c) => c.body.includes(job.id)) ||
        reportingRuns.some((r) => r.reported.some((j) => j.id === job.id))
      // Not ended (made by the last quiet run): nothing to tell yet.
      if (!known || !FINAL.has(service.record(job.id)?.status ?? '')) continue
      // A job already ended when its hand-over run read it is told by that run itself.
      const heldItself = allRuns.some((r) => r.outputs.jobId === job.id && FINAL.has(r.outputs.status ?? ''))
      const tellers = reportingRuns.filter((r) => r.reported.some((j) => j.id === job.id && FINAL.has(j.status)))
      if (heldItself && tellers.length === 0) continue
      const allowed = 1 + job.messages.length
      // A hand-over whose record GitHub refused is refused in words: nothing tells it, and nothing promised it.
      if (tellers.length === 0 && refusedInWords(job)) continue
      if (tellers.length === 0) {
        // Told on GitHub (a reporting run's link on its reply or status) but in no run's `reported`: the
        // ending reached the thread, not the steps that read the output; else it was never told.
        const where = whereTold(job)
        broke(
          where.teller ? 'reported-once' : 'told-once',
          `job ${job.id} (${excerpt(job.prompt).slice(0, 50)}) ended and is in no run's reported${where.words}`
        )
      }
      if (tellers.length > allowed) {
        broke(
          'told-once',
          `job ${job.id} was told ${tellers.length} times (runs ${tellers.map((r) => r.runId).join(', ')}; ${job.messages.length} messages)`
        )
      }
      for (let a = 0; a < tellers.length; a++) {
        for (let b = a + 1; b < tellers.length; b++) {
          if (tellers[a].startedAt < tellers[b].endedAt && tellers[b].startedAt < tellers[a].endedAt) {
            broke('told-once', `job ${job.id} was told by runs ${tellers[a].runId} and ${tellers[b].runId} at once`)
          }
        }
      }
    }

    // No status pending: per commit and context, the newest.
    /** @type {Map<string, import('./stand-in-github.js').CommitStatus>} */
    const newest = new Map()
    for (const s of github.statuses) newest.set(`${s.sha} ${s.context}`, s)
    for (const s of newest.values()) {
      if (s.state !== 'pending') continue
      const waiting = requests.some((q) => q.sha === s.sha && q.longWaitUntil > Date.now())
      if (!waiting)
        broke('no-status-pending', `commit ${s.sha.slice(0, 7)} (${s.context}) is still pending: ${s.description}`)
    }

    for (const [i, r] of allRuns.entries()) {
      const text = outputsOf(r)
      if (text.includes(secret)) broke('key-never-printed', `run ${i + 1} printed the key`)
      const unexpected = text.split('\n').find((line) => UNEXPECTED.test(line))
      if (unexpected) broke('no-unexpected-failure', `run ${i + 1} said: ${excerpt(unexpected)}`)
      if (/\n\s+at .+:\d+:\d+/.test(r.stdout + r.stderr))
        broke('no-unexpected-failure', `run ${i + 1} printed a stack trace`)
    }
    if (allText().includes(secret)) broke('key-never-printed', 'the key is on GitHub (a comment, a status or an issue)')
  }

  /**
   * Where a job's ending shows on GitHub, and by which reporting run (its link): for a break's words.
   * @param {import('./stand-in-service.js').StandInJob} job
   */
  function whereTold(job) {
    const request = requests.find((q) => job.prompt.includes(q.token))
    const status = request?.sha ? github.statuses.filter((s) => s.sha === request.sha).at(-1) : undefined
    const reply = request?.replies.map((id) => github.allComments.find((c) => c.id === id)).find((c) => c)
    const runOf = (/** @type {string | null | undefined} */ text) =>
      [...(text ?? '').matchAll(/actions\/runs\/(\d+)/g)]
        .map((m) => m[1])
        .find((id) => reportingRuns.some((r) => r.runId === id))
    const teller = runOf(status?.target_url) ?? runOf(reply?.body)
    const run = reportingRuns.find((r) => r.runId === teller)
    const warned = request?.run?.stdout.split('\n').find((line) => line.startsWith('::warning::'))
    const shown = status
      ? `status ${status.state}`
      : reply
        ? `reply: ${excerpt(reply.body).slice(0, 80)}`
        : `nothing shown; its run warned: ${warned ? excerpt(warned).slice(0, 160) : 'nothing'}`
    const by = teller
      ? `, by run ${teller}${run?.cancelled ? ', which was cancelled' : run && run.run.code !== 0 ? `, which ended with exit ${run.run.code}` : ''}`
      : ''
    return { teller, words: ` (${shown}${by})` }
  }

  /**
   * Whether every request that reached `job` (its create, its messages) was handed over without a
   * record and says so where a person reads it: its run warned that it could not leave the record,
   * its summary and its reply (if it has one) say the ending will not be posted and promise nothing,
   * and its commit (a push) shows no status that waits for the ending.
   * @param {import('./stand-in-service.js').StandInJob} job
   */
  function refusedInWords(job) {
    const asked = requests.filter(
      (q) => job.prompt.includes(q.token) || job.messages.some((m) => m.prompt.includes(q.token))
    )
    return (
      asked.length > 0 &&
      asked.every((q) => {
        const run = q.run
        if (!run || !run.stdout.includes(`Could not leave the record of job ${job.id} `)) return false
        if (!NOT_POSTED.test(run.summary) || PROMISE.test(run.summary)) return false
        const replies = q.replies.map((id) => github.allComments.find((c) => c.id === id)).filter((c) => c)
        if (replies.some((c) => !NOT_POSTED.test(c?.body ?? '') || PROMISE.test(c?.body ?? ''))) return false
        const statuses = q.sha ? github.statuses.filter((s) => s.sha === q.sha) : []
        return statuses.every((s) => s.state !== 'pending' && !PROMISE.test(s.description ?? ''))
      })
    )
  }

  /** Creates for a request are not sent again before the Retry-After the service gave. @param {SoakRequest} q @param {string} name */
  function checkRetryAfter(q, name) {
    let notBefore = 0
    for (const req of service.requests) {
      if (req.method !== 'POST' || !req.body.includes(q.token)) continue
      // A second's slack: Retry-After is in whole seconds.
      if (req.at < notBefore - 1000) {
        broke(
          'retry-after-honoured',
          `${name}: a create was sent ${notBefore - req.at} ms before the service's Retry-After`
        )
        return
      }
      const after = req.answer?.status === 429 ? (q.retryAfters.get(req.at) ?? 0) : 0
      notBefore = after ? req.at + after * 1000 : 0
    }
  }
}

/** @param {string} text */
function excerpt(text) {
  const flat = text
    .replace(/<!--[^]*?-->/g, '')
    .replace(/\s+/g, ' ')
    .trim()
  return flat.length > 160 ? `${flat.slice(0, 160)}…` : flat
}

/**
 * The report as lines of text.
 * @param {HandOverSoakReport} report
 */
export function describeHandOverSoak(report) {
  const tally = (/** @type {Record<string, number>} */ t) =>
    Object.entries(t)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')
  /** @type {Record<string, number>} */
  const byRule = {}
  for (const b of report.breaks) byRule[b.rule] = (byRule[b.rule] ?? 0) + 1
  return [
    `hand-over soak, seed ${report.seed}: ${report.requests} requests (${tally(report.kinds)})`,
    `service faults on their creates: ${tally(report.serviceFaults)}`,
    `jobs made ${report.jobs}, messages ${report.messages}; runs ${report.runs}, of them reporting ${report.reportingRuns} ` +
      `(${report.cancelled} cancelled, ${report.twoAtOnce} times two at once; ${report.notStarted} of ${report.scheduled} ` +
      `scheduled not started, the workflow off); withdrawals ${report.withdrawn}; records copied by an outsider ${report.copies}`,
    `GitHub writes answered 502: ${report.githubFaults} (${report.githubMade} made despite it)`,
    `wall time ${(report.wallMs / 1000).toFixed(1)} s`,
    ...Object.keys(RULES).map((rule) => `  ${byRule[rule] ? `BROKEN ${byRule[rule]}x` : 'holds    '}  ${rule}`)
  ]
}
