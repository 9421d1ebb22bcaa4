// @ts-check
// A stand-in for the documentation agent job service: a real HTTP server on 127.0.0.1 that the
// tests, the demo and the benchmark all talk to. Plain JavaScript with Node's built-ins only, so
// that `npm run demo` works on a fresh clone with no install step.
//
// It serves the interface as docs/service-contract.md and docs/openapi.yaml describe it (201 on create, 200 on get,
// {"error": ...} bodies, 401/403/404/429), records every request it receives, and can be scripted:
// how each job's status moves over time, and faults to inject (status codes, bodies, Retry-After,
// proxy pages, hangs, connection resets, a lost answer after the job was made). It also takes
// follow-up messages to a job (POST .../job/{jobId}/message), and can go on showing the job as it
// was before a message for a few reads, as the real service may.
import http from 'node:http'

/**
 * @typedef {'active' | 'completed' | 'archived' | 'failed' | string} Status
 *
 * @typedef {object} Plan How one job's status moves over time.
 * @property {Array<[number, Status]>} [timeline] `[msAfterCreate, status]` pairs, in order;
 *   default `[[0, 'active'], [activeMs, final]]`.
 * @property {number} [activeMs] How long the job stays active (default 300).
 * @property {number} [activeReads] Instead of a time: the job reads active for this many reads
 *   (GETs, from the create or the message), then final; a test that counts reads needs no clock.
 * @property {Status[]} [readStatuses] Instead of a time: the status each read (GET) shows in turn, the
 *   last one thereafter; the create's answer shows the first. No clock either.
 * @property {Status} [final] The status it ends in (default 'completed').
 * @property {string | null} [prLink] The pull request once final; default a made-up GitHub link
 *   for a completed job, null otherwise.
 * @property {string | null} [ref] `source.ref` (default 'main'; null as the real service may send).
 * @property {string} [repository] `source.repository` (default 'https://github.com/example/docs').
 *
 * @typedef {object} Fault An answer that replaces the normal one.
 * @property {'POST' | 'GET'} [method] Only requests with this method.
 * @property {string} [path] Only requests whose path contains this ('/message' for follow-up messages).
 * @property {number} [times] How many matching requests it applies to (default 1).
 * @property {(req: RecordedRequest) => boolean} [when] Only requests it says yes to (one request's
   create, by its prompt: a rate limit that refuses it until a moment passes).
 * @property {boolean} [afterCreate] For a POST: make the job (or take the message) first, then answer
 *   with the fault (a 5xx or a lost answer that nevertheless made a job or delivered a message).
 * @property {number} [status] The HTTP status to answer with.
 * @property {string | object} [body] The body (objects are sent as JSON).
 * @property {string} [contentType]
 * @property {Record<string, string> | ((at: number) => Record<string, string>)} [headers] Or a function of
 *   when the request arrived (Date.now()): a Retry-After date relative to the read it answers.
 * @property {'reset'} [drop] Destroy the connection instead of answering.
 * @property {boolean} [hang] Never answer (until the server closes).
 * @property {number} [delayMs] Answer normally (or with the fault), but this much later.
 * @property {number} [dripMs] Answer normally (or with the fault), but send the body one byte
 *   every this many milliseconds, after the status and headers.
 *
 * @typedef {object} RecordedRequest
 * @property {string} method
 * @property {string} path
 * @property {Record<string, string | string[] | undefined>} headers
 * @property {string} body
 * @property {number} at When it arrived (Date.now()).
 * @property {{status: number, contentType: string, body: string}} [answer] What the stand-in answered
 *   (none for a dropped connection or a request left hanging): tests check it against docs/openapi.yaml.
 *
 * @typedef {object} StandInJob
 * @property {string} id
 * @property {number} number Which job it is, from 1 (seeded jobs from 901).
 * @property {string} projectId
 * @property {string} prompt
 * @property {number} createdAt Date.now() when it was made.
 * @property {Plan} plan
 * @property {{at: number, prompt: string, plan: Plan}[]} messages The follow-up messages it took, in order.
 * @property {object | null} stale The record as it was before the last message, while it is still shown.
 * @property {number} staleLeft How many more reads show `stale`.
 * @property {number} reads Reads served from the current plan (for activeReads).
 * @property {string | null} archivedAt When the job was first seen archived: it does not change on later reads.
 *
 * @typedef {object} Options
 * @property {string} [apiKey] The key the service accepts (default 'svc_stand_in_key').
 * @property {string[]} [readOnlyKeys] Keys that may read but not create (403 on create).
 * @property {string[]} [projects] The projects that exist (default: any).
 * @property {Plan | ((n: number) => Plan)} [plan] How jobs move (or one plan per nth job, from 1).
 * @property {(n: number) => string} [jobIds] The id of the nth job made (from 1); by default
 *   `job_<n>_<random>`. The contract allows any string: a test may give ids with `/`, `%`, spaces...
 * @property {Plan | ((n: number) => Plan)} [messagePlan] How a job moves after a follow-up message,
 *   counted from the message (or one plan per nth message, from 1); default: active for 300 ms, then
 *   completed, with the same default pull request.
 * @property {number} [staleReadsAfterMessage] The message's answer and this many reads after it show
 *   the job as it was before the message (its old final status and prLink), as the real service may.
 * @property {boolean} [freshMessageAnswer] The message's answer shows the job as it is after the message
 *   (active) while the reads after it still show the old record (staleReadsAfterMessage).
 * @property {string[]} [refuseMessagesWhen] Statuses in which a job refuses a message with 400
 *   (default archived and failed).
 * @property {Fault[]} [faults] Faults to inject, first match wins.
 * @property {RandomFaults} [randomFaults] Faults at random, for soak tests.
 * @property {string} [host] Default 127.0.0.1.
 * @property {number} [port] Default 0 (any free port).
 *
 * @typedef {object} RandomFaults
 * @property {number} rate The share of requests that get a fault, 0 to 1.
 * @property {() => number} random A source of numbers in [0, 1) (seeded, in a test).
 * @property {Fault[]} [writeFaults] The faults a POST may get (default RANDOM_CREATE_FAULTS).
 * @property {Fault[]} [readFaults] The faults a GET may get (default RANDOM_READ_FAULTS).
 */

