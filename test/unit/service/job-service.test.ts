// The service client on its own, with short per-request limits: what a hung or dripping server
// does to one request, and how error bodies are shown.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { startDeadline } from '../../../src/runtime/deadline.js'
import { DEFAULT_LIMITS } from '../../../src/net/http.js'
import { excerpt } from '../../../src/service/answer-excerpt.js'
import { JobService } from '../../../src/service/job-service.js'
import { ServiceError } from '../../../src/service/service-error.js'
import { wordRetry, wordServiceFailure } from '../../../src/ending/service-failure-words.js'
import type { WriteHooks } from '../../../src/service/job-service.js'
import { registerSecret } from '../../../src/safety/run-secrets.js'
import { ServicePolicy } from '../../../src/service/service-policy.js'
import { startStandInService, type StandInService } from '../../support/stand-in-service.js'

const KEY = 'svc_unit_test_key'
// Registered as the run does, so that error excerpts blank it. The runner's ::add-mask:: command it
// prints is captured: a workflow command in the suite's own output is noise in a CI log.
beforeAll(() => {
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
  registerSecret(KEY)
  expect(write.mock.calls.map(([chunk]) => String(chunk))).toContain(`::add-mask::${KEY}\n`)
  write.mockRestore()
})
let service: StandInService | undefined
let raw: http.Server | undefined
afterEach(async () => {
  await service?.close()
  raw?.closeAllConnections()
  await new Promise((resolve) => (raw ? raw.close(resolve) : resolve(undefined)))
  service = raw = undefined
})

function client(baseUrl: string, limits: Partial<typeof DEFAULT_LIMITS> = {}): JobService {
  return new JobService({
    baseUrl,
    projectId: 'docs',
    apiKey: KEY,
    limits: { ...DEFAULT_LIMITS, ...limits },
    createRetry: { ...ServicePolicy.create, backoffBaseMs: 10 }
  })
}

const noDeadline = () => startDeadline(Date.now() + 10_000, new AbortController().signal)

