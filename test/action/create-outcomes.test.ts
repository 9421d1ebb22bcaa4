// What the bundled action says about a create, when its answer is not the plain "201 and an active
// job": a request that never left made no job; a 2xx whose body cannot be read made one, whose id
// is not known; a job that is final as created is reported at once, with no polling.
import { describe, expect, it, type TestContext } from 'vitest'
import { expectCleanOutput } from '../support/expect-clean-output.js'
import { inputsFor, runAction, withoutMaskCommands, type ActionRun } from '../support/run-action.js'
import { startStandInService, type Options, type StandInService } from '../support/stand-in-service.js'
import { msAfter, withinTimeout } from '../support/step-time.js'

// Each test has a stand-in of its own, closed when that test ends, so that the tests can run side
// by side: most of their time is spent waiting.
async function standIn(test: TestContext, options: Options = {}): Promise<StandInService> {
  const service = await startStandInService(options)
  test.onTestFinished(() => service.close())
  return service
}

async function timedRun(
  service: StandInService,
  extra: Record<string, string> = {}
): Promise<ActionRun & { ms: number }> {
  const started = Date.now()
  const run = await runAction({ inputs: inputsFor(service, { prompt: 'Document the create', ...extra }) })
  return { ...run, ms: Date.now() - started }
}

const errors = (run: ActionRun): string[] => run.stdout.split('\n').filter((line) => line.startsWith('::error::'))
const CREATED_UNREAD =
  "so its id is not known. Look it up in the project's dashboard (it is the newest job there) and follow it " +
  'with the jobId input and no prompt; do not run this again blindly, or a second job will be made.'

describe.concurrent('a key that could never be sent', () => {
  it('is refused by the input check when it has a character outside printable ASCII, and never shown', async (test) => {
    const service = await standIn(test)
    const apiKey = 'svc_abc€def'
    const run = await timedRun(service, { apiKey })

    expect(run.code).toBe(1)
    expect(errors(run)).toEqual([
      expect.stringMatching(
        /^::error::Input apiKey does not look like an API key of the service \(the value is not shown\)\. A key is svc_ followed by its secret part in printable ASCII, with no spaces/
      )
    ])
    expect(service.requests).toHaveLength(0)
    expect(withoutMaskCommands(run.all)).not.toContain('abc€def')
    expect(run.all).not.toMatch(/may or may not/)
    expectCleanOutput(run, apiKey)
  })
})

describe.concurrent('a 2xx create whose answer cannot be read', () => {
  it('says the job was created when the body is over the size limit, and what to do', async (test) => {
    const service = await standIn(test, {
      faults: [{ method: 'POST', afterCreate: true, status: 201, body: `{"id": "${'x'.repeat(1_100_000)}"}` }]
    })
    const run = await timedRun(service)

    expect(run.code).toBe(1)
    expect(service.created).toBe(1)
    expect(service.requestsOf('POST')).toHaveLength(1)
    expect(service.requestsOf('GET')).toHaveLength(0)
    expect(errors(run)).toEqual([
      `::error::The service created the job (HTTP 201), but its answer could not be read (it was larger than 1 MB), ${CREATED_UNREAD}`
    ])
    expect(run.outputs.jobId).toBeUndefined()
    expect(run.all).not.toMatch(/may or may not/)
    expectCleanOutput(run, service.apiKey)
  })

  it('says the job was created when the body drips past the deadline', async (test) => {
    const service = await standIn(test, { faults: [{ method: 'POST', dripMs: 100 }] })
    // The body takes 20 s to drip; 6 s leaves a busy machine time to read the headers first.
    const run = await timedRun(service, { timeout: '6s' })

    expect(msAfter(service.requests[0], run)).toBeLessThan(withinTimeout(6000))
    expect(run.code).toBe(1)
    expect(service.created).toBe(1)
    expect(service.requestsOf('POST')).toHaveLength(1)
    expect(errors(run)).toEqual([
      `::error::The service created the job (HTTP 201), but its answer could not be read (the timeout ran out while it arrived), ${CREATED_UNREAD}`
    ])
    expect(run.outputs.jobId).toBeUndefined()
    expect(run.all).not.toMatch(/may or may not/)
    expectCleanOutput(run, service.apiKey)
  })
})

describe.concurrent('a create answered with a job that is already final', () => {
  it.for<[string, number, RegExp]>([
    [
      'completed',
      0,
      /^Job job_1_\w+ completed and opened a pull request: https:\/\/github\.com\/example\/docs\/pull\/1$/m
    ],
    ['archived', 0, /^::warning::Job job_1_\w+ was archived at \d{4}-/m],
    ['failed', 1, /^::error::Job job_1_\w+ failed: the agent hit an unrecoverable error\./m]
  ])('%s: reported as final, with no read', async ([final, code, sentence], test) => {
    const service = await standIn(test, { plan: { activeMs: 0, final } })
    const run = await timedRun(service)

    expect(run.code).toBe(code)
    expect(service.requestsOf('POST')).toHaveLength(1)
    expect(service.requestsOf('GET')).toHaveLength(0)
    expect(run.outputs.jobId).toBe([...service.jobs.keys()][0])
    expect(run.outputs.status).toBe(final)
    expect(run.stdout).toMatch(sentence)
    expectCleanOutput(run, service.apiKey)
  })
})