export const DEFAULT_KEY = 'svc_stand_in_key'

/** Faults a real network and a real service produce, for a create and for a read. */
export const RANDOM_CREATE_FAULTS = /** @type {Fault[]} */ ([
  { status: 429, body: 'Too Many Requests', contentType: 'text/plain', headers: { 'retry-after': '0' } },
  { status: 503, body: '<html><body><h1>503 Service Unavailable</h1></body></html>', contentType: 'text/html' },
  { status: 500, body: { error: 'Internal error' }, afterCreate: true },
  { drop: 'reset' },
  { drop: 'reset', afterCreate: true },
  { status: 502, body: '<html><body>Bad gateway</body></html>', contentType: 'text/html', afterCreate: true }
])
export const RANDOM_READ_FAULTS = /** @type {Fault[]} */ ([
  { status: 500, body: { error: 'Internal error' } },
  { status: 502, body: '<html><body>Bad gateway</body></html>', contentType: 'text/html' },
  { status: 503, body: 'unavailable', contentType: 'text/plain', headers: { 'retry-after': '0' } },
  { status: 504, body: '' },
  { status: 429, body: 'slow down', contentType: 'text/plain', headers: { 'retry-after': '0' } },
  { status: 408, body: '' },
  { status: 200, body: '<html><body>Please log in to the proxy</body></html>', contentType: 'text/html' },
  { status: 200, body: { status: 'active' } },
  { drop: 'reset' },
  { delayMs: 50 }
])

/**
 * Starts the stand-in on 127.0.0.1 (port 0 picks a free one).
 * @param {Options} [options]
 */