/** A server that answers each request with `handler`, for shapes the stand-in does not make. */
async function rawServer(handler: http.RequestListener): Promise<string> {
  raw = http.createServer(handler)
  await new Promise<void>((resolve) => raw!.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(raw.address() as AddressInfo).port}`
}

/** The lines the run stage logs from a write's hooks: each retry, and a message taken whose answer was lost. */
function loggedTo(lines: string[]): WriteHooks {
  return {
    onRetry: (failure, waitMs, tries) => lines.push(wordRetry(failure, waitMs, tries)),
    onTakenUnread: (failure) => lines.push(wordServiceFailure(failure))
  }
}

async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e
  )
  expect(error).toBeInstanceOf(ServiceError)
  return error as ServiceError
}

describe('per-request limits', () => {
  it('gives up on a read whose answer never starts, as a failure worth another try', async () => {
    service = await startStandInService({ apiKey: KEY, faults: [{ method: 'GET', hang: true }] })
    const jobs = client(service.url, { headersTimeoutMs: 200 })
    const started = Date.now()
    const error = await failure(jobs.getJob('job_1', new AbortController().signal))

    expect(error.kind).toBe('transient')
    expect(wordServiceFailure(error)).toBe('Could not read job job_1: no answer came in time.')
    expect(Date.now() - started).toBeLessThan(2000)
    await jobs.close()
  })

  it('gives up on an answer that stops arriving halfway', async () => {
    const url = await rawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{"id": "job_1", ') // and nothing more
    })
    const jobs = client(url, { bodyTimeoutMs: 200 })
    const error = await failure(jobs.getJob('job_1', new AbortController().signal))

    expect(error.kind).toBe('transient')
    expect(wordServiceFailure(error)).toBe('Could not read job job_1: the answer stopped arriving.')
    await jobs.close()
  })

  it('bounds the whole exchange, even for a server that drips', async () => {
    const url = await rawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      const drip = setInterval(() => res.write(' '), 50)
      res.on('close', () => clearInterval(drip))
    })
    const jobs = client(url, { requestTimeoutMs: 300 })
    const started = Date.now()
    const error = await failure(jobs.getJob('job_1', new AbortController().signal))

    expect(wordServiceFailure(error)).toBe('Could not read job job_1: the request took too long.')
    expect(Date.now() - started).toBeLessThan(2000)
    await jobs.close()
  })

  it('reads no more than the body limit of a huge answer', async () => {
    const url = await rawServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/plain' })
      res.end('x'.repeat(5 * 1024 * 1024))
    })
    const jobs = client(url, { maxBodyBytes: 64 * 1024 })
    const error = await failure(jobs.getJob('job_1', new AbortController().signal))

    expect(error.kind).toBe('transient')
    expect(wordServiceFailure(error)).toMatch(/^Reading job job_1 failed with HTTP 502 \(x{199}…\)\.$/)
    await jobs.close()
  })

  it('takes a refused connection as a create the service did not take, and says so after a few tries', async () => {
    service = await startStandInService({ apiKey: KEY })
    const url = service.url
    await service.stopListening()
    const jobs = client(url)
    const error = await failure(jobs.createJob('Explain retries', noDeadline()))

    expect(error.kind).toBe('notTaken')
    expect(wordServiceFailure(error)).toMatch(
      /^Could not reach the service at http:\/\/127\.0\.0\.1:\d+: the connection was refused\. No job was created/
    )
    await jobs.close()
  })
})

describe('a request that never left', () => {
  // undici refuses a header that is not printable ASCII before it opens a connection.
  const badKey = 'svc_abc€def'

  it('is a create that was not sent, naming the cause, and is not tried again', async () => {
    service = await startStandInService({ apiKey: KEY })
    const jobs = new JobService({ baseUrl: service.url, projectId: 'docs', apiKey: badKey })
    const error = await failure(jobs.createJob('Explain retries', noDeadline()))

    expect(error.kind).toBe('fatal')
    expect(wordServiceFailure(error)).toMatch(
      /^The create was not sent: it was refused on this runner before it left \(invalid authorization header\)\. No job was created\./
    )
    expect(wordServiceFailure(error)).not.toContain('abc€def')
    expect(service.requests).toHaveLength(0)
    await jobs.close()
  })

  it('is a read that cannot succeed by asking again', async () => {
    service = await startStandInService({ apiKey: KEY })
    const jobs = new JobService({ baseUrl: service.url, projectId: 'docs', apiKey: badKey })
    const error = await failure(jobs.getJob('job_1', new AbortController().signal))

    expect(error.kind).toBe('fatal')
    expect(wordServiceFailure(error)).toMatch(
      /^The read of job job_1 was not sent: it was refused on this runner before it left \(invalid authorization header\)\. Check the inputs/
    )
    expect(service.requests).toHaveLength(0)
    await jobs.close()
  })
})

describe('a 2xx create whose answer cannot be read', () => {
  it('is a created job whose id is unknown when the body stops arriving', async () => {
    const url = await rawServer((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json' })
      res.write('{"id": "job_1", ') // and nothing more
    })
    const jobs = client(url, { bodyTimeoutMs: 200 })
    const error = await failure(jobs.createJob('Explain retries', noDeadline()))

    expect(error.kind).toBe('takenUnread')
    expect(wordServiceFailure(error)).toMatch(
      /^The service created the job \(HTTP 201\), but its answer could not be read \(the answer stopped arriving\), so its id is not known\. Look it up in the project's dashboard/
    )
    await jobs.close()
  })

  it('is a created job whose id is unknown when a 201 is not a job record', async () => {
    const url = await rawServer((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json' }).end('{"status": "active"}')
    })
    const jobs = client(url)
    const error = await failure(jobs.createJob('Explain retries', noDeadline()))

    expect(error.kind).toBe('takenUnread')
    expect(wordServiceFailure(error)).toContain(
      'could not be read (it is not a job record, as its `id` is missing: {"status": "active"}), so its id'
    )
    await jobs.close()
  })

  it("is still a job that may or may not exist when a 200 is a proxy's page", async () => {
    const url = await rawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Proxy login</body></html>')
    })
    const jobs = client(url)
    const error = await failure(jobs.createJob('Explain retries', noDeadline()))

    expect(error.kind).toBe('uncertain')
    expect(wordServiceFailure(error)).toContain('The job may or may not have been created')
    await jobs.close()
  })
})

describe('excerpt', () => {
  const response = (body: string) => ({ body })

  it("shows the service's own JSON error message", () => {
    expect(excerpt(response('{"error": "prompt must be a non-empty string"}'))).toBe(
      'prompt must be a non-empty string'
    )
  })

  it('shows the text of an HTML page, not its tags or scripts', () => {
    const page =
      '<html><head><style>h1{}</style><script>var x=1</script></head><body><h1>502 Bad Gateway</h1>\n<p>nginx</p></body></html>'
    expect(excerpt(response(page))).toBe('502 Bad Gateway nginx')
  })

  it('reads scripts and styles in any case, with blanks in their closers; one never closed hides the rest', () => {
    expect(excerpt(response('<SCRIPT type="x">a<b</Script >Bad <Style>p{}</style\n>gateway'))).toBe('Bad gateway')
    expect(excerpt(response('<p>Busy</p><script>var x = "<p>not text</p>"'))).toBe('Busy')
    expect(excerpt(response('<scripts>Busy</scripts>'))).toBe('Busy')
  })

  it('keeps a "<" that opens no tag, and takes a tag to end at its first ">"', () => {
    expect(excerpt(response('<<b>Busy</b> 1 < 2'))).toBe('< Busy 1 < 2')
  })

  it('never shows the key, should a server echo it', () => {
    expect(excerpt(response(`Unauthorized: Bearer ${KEY}`))).toBe('Unauthorized: Bearer ***')
  })

  it('says so when there is nothing to show, and cuts long bodies', () => {
    expect(excerpt(response('   '))).toBe('no message')
    expect(excerpt(response('a'.repeat(500)))).toHaveLength(200)
  })
})

describe('a follow-up message, through the one write path', () => {
  it('goes to the job, and answers with its record', async () => {
    service = await startStandInService({ apiKey: KEY })
    const jobId = service.seedJob()
    const jobs = client(service.url)
    const job = await jobs.sendMessage(jobId, 'Also explain backoff', noDeadline())

    expect(job?.id).toBe(jobId)
    expect(service.requestsOf('POST', `/job/${jobId}/message`)).toHaveLength(1)
    expect(service.messages).toBe(1)
    await jobs.close()
  })

  it('taken, with an answer too large to read: followed all the same, and said', async () => {
    const url = await rawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(`{"id": "${'x'.repeat(1_100_000)}"}`)
    })
    const lines: string[] = []
    const jobs = client(url)
    const job = await jobs.sendMessage('job_7', 'Also explain backoff', noDeadline(), loggedTo(lines))

    expect(job).toBeNull()
    expect(lines).toEqual([
      'The service took the message for job job_7 (HTTP 200), but its answer could not be read (it was larger than ' +
        '1 MB); following the job.'
    ])
    await jobs.close()
  })

  it.for<[string, string]>([
    ["a proxy's page", '<html><body>Proxy login</body></html>'],
    ['the record of another job', '{"id": "job_8", "status": "active"}']
  ])('answered 200 with %s: may or may not have reached the job, never sent again', async ([, body]) => {
    let posts = 0
    const url = await rawServer((_req, res) => {
      posts++
      res.writeHead(200, { 'content-type': 'text/html' }).end(body)
    })
    const jobs = client(url)
    const error = await failure(jobs.sendMessage('job_7', 'Also explain backoff', noDeadline()))

    expect(error.kind).toBe('uncertain')
    expect(wordServiceFailure(error)).toMatch(
      /^The service answered the message to job job_7 with something that is not /
    )
    expect(wordServiceFailure(error)).toContain(
      'The message may or may not have reached job job_7, so it is not sent again'
    )
    expect(posts).toBe(1)
    await jobs.close()
  })

  it('refused before it left: not sent, naming the inputs it is made of', async () => {
    service = await startStandInService({ apiKey: KEY })
    const jobs = new JobService({ baseUrl: service.url, projectId: 'docs', apiKey: 'svc_abc€def' })
    const error = await failure(jobs.sendMessage('job_7', 'Also explain backoff', noDeadline()))

    expect(error.kind).toBe('fatal')
    expect(wordServiceFailure(error)).toMatch(
      /^The message to job job_7 was not sent: .*The message did not reach job job_7\. .*baseUrl, projectId and jobId\)/
    )
    expect(service.requests).toHaveLength(0)
    await jobs.close()
  })

  it('to an unreachable service: not taken, so tried again, and said as a message', async () => {
    service = await startStandInService({ apiKey: KEY })
    const url = service.url
    await service.stopListening()
    const lines: string[] = []
    const jobs = client(url)
    const error = await failure(jobs.sendMessage('job_7', 'Also explain backoff', noDeadline(), loggedTo(lines)))

    expect(error.kind).toBe('notTaken')
    expect(wordServiceFailure(error)).toMatch(
      /^Could not reach the service at .*The message did not reach job job_7; check baseUrl/
    )
    expect(lines).toHaveLength(ServicePolicy.create.tries - 1)
    await jobs.close()
  })
})

describe('a create the rate limit refused, kept for later', () => {
  const rateLimited = (retryAfter: string, times: number) => ({
    method: 'POST' as const,
    status: 429,
    body: 'Too Many Requests',
    contentType: 'text/plain',
    headers: { 'retry-after': retryAfter },
    times
  })

  it('is given up at the first 429 when the caller keeps it: one try, not taken, with the Retry-After', async () => {
    service = await startStandInService({ apiKey: KEY, faults: [rateLimited('5', 1)] })
    const asked: boolean[] = []
    const keepForLater = async (_failure: ServiceError, outOfTime: boolean) => (asked.push(outOfTime), true)
    const failure = await client(service.url)
      .createJob('Document the retry policy', noDeadline(), { keepForLater })
      .catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(ServiceError)
    expect(failure).toMatchObject({ kind: 'notTaken', retryAfterMs: 5_000, givenUp: { by: 'keptForLater' } })
    expect(asked).toEqual([false])
    expect(service.requestsOf('POST')).toHaveLength(1)
  })

  it('is waited out while the caller does not keep it, and kept once no time is left for the wait', async () => {
    service = await startStandInService({
      apiKey: KEY,
      faults: [rateLimited('0', 1), rateLimited('3600', 1)]
    })
    const asked: boolean[] = []
    const keepForLater = async (_failure: ServiceError, outOfTime: boolean) => (asked.push(outOfTime), outOfTime)
    const failure = await client(service.url)
      .createJob('Document the retry policy', noDeadline(), { keepForLater })
      .catch((error: unknown) => error)
    expect(failure).toMatchObject({ kind: 'notTaken', givenUp: { by: 'keptForLater' } })
    expect(asked).toEqual([false, true])
    expect(service.requestsOf('POST')).toHaveLength(2)
  })

  it('without a caller that keeps it, a wait past the deadline ends the create as before: fatal, nothing kept', async () => {
    service = await startStandInService({ apiKey: KEY, faults: [rateLimited('3600', 1)] })
    const failure = await client(service.url)
      .createJob('Document the retry policy', noDeadline())
      .catch((error: unknown) => error)
    expect(failure).toMatchObject({ kind: 'fatal', givenUp: { by: 'noTimeForRetry' } })
  })
})
