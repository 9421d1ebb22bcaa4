// Follow-up messages through the bundled action: jobId with a prompt sends the prompt to that job
// (POST .../job/{jobId}/message) under the create's rule, then follows the job without stopping at
// the old final status the service may go on showing for a while.
import { describe, expect, it, type TestContext } from 'vitest'
import { expectCleanOutput } from '../support/expect-clean-output.js'
import { inputsFor, runAction, type ActionRun } from '../support/run-action.js'
import { startStandInService, type Options, type StandInService } from '../support/stand-in-service.js'
import { msAfter, withinTimeout } from '../support/step-time.js'

// Each test has a stand-in of its own, so that the tests can run side by side: most of their time is waiting.
async function standIn(test: TestContext, options: Options = {}): Promise<StandInService> {
  const service = await startStandInService(options)
  test.onTestFinished(() => service.close())
  return service
}

const FOLLOW_UP = 'Also say that --force never asks'

async function followUp(
  service: StandInService,
  jobId: string,
  extra: Record<string, string> = {}
): Promise<ActionRun & { ms: number }> {
  const started = Date.now()
  const run = await runAction({
    inputs: inputsFor(service, { jobId, prompt: FOLLOW_UP, context: 'none', ...extra })
  })
  return { ...run, ms: Date.now() - started }
}

const lines = (run: ActionRun, kind: 'error' | 'warning'): string[] =>
  run.stdout.split('\n').filter((line) => line.startsWith(`::${kind}::`))
/** The creates the stand-in received: POSTs to .../job itself, not to a job's /message. */
const creates = (service: StandInService) => service.requestsOf('POST').filter((r) => r.path.endsWith('/job'))
const messagePosts = (service: StandInService) => service.requestsOf('POST', '/message')

