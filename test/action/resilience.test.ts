// The bundled action against a service and a network that misbehave: what the user sees (exit
// code, the ::error:: sentence, outputs) and what the service received (how many creates, how many
// reads, when). A create is sent again only when the service surely did not take it.
import http from 'node:http'
import { expectCleanOutput as expectCleanOutputOf } from '../support/expect-clean-output.js'
import { afterEach, describe, expect, it } from 'vitest'
import { inputsFor, runAction, startAction, type ActionRun, withoutMaskCommands } from '../support/run-action.js'
import { startStandInService, type Fault, type StandInService } from '../support/stand-in-service.js'
import { msAfter, withinTimeout } from '../support/step-time.js'

let service: StandInService
let elsewhere: { server: http.Server; port: number; requests: string[] } | undefined
afterEach(async () => {
  await service?.close()
  if (elsewhere) await new Promise((resolve) => elsewhere!.server.close(resolve))
  elsewhere = undefined
})

const MAY_OR_MAY_NOT = "The job may or may not have been created: check the project's jobs before running again."
const HTML_PAGE = '<html><body><h1>Please log in to the proxy</h1></body></html>'

function inputs(extra: Record<string, string> = {}): Record<string, string> {
  return inputsFor(service, { prompt: 'Document the retry behaviour', timeout: '8s', ...extra })
}

/** Runs the action and measures how long the step took from start to exit. */
async function timedRun(
  extra: Record<string, string> = {},
  env: Record<string, string> = {}
): Promise<ActionRun & { ms: number }> {
  const started = Date.now()
  const run = await runAction({ inputs: inputs(extra), env })
  return { ...run, ms: Date.now() - started }
}

const errors = (run: ActionRun): string[] => run.stdout.split('\n').filter((line) => line.startsWith('::error::'))
const posts = (): number => service.requestsOf('POST').length
const gets = (): number => service.requestsOf('GET').length
const onlyJob = (): string => {
  expect(service.jobs.size).toBe(1)
  return [...service.jobs.keys()][0]
}

/** What every run must hold to, whatever went wrong: no stack trace, no key, nothing on stderr. */
function expectCleanOutput(run: ActionRun): void {
  expectCleanOutputOf(run, service.apiKey)
  expect(run.stderr).toBe('')
}

