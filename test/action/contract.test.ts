// The contract written down (docs/openapi.yaml) and held to, through the bundled action: the
// description is a valid OpenAPI 3.1 document; in the normal flows every answer the stand-in service
// gives follows it, and so does every request the action sends. Where the stand-in once differed
// (an archived job's archivedAt changed on every read; a JSON body sent as text/plain was taken) it
// follows the description now; the faults it can inject (a proxy's page, a plain-text 500) are
// faults, which the checker tells apart.
import { describe, expect, it, type TestContext } from 'vitest'
import { documentProblems, ServiceContract } from '../support/openapi-contract.js'
import { inputsFor, runAction, type ActionRun } from '../support/run-action.js'
import { startStandInService, type Options, type StandInService } from '../support/stand-in-service.js'

const contract = new ServiceContract()

async function standIn(test: TestContext, options: Options = {}): Promise<StandInService> {
  const service = await startStandInService(options)
  test.onTestFinished(() => service.close())
  return service
}

/** Every request the stand-in received, and every answer it gave, checked against the description. */
function contractProblems(service: StandInService): string[] {
  return service.requests.flatMap((request) => [
    ...contract.requestProblems(request),
    ...(request.answer ? contract.answerProblems(request, request.answer) : [])
  ])
}

function run(service: StandInService, extra: Record<string, string> = {}): Promise<ActionRun> {
  return runAction({ inputs: inputsFor(service, { context: 'none', ...extra }) })
}

describe('docs/openapi.yaml', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(contract.document.openapi).toBe('3.1.0')
    expect(await documentProblems()).toEqual([])
  })

  it('describes the three operations, their status codes, the Bearer key and the error shape', () => {
    const operations = [
      ['POST', '/v2/agent/docs/job', 'createAgentJob'],
      ['GET', '/v2/agent/docs/job/job_1', 'getAgentJob'],
      ['POST', '/v2/agent/docs/job/job_1/message', 'sendAgentJobMessage']
    ]
    for (const [method, path, id] of operations) expect(contract.operationOf(method, path)).toBe(id)
    const paths = contract.document.paths as Record<string, Record<string, { responses: object }>>
    expect(Object.keys(paths['/v2/agent/{projectId}/job'].post.responses)).toEqual([
      '201',
      '400',
      '401',
      '403',
      '404',
      '429'
    ])
    expect(Object.keys(paths['/v2/agent/{projectId}/job/{jobId}'].get.responses)).toEqual(['200', '401', '403', '404'])
    expect(Object.keys(paths['/v2/agent/{projectId}/job/{jobId}/message'].post.responses)).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '429'
    ])
    expect(contract.document.security).toEqual([{ adminKey: [] }])
    expect(contract.check(contract.schemaOf('Error'), { error: 'Job not found' }, 'error')).toEqual([])
    expect(contract.check(contract.schemaOf('Error'), { message: 'Job not found' }, 'error')).not.toEqual([])
  })

  it('takes any string as a job id, nullable prLink, archivedAt and source.ref, and refuses what breaks the rules', () => {
    const job = {
      id: 'jobs/2026 11/α%β?',
      status: 'completed',
      source: { repository: 'https://github.com/example/docs', ref: null },
      model: 'docs-agent-large',
      prLink: null,
      createdAt: '2026-11-24T01:00:00.000Z',
      archivedAt: null
    }
    const problems = (record: object) => contract.check(contract.schemaOf('Job'), record, 'job')
    expect(problems(job)).toEqual([])
    expect(problems({ ...job, status: 'archived', archivedAt: '2026-11-24T02:00:00.000Z' })).toEqual([])
    expect(problems({ ...job, id: '' })).not.toEqual([])
    expect(problems({ ...job, id: 7 })).not.toEqual([])
    expect(problems({ ...job, status: 'active', prLink: 'https://github.com/example/docs/pull/5' })).not.toEqual([])
    expect(problems({ ...job, archivedAt: '2026-11-24T02:00:00.000Z' })).not.toEqual([])
    expect(problems({ ...job, createdAt: 'yesterday' })).not.toEqual([])
    const request = (path: string, body: string, contentType = 'application/json') =>
      contract.requestProblems({
        method: 'POST',
        path,
        headers: { authorization: 'Bearer svc_k', 'content-type': contentType },
        body
      })
    expect(request('/v2/agent/docs/job', '{"prompt":"Document it"}')).toEqual([])
    expect(request('/v2/agent/docs/job', '{"prompt":"  "}')).not.toEqual([])
    expect(request('/v2/agent/docs/job', '{"prompt":"x"}', 'text/plain')).not.toEqual([])
    expect(request('/v2/agent/docs/job/a%2Fb/message', '{"prompt":"x"}')).toEqual([])
    expect(request('/v2/agent/docs/job/a b/message', '{"prompt":"x"}')).not.toEqual([])
  })
})