export async function startStandInService(options = {}) {
  const apiKey = options.apiKey ?? DEFAULT_KEY
  const readOnlyKeys = new Set(options.readOnlyKeys ?? [])
  const faults = [...(options.faults ?? [])].map((f) => ({ ...f, left: f.times ?? 1 }))
  /** @type {RecordedRequest[]} */
  const requests = []
  /** @type {{method: string, fault: Fault}[]} Every fault answered, scripted or random, in order. */
  const injected = []
  /** @type {Map<string, StandInJob>} */
  const jobs = new Map()
  /** @type {Set<import('node:net').Socket>} */
  const sockets = new Set()
  let created = 0
  let messages = 0
  let seeded = 0

  /** @param {number} n */
  const planFor = (n) => (typeof options.plan === 'function' ? options.plan(n) : (options.plan ?? {}))

  /** The plan the job follows now, and when it started: the last message's, or the create's. @param {StandInJob} job */
  function currentPlan(job) {
    const last = job.messages[job.messages.length - 1]
    return last ? { plan: last.plan, since: last.at } : { plan: job.plan, since: job.createdAt }
  }

  /** @param {Plan} plan @returns {Array<[number, Status]>} */
  const timelineOf = (plan) =>
    plan.timeline ?? [
      [0, 'active'],
      [plan.activeMs ?? 300, plan.final ?? 'completed']
    ]

  /** @param {StandInJob} job @param {number} [now] */
  function recordOf(job, now = Date.now()) {
    const { plan, since } = currentPlan(job)
    const timeline = timelineOf(plan)
    let status = timeline[0][1]
    for (const [afterMs, s] of timeline) if (now - since >= afterMs) status = s
    if (plan.activeReads !== undefined) status = job.reads < plan.activeReads ? 'active' : (plan.final ?? 'completed')
    if (plan.readStatuses?.length) status = plan.readStatuses[Math.min(job.reads, plan.readStatuses.length - 1)]
    const done = status === 'completed' || status === 'archived' || status === 'failed'
    const defaultPr = status === 'completed' ? `https://github.com/example/docs/pull/${job.number}` : null
    // Archived once, archived at that moment: the record says the same on every read after it.
    if (status === 'archived') job.archivedAt ??= new Date(now).toISOString()
    return {
      id: job.id,
      status,
      source: {
        repository: plan.repository ?? 'https://github.com/example/docs',
        ref: plan.ref === undefined ? 'main' : plan.ref
      },
      model: 'docs-agent-large',
      prLink: done ? (plan.prLink === undefined ? defaultPr : plan.prLink) : null,
      createdAt: new Date(job.createdAt).toISOString(),
      archivedAt: status === 'archived' ? job.archivedAt : null
    }
  }

  /** @param {RecordedRequest} req */
  function pickFault(req) {
    const fault = faults.find(
      (f) =>
        f.left > 0 &&
        (!f.method || f.method === req.method) &&
        (!f.path || req.path.includes(f.path)) &&
        (!f.when || f.when(req))
    )
    if (fault) {
      fault.left--
      injected.push({ method: req.method, fault })
      return fault
    }
    const random = options.randomFaults
    if (random && random.random() < random.rate) {
      const pool =
        req.method === 'POST' ? (random.writeFaults ?? RANDOM_CREATE_FAULTS) : (random.readFaults ?? RANDOM_READ_FAULTS)
      const picked = pool[Math.floor(random.random() * pool.length)]
      injected.push({ method: req.method, fault: picked })
      return picked
    }
    return null
  }

  /**
   * @param {http.ServerResponse} res
   * @param {number} status
   * @param {string | object} body
   * @param {string} [contentType]
   * @param {Record<string, string>} [headers]
   * @param {RecordedRequest} [req] The request answered: its `answer` is recorded.
   */
  function send(res, status, body, contentType, headers = {}, dripMs = 0, req = undefined) {
    const text = typeof body === 'string' ? body : JSON.stringify(body)
    const type = contentType ?? 'application/json'
    if (req) req.answer = { status, contentType: type, body: text }
    res.writeHead(status, { 'content-type': type, ...headers })
    if (!dripMs) return void res.end(text)
    res.flushHeaders()
    const bytes = Buffer.from(text)
    let sent = 0
    const drip = setInterval(() => {
      if (sent < bytes.length) res.write(bytes.subarray(sent, ++sent))
      else res.end()
    }, dripMs)
    res.on('close', () => clearInterval(drip))
  }

  /** @param {RecordedRequest} req @param {http.ServerResponse} res @returns {{status: number, body: object, contentType?: string}} */
  function answer(req, res) {
    const match = /^\/v2\/agent\/([^/]+)\/job(?:\/([^/]+)(\/message)?)?$/.exec(req.path)
    if (!match) return { status: 404, body: { error: 'Not found' } }
    /** @param {string} part */
    const decoded = (part) => {
      try {
        return decodeURIComponent(part)
      } catch {
        return null
      }
    }
    const projectId = decoded(match[1])
    const jobId = match[2] === undefined ? null : decoded(match[2])
    if (projectId === null || jobId === '') return { status: 404, body: { error: 'Not found' } }
    const isMessage = match[3] !== undefined
    const auth = String(req.headers.authorization ?? '')
    const key = auth.startsWith('Bearer ') ? auth.slice('Bearer '.length) : ''
    if (key !== apiKey && !readOnlyKeys.has(key)) return { status: 401, body: { error: 'Invalid API key' } }
    if (options.projects && !options.projects.includes(projectId))
      return { status: 404, body: { error: 'Project not found' } }

    if (req.method === 'POST' && (jobId === null || isMessage)) {
      if (readOnlyKeys.has(key)) return { status: 403, body: { error: 'API key lacks the write scope' } }
      // As documented: the body is JSON, sent as such (a text/plain body is refused, whatever it holds).
      const type = String(req.headers['content-type'] ?? '')
        .split(';')[0]
        .trim()
        .toLowerCase()
      if (type !== 'application/json') return { status: 400, body: { error: 'Content-Type must be application/json' } }
      /** @type {unknown} */
      let parsed
      try {
        parsed = JSON.parse(req.body)
      } catch {
        return { status: 400, body: { error: 'Body must be JSON' } }
      }
      const prompt = /** @type {{prompt?: unknown}} */ (parsed)?.prompt
      if (typeof prompt !== 'string' || prompt.trim() === '')
        return { status: 400, body: { error: 'prompt must be a non-empty string' } }
      if (jobId === null) return { status: 201, body: recordOf(makeJob(projectId, prompt)) }
      const job = jobId === null ? undefined : jobs.get(jobId)
      if (!job || job.projectId !== projectId) return { status: 404, body: { error: 'Job not found' } }
      const before = recordOf(job)
      if ((options.refuseMessagesWhen ?? ['archived', 'failed']).includes(before.status))
        return { status: 400, body: { error: `Job is ${before.status} and takes no more messages` } }
      takeMessage(job, prompt, before)
      return { status: 200, body: (!options.freshMessageAnswer && job.stale) || recordOf(job) }
    }
    if (req.method === 'GET' && jobId !== null && !isMessage) {
      const job = jobId === null ? undefined : jobs.get(jobId)
      if (!job || job.projectId !== projectId) return { status: 404, body: { error: 'Job not found' } }
      if (job.stale && job.staleLeft > 0) {
        job.staleLeft--
        return { status: 200, body: job.stale }
      }
      const record = recordOf(job)
      job.reads++
      return { status: 200, body: record }
    }
    res.setHeader('allow', jobId === null || isMessage ? 'POST' : 'GET')
    return { status: 405, body: { error: 'Method not allowed' } }
  }

  /**
   * The job takes a follow-up message: it moves by the message plan from now, and may go on showing
   * the record from before it (`before`) for a few reads (staleReadsAfterMessage).
   * @param {StandInJob} job @param {string} prompt @param {object} before
   */
  function takeMessage(job, prompt, before) {
    messages++
    const plan = typeof options.messagePlan === 'function' ? options.messagePlan(messages) : (options.messagePlan ?? {})
    job.messages.push({ at: Date.now(), prompt, plan })
    const staleReads = options.staleReadsAfterMessage ?? 0
    job.stale = staleReads > 0 ? before : null
    job.staleLeft = staleReads
    job.reads = 0
  }

  /** @param {string} projectId @param {string} prompt */
  function makeJob(projectId, prompt) {
    created++
    const id = options.jobIds ? options.jobIds(created) : `job_${created}_${Math.random().toString(36).slice(2, 10)}`
    /** @type {StandInJob} */
    const job = {
      id,
      number: created,
      projectId,
      prompt,
      createdAt: Date.now(),
      plan: planFor(created),
      messages: [],
      stale: null,
      staleLeft: 0,
      reads: 0,
      archivedAt: null
    }
    jobs.set(id, job)
    return job
  }

  const server = http.createServer((incoming, res) => {
    /** @type {Buffer[]} */
    const chunks = []
    incoming.on('data', (c) => chunks.push(c))
    incoming.on('end', async () => {
      /** @type {RecordedRequest} */
      const req = {
        method: incoming.method ?? '',
        path: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now()
      }
      requests.push(req)
      const fault = pickFault(req)
      if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs))
      if (fault?.hang) return
      // The normal answer is worked out (and a job made) unless the fault stands in for it entirely.
      const replaced = fault && (fault.status || fault.drop) && !fault.afterCreate
      const normal = replaced ? null : answer(req, res)
      if (fault?.drop) return void incoming.socket.destroy()
      if (fault?.status) {
        const headers = typeof fault.headers === 'function' ? fault.headers(req.at) : fault.headers
        return send(res, fault.status, fault.body ?? '', fault.contentType, headers, fault.dripMs, req)
      }
      if (normal) send(res, normal.status, normal.body, normal.contentType, {}, fault?.dripMs, req)
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })

  const host = options.host ?? '127.0.0.1'
  /** @param {number} port */
  const listen = (port) =>
    new Promise((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, host, () => {
        server.off('error', reject)
        resolve(undefined)
      })
    })
  await listen(options.port ?? 0)
  const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port
  const dropAll = () => {
    for (const socket of sockets) socket.destroy()
  }

  return {
    url: `http://${host}:${port}`,
    port,
    apiKey,
    /** Every request received, in order. */
    requests,
    /** Every fault injected (scripted or random), with the method of the request it answered. */
    injected,
    jobs,
    /** How many jobs were made. */
    get created() {
      return created
    },
    /** How many follow-up messages were taken (a lost answer's included). */
    get messages() {
      return messages
    },
    /** Requests with this method (and whose path contains `pathPart`, if given). */
    /** @param {string} method @param {string} [pathPart] */
    requestsOf: (method, pathPart = '') => requests.filter((r) => r.method === method && r.path.includes(pathPart)),
    /** The job's record as the service would serve it now. @param {string} id */
    record: (id) => {
      const job = jobs.get(id)
      return job ? recordOf(job) : undefined
    },
    /** When the job reaches its final status (Date.now() scale), after its last message if any. @param {string} id */
    endsAt: (id) => {
      const { plan, since } = currentPlan(/** @type {StandInJob} */ (jobs.get(id)))
      const timeline = timelineOf(plan)
      return since + timeline[timeline.length - 1][0]
    },
    /**
     * A job that exists before the test, made without a request (not counted in `created`): by
     * default one that has completed with a pull request, ready for a follow-up message.
     * @param {{ projectId?: string, plan?: Plan, id?: string }} [seed] `id`: any string (default `job_90<n>_<random>`).
     */
    seedJob: (seed = {}) => {
      seeded++
      const id = seed.id ?? `job_${900 + seeded}_${Math.random().toString(36).slice(2, 10)}`
      const plan = seed.plan ?? { activeMs: 0 }
      /** @type {StandInJob} */
      const job = {
        id,
        number: 900 + seeded,
        projectId: seed.projectId ?? 'docs',
        prompt: '(seeded)',
        createdAt: Date.now(),
        plan,
        messages: [],
        stale: null,
        staleLeft: 0,
        reads: 0,
        archivedAt: null
      }
      jobs.set(id, job)
      return id
    },
    /** @param {Fault} fault */
    addFault: (fault) => faults.push({ ...fault, left: fault.times ?? 1 }),
    /** Stops listening, so connections are refused, until `listenAgain`. */
    stopListening: async () => {
      dropAll()
      await new Promise((resolve) => server.close(() => resolve(undefined)))
    },
    listenAgain: () => listen(port),
    close: async () => {
      dropAll()
      if (server.listening) await new Promise((resolve) => server.close(() => resolve(undefined)))
    }
  }
}

/** @typedef {Awaited<ReturnType<typeof startStandInService>>} StandInService */