/** A server at another port, where a redirect points: it must never hear from the action. */
async function startElsewhere(): Promise<NonNullable<typeof elsewhere>> {
  const requests: string[] = []
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`)
    res.writeHead(201, { 'content-type': 'application/json' }).end('{}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  elsewhere = { server, port: (server.address() as { port: number }).port, requests }
  return elsewhere
}

describe('creating the job', () => {
  it('tries again after a 429 with Retry-After: 0, and succeeds with one job', async () => {
    service = await startStandInService({
      plan: { activeMs: 100 },
      faults: [
        {
          method: 'POST',
          status: 429,
          body: 'Too Many Requests',
          contentType: 'text/plain',
          headers: { 'retry-after': '0' }
        }
      ]
    })
    const run = await timedRun()

    expect(run.code).toBe(0)
    expect(posts()).toBe(2)
    expect(run.outputs.jobId).toBe(onlyJob())
    expect(run.stdout).toMatch(
      /::warning::The service's rate limit was reached \(HTTP 429\).*Trying again in 0ms \(try 2 of 4\)\./
    )
    expectCleanOutput(run)
  })

  it('gives up after a few tries when every create is rate limited, saying what the limit is', async () => {
    service = await startStandInService({
      faults: [
        {
          method: 'POST',
          status: 429,
          body: 'Too Many Requests',
          contentType: 'text/plain',
          headers: { 'retry-after': '0' },
          times: 100
        }
      ]
    })
    const run = await timedRun()

    expect(run.code).toBe(1)
    expect(posts()).toBe(4)
    expect(service.created).toBe(0)
    expect(errors(run)).toEqual([
      expect.stringContaining(
        "::error::The service's rate limit was reached (HTTP 429): it allows 100 job creations per project per hour. No job was created;"
      )
    ])
    expect(run.outputs.jobId).toBeUndefined()
    expectCleanOutput(run)
  })

  it('sends the create again when the connection was refused, and succeeds with one job', async () => {
    service = await startStandInService({ plan: { activeMs: 100 } })
    await service.stopListening()
    let refusedSeen = (): void => {}
    const refused = new Promise<void>((resolve) => (refusedSeen = resolve))
    const action = startAction({
      inputs: inputs(),
      onStdout: (chunk) => /Could not reach the service/.test(chunk) && refusedSeen()
    })
    await refused
    await service.listenAgain()
    const run = await action.done

    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(
      /::warning::Could not reach the service at http:\/\/127\.0\.0\.1:\d+: the connection was refused\. No job was created;.* Trying again in [\d.]+m?s \(try 2 of 4\)\./
    )
    expect(posts()).toBe(1) // the refused one never arrived
    expect(run.outputs.jobId).toBe(onlyJob())
    expect(run.outputs.status).toBe('completed')
    expectCleanOutput(run)
  })

  it('does not send the create again when the answer was lost after the job was made', async () => {
    service = await startStandInService({ faults: [{ method: 'POST', drop: 'reset', afterCreate: true }] })
    const run = await timedRun()

    expect(run.code).toBe(1)
    expect(posts()).toBe(1)
    expect(service.created).toBe(1)
    expect(gets()).toBe(0)
    expect(errors(run)).toEqual([
      expect.stringMatching(/^::error::Creating the job got no answer from http:\/\/127\.0\.0\.1:\d+: .+\. /)
    ])
    expect(errors(run)[0]).toContain(MAY_OR_MAY_NOT)
    expect(run.outputs.jobId).toBeUndefined()
    expectCleanOutput(run)
  })

  it.each([
    [500, { error: 'Internal error' }, 'application/json', 'Internal error'],
    [502, '<html><body><center><h1>502 Bad Gateway</h1></center></body></html>', 'text/html', '502 Bad Gateway']
  ])(
    'does not send the create again after a %i, which may have made a job',
    async (status, body, contentType, shown) => {
      service = await startStandInService({
        faults: [{ method: 'POST', status, body, contentType, afterCreate: true }]
      })
      const run = await timedRun()

      expect(run.code).toBe(1)
      expect(posts()).toBe(1)
      expect(service.created).toBe(1)
      expect(errors(run)).toEqual([
        `::error::The service failed while creating the job (HTTP ${status}: ${shown}). ${MAY_OR_MAY_NOT}`
      ])
      expectCleanOutput(run)
    }
  )

  it('shows a short text excerpt of an HTML error page, not its tags', async () => {
    const page =
      '<!DOCTYPE html><html><head><title>503</title><style>body { color: red }</style><script>track()</script></head>' +
      `<body><h1>Service&nbsp;Unavailable</h1><p>The server is down for maintenance.</p><p>${'Lorem ipsum dolor sit amet. '.repeat(40)}</p></body></html>`
    service = await startStandInService({
      faults: [{ method: 'POST', status: 503, body: page, contentType: 'text/html' }]
    })
    const run = await timedRun()

    expect(run.code).toBe(1)
    expect(posts()).toBe(1)
    const [error] = errors(run)
    expect(error).toContain('(HTTP 503: 503 Service Unavailable The server is down for maintenance. Lorem ipsum')
    expect(error).not.toMatch(/[<>]|color: red|track\(\)/)
    const excerpt = /\(HTTP 503: (.*?)\)\. The job may or may not/.exec(error)![1]
    expect(excerpt.length).toBeLessThanOrEqual(200)
    expect(excerpt.endsWith('…')).toBe(true)
    expectCleanOutput(run)
  })

  it('ends at the timeout when the create never answers, without sending it again', async () => {
    service = await startStandInService({ faults: [{ method: 'POST', hang: true }] })
    const run = await timedRun({ timeout: '1s' })

    expect(msAfter(service.requests[0], run)).toBeLessThan(withinTimeout(1000))
    expect(run.code).toBe(1)
    expect(posts()).toBe(1)
    expect(errors(run)).toEqual([
      `::error::The timeout ran out before the service answered the create. ${MAY_OR_MAY_NOT}`
    ])
    expectCleanOutput(run)
  })

  it("shows the service's own message for a 400, and sends nothing more", async () => {
    service = await startStandInService({
      faults: [{ method: 'POST', status: 400, body: { error: 'prompt must be at most 20000 characters' } }]
    })
    const run = await timedRun()

    expect(run.code).toBe(1)
    expect(posts()).toBe(1)
    expect(errors(run)).toEqual([
      '::error::The service rejected the job request (HTTP 400: prompt must be at most 20000 characters). Check the prompt input; no job was created.'
    ])
    expectCleanOutput(run)
  })

  it('says the key was rejected on a 401', async () => {
    service = await startStandInService()
    const run = await timedRun({ apiKey: 'svc_expired_key' })

    expect(run.code).toBe(1)
    expect(posts()).toBe(1)
    expect(errors(run)).toEqual([
      expect.stringContaining(
        '::error::The service rejected the API key (HTTP 401): it is expired or unknown. Check the repository secret passed as apiKey'
      )
    ])
    expect(withoutMaskCommands(run.all)).not.toContain('svc_expired_key')
    expectCleanOutput(run)
  })

  it('says the key was rejected on a 401 to a read of an existing job', async () => {
    service = await startStandInService()
    const run = await timedRun({ apiKey: 'svc_expired_key', prompt: '', jobId: 'job_1_abc' })

    expect(run.code).toBe(1)
    expect(gets()).toBe(1)
    expect(errors(run)).toEqual([
      expect.stringContaining('::error::The service rejected the API key (HTTP 401): it is expired or unknown.')
    ])
    expectCleanOutput(run)
  })

  it('names the missing scope and the IP allow-list on a 403', async () => {
    service = await startStandInService({ readOnlyKeys: ['svc_read_only'] })
    const run = await timedRun({ apiKey: 'svc_read_only' })

    expect(run.code).toBe(1)
    expect(posts()).toBe(1)
    expect(errors(run)).toEqual([
      "::error::The service refused the request (HTTP 403): the API key lacks the write scope, or this runner's address is outside " +
        "the project's IP allow-list. Use a key with the write scope, or allow the runner's address."
    ])
    expectCleanOutput(run)
  })

  it('says the service has no such project on a 404 to the create', async () => {
    service = await startStandInService({ projects: ['website'] })
    const run = await timedRun()

    expect(run.code).toBe(1)
    expect(posts()).toBe(1)
    expect(errors(run)).toEqual([
      `::error::The service has no project docs at ${service.url} (HTTP 404). Check projectId and baseUrl; no job was created.`
    ])
    expectCleanOutput(run)
  })

  it.each(['POST', 'GET'] as const)('does not follow a redirect on a %s, and says so', async (method) => {
    const other = await startElsewhere()
    const location = `http://127.0.0.1:${other.port}/v2/agent/docs/job`
    service = await startStandInService({
      plan: { activeMs: 60_000 },
      faults: [{ method, status: 307, headers: { location } }]
    })
    const run = await timedRun()

    expect(run.code).toBe(1)
    expect(other.requests).toEqual([])
    expect(posts()).toBe(1)
    expect(gets()).toBe(method === 'GET' ? 1 : 0)
    expect(errors(run)).toEqual([
      `::error::The service answered with a redirect (HTTP 307 to ${location}), which is not followed: the key is only sent to ${service.url}. ` +
        'Check baseUrl; the service may have moved.'
    ])
    expectCleanOutput(run)
  })
})