describe.concurrent('the stand-in and the action, against the description', () => {
  it('a job created and followed to its pull request', async (test) => {
    const service = await standIn(test, { plan: { activeReads: 1 } })
    const result = await run(service)

    expect(result.code).toBe(0)
    expect(service.requests.map((r) => `${r.method} ${r.answer?.status}`)).toEqual(['POST 201', 'GET 200', 'GET 200'])
    expect(contractProblems(service)).toEqual([])
  })

  it('a job that fails, one with no pull request, one whose source.ref is null', async (test) => {
    const service = await standIn(test, {
      plan: (n) => ({ activeReads: 0, ...[{ final: 'failed' }, { prLink: null }, { ref: null }][n - 1] }),
      projects: ['docs']
    })
    for (let n = 0; n < 3; n++) await run(service)

    expect(service.created).toBe(3)
    expect(service.requests.map((r) => r.answer?.status)).not.toContain(undefined)
    expect(contractProblems(service)).toEqual([])
  })

  it('an archived job: its archivedAt is the same on every read, and it refuses a message with 400', async (test) => {
    const service = await standIn(test)
    const jobId = service.seedJob({ plan: { activeMs: 0, final: 'archived' } })
    const first = service.record(jobId)
    await new Promise((resolve) => setTimeout(resolve, 20))
    const followed = await run(service, { jobId, prompt: '' })
    const refused = await run(service, { jobId, prompt: 'Also document the cache' })

    expect(followed.outputs.status).toBe('archived')
    expect(refused.code).toBe(1)
    const reads = service.requestsOf('GET').map((r) => JSON.parse(r.answer?.body ?? '{}').archivedAt)
    expect(reads.length).toBeGreaterThan(0)
    expect(new Set([first?.archivedAt, ...reads])).toEqual(new Set([first?.archivedAt]))
    expect(first?.archivedAt).toMatch(/^\d{4}-\d\d-\d\dT/)
    expect(service.requestsOf('POST', '/message').map((r) => r.answer?.status)).toEqual([400])
    expect(contractProblems(service)).toEqual([])
  })

  it('a follow-up message whose answer and first reads show the old record', async (test) => {
    const service = await standIn(test, { staleReadsAfterMessage: 2, messagePlan: { activeReads: 1 } })
    const jobId = service.seedJob()
    const result = await run(service, { jobId, prompt: 'Also document the cache' })

    expect(result.code).toBe(0)
    expect(service.requests.map((r) => `${r.method} ${r.answer?.status}`)).toEqual([
      'POST 200',
      'GET 200',
      'GET 200',
      'GET 200',
      'GET 200'
    ])
    expect(contractProblems(service)).toEqual([])
  })

  it('the documented errors: 401, 403, 404 for a project and for a job', async (test) => {
    const service = await standIn(test, { readOnlyKeys: ['svc_read_only'], projects: ['docs'] })
    await run(service, { apiKey: 'svc_expired' })
    await run(service, { apiKey: 'svc_read_only' })
    await run(service, { projectId: 'handbook' })
    await run(service, { jobId: 'job_404_gone', prompt: '' })

    expect(service.requests.map((r) => r.answer?.status)).toEqual(expect.arrayContaining([401, 403, 404]))
    expect(service.requests.every((r) => r.answer && r.answer.status >= 400)).toBe(true)
    expect(service.requests.map((r) => JSON.parse(r.answer?.body ?? '{}').error)).not.toContain(undefined)
    expect(contractProblems(service)).toEqual([])
  })
})