describe.concurrent('a follow-up message', () => {
  it('is sent once, and the follow waits past the old completed for active, then completed', async (test) => {
    const service = await standIn(test, {
      staleReadsAfterMessage: 2,
      messagePlan: { activeReads: 1, prLink: 'https://github.com/example/docs/pull/77' }
    })
    const jobId = service.seedJob()
    expect(service.record(jobId)?.prLink).toBe('https://github.com/example/docs/pull/901')
    const run = await followUp(service, jobId)

    expect(run.code).toBe(0)
    expect(messagePosts(service)).toHaveLength(1)
    expect(messagePosts(service)[0].path).toBe(`/v2/agent/docs/job/${jobId}/message`)
    expect(JSON.parse(messagePosts(service)[0].body)).toEqual({ prompt: FOLLOW_UP })
    expect(creates(service)).toHaveLength(0)
    // Two reads still show the old completed job, one shows it active, and the next its new end.
    expect(service.requestsOf('GET')).toHaveLength(4)
    expect(run.outputs).toMatchObject({
      jobId,
      status: 'completed',
      prLink: 'https://github.com/example/docs/pull/77',
      jobCreated: 'false'
    })
    expect(run.stdout).toContain(`Sent the follow-up message to job ${jobId}.`)
    expect(run.stdout).toMatch(
      new RegExp(`Job ${jobId} still reads completed \\(https://github.com/example/docs/pull/901\\)`)
    )
    expect(run.stdout).toMatch(new RegExp(`Job ${jobId}: completed → active after`))
    expect(run.stdout).toContain(
      `Job ${jobId} completed the follow-up message; its pull request: https://github.com/example/docs/pull/77`
    )
    expect(lines(run, 'warning')).toEqual([])
    expect(run.summary).toContain('Follow-up message')
    expectCleanOutput(run, service.apiKey)
  })

  it('whose answer was lost is not sent again, and the log says it may or may not have reached the job', async (test) => {
    const service = await standIn(test, {
      faults: [{ method: 'POST', path: '/message', afterCreate: true, drop: 'reset' }]
    })
    const jobId = service.seedJob()
    const run = await followUp(service, jobId)

    expect(run.code).toBe(1)
    expect(service.messages).toBe(1)
    expect(messagePosts(service)).toHaveLength(1)
    expect(creates(service)).toHaveLength(0)
    expect(lines(run, 'error')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^::error::Sending the message to job ${jobId} got no answer from http://127\\.0\\.0\\.1:\\d+: .+\\. ` +
            `The message may or may not have reached job ${jobId}, so it is not sent again`
        )
      )
    ])
    expect(run.outputs.jobId).toBe(jobId)
    // The summary never says the message simply failed: its sentence is the log's, that it may have reached the job.
    expect(run.summary).toContain(`The message may or may not have reached job ${jobId}, so it is not sent again`)
    expectCleanOutput(run, service.apiKey)
  })

  it('refused with 429 is sent again once, after its Retry-After', async (test) => {
    const service = await standIn(test, {
      faults: [
        {
          method: 'POST',
          path: '/message',
          status: 429,
          body: 'Too Many Requests',
          contentType: 'text/plain',
          headers: { 'retry-after': '1' }
        }
      ],
      messagePlan: { activeReads: 1 }
    })
    const jobId = service.seedJob()
    const run = await followUp(service, jobId)

    expect(run.code).toBe(0)
    const posts = messagePosts(service)
    expect(posts).toHaveLength(2)
    expect(posts[1].at - posts[0].at).toBeGreaterThanOrEqual(1000)
    expect(service.messages).toBe(1)
    expect(creates(service)).toHaveLength(0)
    expect(lines(run, 'warning')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^::warning::The service's rate limit was reached \\(HTTP 429\\).*The message did not reach job ${jobId}; ` +
            `.*Trying again in 1\\.0s \\(try 2 of 4\\)\\.$`
        )
      )
    ])
    expect(run.outputs).toMatchObject({ jobId, status: 'completed' })
    expectCleanOutput(run, service.apiKey)
  })

  it('refused by a job that is not there (404) fails naming the job, and creates nothing', async (test) => {
    const service = await standIn(test)
    const run = await followUp(service, 'job_404_gone')

    expect(run.code).toBe(1)
    // Refused: nothing was sent, so neither true nor false.
    expect(run.outputs.jobCreated).toBeUndefined()
    expect(lines(run, 'error')).toEqual([
      expect.stringMatching(
        /^::error::Job job_404_gone in project docs refused the follow-up message \(HTTP 404: Job not found\): .*No new job was created/
      )
    ])
    expect(messagePosts(service)).toHaveLength(1)
    expect(creates(service)).toHaveLength(0)
    expect(service.created).toBe(0)
    expect(service.requestsOf('GET')).toHaveLength(0)
    expectCleanOutput(run, service.apiKey)
  })

  it('refused by a failed job (400) fails naming the job, and creates nothing', async (test) => {
    const service = await standIn(test)
    const jobId = service.seedJob({ plan: { activeMs: 0, final: 'failed' } })
    const run = await followUp(service, jobId)

    expect(run.code).toBe(1)
    expect(lines(run, 'error')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^::error::Job ${jobId} in project docs refused the follow-up message \\(HTTP 400: Job is failed and takes ` +
            `no more messages\\): .*No new job was created`
        )
      )
    ])
    expect(messagePosts(service)).toHaveLength(1)
    expect(creates(service)).toHaveLength(0)
    expect(service.created).toBe(0)
    expectCleanOutput(run, service.apiKey)
  })

  it('to a job that shows no sign of taking it ends with a warning, its last status and prLink', async (test) => {
    const service = await standIn(test, { staleReadsAfterMessage: 1000 })
    const jobId = service.seedJob()
    const run = await followUp(service, jobId, { timeout: '15s' })

    // The window is 5 poll intervals (1s here) from the message: well within the timeout. Told by the
    // reads: the window allows 7 (0.4 + 0.3 + 0.3 s, then one a second), the 15s timeout about 17.
    expect(run.code).toBe(0)
    expect(service.requestsOf('GET').length).toBeGreaterThanOrEqual(5)
    expect(service.requestsOf('GET').length).toBeLessThanOrEqual(8)
    expect(messagePosts(service)).toHaveLength(1)
    expect(lines(run, 'warning')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^::warning::Job ${jobId} showed no sign of having taken the follow-up message within [5-9]\\.\\ds: every ` +
            `read showed it completed, with pull request https://github\\.com/example/docs/pull/901, as before the message\\.`
        )
      )
    ])
    expect(run.outputs).toMatchObject({
      jobId,
      status: 'completed',
      prLink: 'https://github.com/example/docs/pull/901'
    })
    expectCleanOutput(run, service.apiKey)
  })

  it('to a job that shows no sign of taking it never runs past the timeout', async (test) => {
    const service = await standIn(test, { staleReadsAfterMessage: 1000 })
    const jobId = service.seedJob()
    const run = await followUp(service, jobId, { timeout: '3s' })

    expect(run.code).toBe(0)
    expect(msAfter(service.requests[0], run)).toBeLessThan(withinTimeout(3000))
    const last = service.requests[service.requests.length - 1]
    expect(last.at - service.requests[0].at).toBeLessThan(3000)
    expect(lines(run, 'warning')).toEqual([
      expect.stringMatching(new RegExp(`^::warning::Job ${jobId} showed no sign of having taken the follow-up message`))
    ])
    expectCleanOutput(run, service.apiKey)
  })
})