describe('following the job', () => {
  it.concurrent.for<[string, Fault]>([
    ['500', { status: 500, body: { error: 'Internal error' } }],
    ['502 HTML', { status: 502, body: '<html><body>Bad gateway</body></html>', contentType: 'text/html' }],
    ['503', { status: 503, body: 'unavailable', contentType: 'text/plain' }],
    ['504', { status: 504, body: '' }],
    ['408', { status: 408, body: '' }],
    ['429', { status: 429, body: 'slow down', contentType: 'text/plain' }],
    ['a reset connection', { drop: 'reset' as const }]
  ])('reads again after %s, and succeeds', async ([, fault], { onTestFinished }) => {
    // Run side by side (most of each is waiting), so each has a stand-in of its own.
    const own = await startStandInService({ plan: { activeMs: 150 }, faults: [{ method: 'GET', times: 2, ...fault }] })
    onTestFinished(() => own.close())
    const run = await runAction({ inputs: inputsFor(own, { prompt: 'Document the retry behaviour', timeout: '8s' }) })

    expect(run.code).toBe(0)
    expect(run.outputs.status).toBe('completed')
    expect(own.requestsOf('POST')).toHaveLength(1)
    expect(own.injected).toHaveLength(2)
    expect(own.requestsOf('GET').length).toBeGreaterThanOrEqual(3)
    expect(
      run.stdout.match(
        new RegExp(`^(Reading|Could not read) job ${run.outputs.jobId}.* Trying again in [\\d.]+m?s\\.$`, 'gm')
      )
    ).toHaveLength(2)
    expectCleanOutputOf(run, own.apiKey)
    expect(run.stderr).toBe('')
  })

  it('waits as long as Retry-After says in seconds', async () => {
    service = await startStandInService({
      plan: { activeMs: 150 },
      faults: [{ method: 'GET', status: 503, body: 'busy', contentType: 'text/plain', headers: { 'retry-after': '1' } }]
    })
    const run = await timedRun()

    expect(run.code).toBe(0)
    const [first, second] = service.requestsOf('GET')
    expect(second.at - first.at).toBeGreaterThanOrEqual(990)
    expectCleanOutput(run)
  })

  it('waits until the date Retry-After gives', async () => {
    // The date is a whole second 1.5 to 2.5 s after the read it answers arrived, however late that was.
    let until = 0
    const retryAfter = (at: number): Record<string, string> => {
      until = Math.ceil((at + 1500) / 1000) * 1000
      return { 'retry-after': new Date(until).toUTCString() }
    }
    service = await startStandInService({
      plan: { activeMs: 150 },
      faults: [{ method: 'GET', status: 503, body: 'busy', contentType: 'text/plain', headers: retryAfter }]
    })
    const run = await timedRun()

    expect(run.code).toBe(0)
    const [first, second] = service.requestsOf('GET')
    expect(first.at).toBeLessThan(until - 500)
    expect(second.at).toBeGreaterThanOrEqual(until - 10)
    expectCleanOutput(run)
  })

  it('does not let a Retry-After longer than the time left make it overrun the timeout', async () => {
    service = await startStandInService({
      plan: { activeMs: 60_000 },
      faults: [
        {
          method: 'GET',
          status: 503,
          body: 'busy',
          contentType: 'text/plain',
          headers: { 'retry-after': '120' },
          times: 1000
        }
      ]
    })
    // Time for the create and a first read before the deadline on a busy machine too (1.5 s was not, once).
    const run = await timedRun({ timeout: '3s' })

    expect(msAfter(service.requests[0], run)).toBeLessThan(withinTimeout(3000))
    expect(run.code).toBe(1)
    const id = run.outputs.jobId
    expect(errors(run)).toEqual([
      expect.stringContaining(
        `::error::Job ${id} did not reach a final status within the timeout of 3.0s (last status: active). The last read failed: Reading job ${id} failed with HTTP 503 (busy).`
      )
    ])
    expectCleanOutput(run)
  })

  it('does not read in a tight loop when every read says Retry-After: 0', async () => {
    service = await startStandInService({
      plan: { activeMs: 60_000 },
      faults: [
        {
          method: 'GET',
          status: 503,
          body: 'busy',
          contentType: 'text/plain',
          headers: { 'retry-after': '0' },
          times: 100_000
        }
      ]
    })
    const run = await timedRun({ timeout: '1s' })

    expect(run.code).toBe(1)
    expect(errors(run)[0]).toContain('did not reach a final status within the timeout of 1.0s')
    // Backing off from 250ms, doubling: a handful of reads in a second, not hundreds.
    expect(gets()).toBeLessThan(15)
    expectCleanOutput(run)
  })

  it('ends at the timeout, not later, when a read never answers', async () => {
    service = await startStandInService({
      plan: { activeMs: 60_000 },
      faults: [{ method: 'GET', hang: true, times: 1000 }]
    })
    const run = await timedRun({ timeout: '1500ms' })

    expect(run.ms).toBeGreaterThanOrEqual(1500)
    expect(msAfter(service.requests[0], run)).toBeLessThan(withinTimeout(1500))
    expect(run.code).toBe(1)
    expect(gets()).toBe(1)
    const id = run.outputs.jobId
    expect(errors(run)).toEqual([
      expect.stringContaining(
        `::error::Job ${id} did not reach a final status within the timeout of 1.5s (last status: active).`
      )
    ])
    expect(run.stdout).toContain(`run this action with jobId: ${id}`)
    expectCleanOutput(run)
  })

  it('believes a 404 for the job after three in a row, well before the timeout', async () => {
    service = await startStandInService({
      plan: { activeMs: 60_000 },
      faults: [{ method: 'GET', status: 404, times: 3, body: { error: 'Job not found' } }]
    })
    const run = await timedRun({ timeout: '30s' })

    // Three reads with the read backoff between them (250 ms, then 500 ms) take about a second: a
    // third of the timeout is "well before it" with room for a slow machine.
    expect(msAfter(service.requests[0], run)).toBeLessThan(10_000)
    expect(run.code).toBe(1)
    expect(gets()).toBe(3)
    const id = run.outputs.jobId
    expect(errors(run)).toEqual([
      `::error::Job ${id} was not found in project docs (HTTP 404). Check that jobId and projectId belong together.`
    ])
    expectCleanOutput(run)
  })

  it('reads again after a single 404 (a replica behind the create), and succeeds', async () => {
    service = await startStandInService({
      plan: { activeMs: 150 },
      faults: [{ method: 'GET', status: 404, body: { error: 'Job not found' } }]
    })
    const run = await timedRun()

    expect(run.code).toBe(0)
    expect(run.outputs.status).toBe('completed')
    expect(gets()).toBeGreaterThanOrEqual(2)
    expectCleanOutput(run)
  })

  it("reads again after a proxy's HTML page served as 200, and succeeds", async () => {
    service = await startStandInService({
      plan: { activeMs: 150 },
      faults: [{ method: 'GET', status: 200, body: HTML_PAGE, contentType: 'text/html' }]
    })
    const run = await timedRun()

    expect(run.code).toBe(0)
    expect(run.outputs.status).toBe('completed')
    expect(run.stdout).toContain(
      'with something that is not a job record (HTTP 200: Please log in to the proxy); a proxy may be in the way.'
    )
    expectCleanOutput(run)
  })

  it("gives up with a clear sentence when every read is a proxy's page, well before the timeout", async () => {
    service = await startStandInService({
      plan: { activeMs: 60_000 },
      faults: [{ method: 'GET', status: 200, body: HTML_PAGE, contentType: 'text/html', times: 1000 }]
    })
    const run = await timedRun({ timeout: '30s' })

    // Five reads with the read backoff between them (250 ms, doubling) take about 4 s: a third of the
    // timeout is "well before it" with room for a loaded machine, which the old 4 s bound had not.
    expect(msAfter(service.requests[0], run)).toBeLessThan(10_000)
    expect(run.code).toBe(1)
    expect(gets()).toBe(5)
    const id = run.outputs.jobId
    expect(errors(run)).toEqual([
      `::error::The service answered the read of job ${id} with something that is not a job record (HTTP 200: Please log in to the proxy); ` +
        `a proxy may be in the way. This went on for 5 reads in a row; giving up on job ${id}.`
    ])
    expect(run.stdout).not.toMatch(/JSON|Unexpected token|unexpectedly/)
    expectCleanOutput(run)
  })
})