describe('where the stand-in follows the description rather than its old habits', () => {
  it('a JSON body sent as text/plain is refused with 400 and an {"error"} body, and no job is made', async (test) => {
    const service = await standIn(test)
    const answer = await fetch(`${service.url}/v2/agent/docs/job`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': 'text/plain' },
      body: JSON.stringify({ prompt: 'Document the cache' })
    })

    expect(answer.status).toBe(400)
    expect(await answer.json()).toEqual({ error: 'Content-Type must be application/json' })
    expect(service.created).toBe(0)
    const [request] = service.requests
    expect(contract.requestProblems(request)).toEqual([
      "POST /v2/agent/docs/job: content type 'text/plain' is not one the operation takes"
    ])
    expect(contract.answerProblems(request, request.answer!)).toEqual([])
  })

  it("its injected faults are faults: a proxy's page and a plain-text 500 do not follow the description", async (test) => {
    const service = await standIn(test, {
      faults: [
        { method: 'GET', status: 200, body: '<html>Please log in</html>', contentType: 'text/html' },
        { method: 'GET', status: 500, body: 'oops', contentType: 'text/plain' }
      ]
    })
    const result = await run(service)

    expect(result.code).toBe(0)
    const answers = service.requests.map((r) => contract.answerProblems(r, r.answer!))
    expect(answers[1]).toEqual([
      `200 to GET ${service.requests[1].path}: content type 'text/html' is not documented for this status`
    ])
    expect(answers[2]).toEqual([
      `500 to GET ${service.requests[2].path}: status 500 is not one the operation documents`
    ])
    expect([answers[0], ...answers.slice(3)].flat()).toEqual([])
  })
})

describe.concurrent('a job id may be any string without control characters', () => {
  it('an id with a slash, a space, a percent sign and a question mark: followed, encoded in every path, output as it is', async (test) => {
    const odd = 'jobs/2026 11/β%3F?x'
    const service = await standIn(test, { plan: { activeReads: 1 }, jobIds: () => odd })
    const result = await run(service)

    expect(result.code).toBe(0)
    expect(result.outputs.jobId).toBe(odd)
    expect(result.outputs.status).toBe('completed')
    const reads = service.requestsOf('GET')
    expect(reads.length).toBeGreaterThan(0)
    expect(reads.every((r) => r.path === `/v2/agent/docs/job/${encodeURIComponent(odd)}`)).toBe(true)
    expect(service.requests.flatMap((r) => contract.requestProblems(r))).toEqual([])
  })

  it('a record refused names the field and the reason', async (test) => {
    const service = await standIn(test, { plan: { activeReads: 1 }, jobIds: () => 'job\u0007bell' })
    const result = await run(service)

    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/::error::.*`id`.*control character/)
  })

  it('the jobId input takes any id without control characters', async (test) => {
    const service = await standIn(test, { plan: { activeReads: 1 } })
    const odd = service.seedJob({ id: 'team a/job #7' })
    const result = await runAction({ inputs: inputsFor(service, { jobId: odd, prompt: '' }) })

    expect(result.code).toBe(0)
    expect(result.outputs.status).toBe('completed')
    expect(service.requestsOf('GET')[0].path).toBe(`/v2/agent/docs/job/${encodeURIComponent(odd)}`)
  })
})