describe.concurrent('a follow-up message with wait false', () => {
  it('ends once the message is taken, reading nothing', async (test) => {
    const service = await standIn(test)
    const jobId = service.seedJob()
    const run = await followUp(service, jobId, { wait: 'false' })

    expect(run.code).toBe(0)
    expect(messagePosts(service)).toHaveLength(1)
    expect(service.requestsOf('GET')).toHaveLength(0)
    expect(run.stdout).toContain(
      `Not following job ${jobId} after the message (wait is false). Follow it later with jobId: ${jobId} and no prompt.`
    )
    expect(run.outputs.jobId).toBe(jobId)
  })
})

describe.concurrent('the prNumber output', () => {
  it.for<[string, Options['plan'], string, string]>([
    [
      'a pull request',
      { activeMs: 0, prLink: 'https://github.com/example/docs/pull/4213' },
      'https://github.com/example/docs/pull/4213',
      '4213'
    ],
    [
      'a merge request',
      { activeMs: 0, prLink: 'https://gitlab.com/g/docs/-/merge_requests/17' },
      'https://gitlab.com/g/docs/-/merge_requests/17',
      '17'
    ],
    ['no pull request', { activeMs: 0, prLink: null }, '', ''],
    [
      'a link without the shape of one',
      { activeMs: 0, prLink: 'https://github.com/example/docs/pull/7?x=$(id)' },
      '',
      ''
    ]
  ])('is the number of the link, or empty: %s', async ([, plan, prLink, prNumber], test) => {
    const service = await standIn(test, { plan })
    const run = await runAction({ inputs: inputsFor(service, { context: 'none' }) })

    expect(run.outputs.status).toBe('completed')
    expect(run.outputs.prLink).toBe(prLink)
    expect(run.outputs.prNumber).toBe(prNumber)
    expectCleanOutput(run, service.apiKey)
  })

  it('is the new pull request after a follow-up message', async (test) => {
    const service = await standIn(test, {
      messagePlan: { activeReads: 1, prLink: 'https://github.com/example/docs/pull/78' }
    })
    const run = await followUp(service, service.seedJob())

    expect(run.code).toBe(0)
    expect(run.outputs).toMatchObject({ prLink: 'https://github.com/example/docs/pull/78', prNumber: '78' })
  })
})

describe.concurrent('a follow-up is not done on the strength of its own answer', () => {
  it("the message's answer reads active, the next reads the old completed: the run waits for the new work", async (test) => {
    const service = await standIn(test, {
      plan: { activeReads: 1 },
      staleReadsAfterMessage: 2,
      freshMessageAnswer: true,
      messagePlan: { activeReads: 1, prLink: 'https://github.com/example/docs/pull/77' }
    })
    const jobId = service.seedJob()
    const run = await runAction({ inputs: inputsFor(service, { jobId, prompt: 'Also say --force never asks' }) })

    expect(run.code).toBe(0)
    expect(service.requestsOf('GET')).toHaveLength(4)
    expect(run.outputs.prLink).toBe('https://github.com/example/docs/pull/77')
  })
})