describe('the key', () => {
  it('is never printed with step debug logging on, even when error pages echo it', async () => {
    service = await startStandInService({ plan: { activeMs: 200 } })
    const echo = `Authorization: Bearer ${service.apiKey}`
    service.addFault({
      method: 'POST',
      status: 429,
      body: echo,
      contentType: 'text/plain',
      headers: { 'retry-after': '0' }
    })
    service.addFault({
      method: 'GET',
      status: 502,
      body: `<html><body><pre>${echo}</pre></body></html>`,
      contentType: 'text/html'
    })
    service.addFault({
      method: 'GET',
      status: 200,
      body: `<html><body>Proxy login. ${echo}</body></html>`,
      contentType: 'text/html'
    })
    service.addFault({ method: 'GET', status: 500, body: { error: `upstream said: ${echo}` } })
    const run = await timedRun({}, { RUNNER_DEBUG: '1' })

    expect(run.code).toBe(0)
    expect(service.injected).toHaveLength(4)
    expect(run.stdout).toContain('::debug::')
    // The echoed pages did reach the log, with the key blanked out.
    expect(run.stdout).toContain('Bearer ***')
    expect(withoutMaskCommands(run.all)).not.toContain(service.apiKey)
    expect(withoutMaskCommands(run.all)).not.toContain(service.apiKey.slice('svc_'.length))
    // Only in the Authorization header, never in a URL.
    expect(service.requests.every((r) => !r.path.includes(service.apiKey))).toBe(true)
    expectCleanOutput(run)
  })

  it('is never printed when the error that ends the step echoes it', async () => {
    service = await startStandInService()
    const other = await startElsewhere()
    service.addFault({
      method: 'POST',
      status: 302,
      headers: { location: `http://127.0.0.1:${other.port}/login/Bearer%20${service.apiKey}?key=${service.apiKey}` }
    })
    const run = await timedRun({}, { RUNNER_DEBUG: '1' })

    expect(run.code).toBe(1)
    // The runner decodes %25 back to %: the user reads `.../login/Bearer%20***`.
    expect(errors(run)).toEqual([
      expect.stringMatching(
        /^::error::The service answered with a redirect \(HTTP 302 to http:\/\/127\.0\.0\.1:\d+\/login\/Bearer%(25)?20\*\*\*\), which is not followed/
      )
    ])
    expect(other.requests).toEqual([])
    expect(withoutMaskCommands(run.all)).not.toContain(service.apiKey)
    expectCleanOutput(run)
  })
})
