// Cancelling a run, as the runner does it (SIGINT, then SIGTERM): the step ends promptly, and
// since the service has no cancel operation, the log says which job keeps running and how to
// follow it again.
import { expectCleanOutput } from '../support/expect-clean-output.js'
import { describe, expect, it, type TestContext } from 'vitest'
import { inputsFor, startAction, type ActionRun } from '../support/run-action.js'
import { startStandInService, type Options, type StandInService } from '../support/stand-in-service.js'
import { RUN_OVERHEAD_MS } from '../support/step-time.js'

// Each test has a stand-in of its own, closed when that test ends, so that the tests can run side
// by side: most of their time is spent waiting for a grace or a delayed answer.
async function standIn(test: TestContext, options: Options = {}): Promise<StandInService> {
  const service = await startStandInService(options)
  test.onTestFinished(() => service.close())
  return service
}

function inputs(service: StandInService, extra: Record<string, string> = {}): Record<string, string> {
  return inputsFor(service, { prompt: 'Document the cancel behaviour', timeout: '30s', ...extra })
}

/** Starts the action and resolves once `ready` says it is far enough along to be cancelled. */
async function startUntil(
  service: StandInService,
  ready: (stdout: string) => boolean,
  extra: Record<string, string> = {}
) {
  let stdout = ''
  let markReady = (): void => {}
  const isReady = new Promise<void>((resolve) => (markReady = resolve))
  const action = startAction({
    inputs: inputs(service, extra),
    onStdout: (chunk) => {
      stdout += chunk
      if (ready(stdout)) markReady()
    }
  })
  const poll = setInterval(() => ready(stdout) && markReady(), 5)
  try {
    await Promise.race([
      isReady,
      action.done.then((run) => {
        throw new Error(`The action ended before it could be cancelled:\n${run.stdout}`)
      })
    ])
  } finally {
    clearInterval(poll)
  }
  return action
}

async function cancel(
  action: ReturnType<typeof startAction>,
  signal: NodeJS.Signals
): Promise<{ run: ActionRun; ms: number }> {
  const sentAt = Date.now()
  action.child.kill(signal)
  const run = await action.done
  return { run, ms: Date.now() - sentAt }
}

describe.concurrent('a run cancelled while it follows the job', () => {
  it.for(['SIGINT', 'SIGTERM'] as const)(
    '%s: ends within 2s, naming the job and how to follow it again',
    async (signal, test) => {
      const service = await standIn(test, { plan: { activeMs: 60_000 } })
      const action = await startUntil(service, (out) => / is active /.test(out))
      const { run, ms } = await cancel(action, signal)

      expect(ms).toBeLessThan(2000)
      expect(run.code).not.toBe(0)
      const [job] = service.jobs.keys()
      expect(service.requestsOf('POST')).toHaveLength(1)
      expect(run.stdout).toContain(
        `::error::The run was cancelled. Job ${job} keeps running on the service, which has no cancel operation. ` +
          `To follow it again, run this action with jobId: ${job} and no prompt.`
      )
      expect(run.outputs.jobId).toBe(job)
      expect(run.outputs.status).toBe('active')
      expect(run.summary).toContain('The workflow run was cancelled.')
      expectCleanOutput(run, service.apiKey)
    }
  )

  it('ends promptly when cancelled while a read hangs', async (test) => {
    const service = await standIn(test, { plan: { activeMs: 60_000 } })
    service.addFault({ method: 'GET', hang: true, times: 1000 })
    const action = await startUntil(service, () => service.requestsOf('GET').length > 0)
    const { run, ms } = await cancel(action, 'SIGINT')

    expect(ms).toBeLessThan(2000)
    expect(run.code).not.toBe(0)
    const [job] = service.jobs.keys()
    expect(run.stdout).toContain(`::error::The run was cancelled. Job ${job} keeps running on the service`)
    expect(run.outputs.jobId).toBe(job)
    expectCleanOutput(run, service.apiKey)
  })
})

describe.concurrent('a run cancelled while the job is being created', () => {
  /** The job the stand-in made, named in the log, the jobId output and the summary. */
  function expectJobReported(service: StandInService, run: ActionRun): void {
    expect(service.requestsOf('POST')).toHaveLength(1)
    expect(service.requestsOf('GET')).toHaveLength(0)
    expect(service.jobs.size).toBe(1)
    const [job] = service.jobs.keys()
    expect(run.code).not.toBe(0)
    expect(run.stdout).toContain(
      `::error::The run was cancelled. Job ${job} keeps running on the service, which has no cancel operation. ` +
        `To follow it again, run this action with jobId: ${job} and no prompt.`
    )
    expect(run.outputs.jobId).toBe(job)
    expect(run.summary).toContain(job)
    expect(run.all).not.toMatch(/may or may not/)
    expectCleanOutput(run, service.apiKey)
  }

  it('lets a create answered 3s after SIGINT finish, and reports its job', async (test) => {
    const service = await standIn(test, { plan: { activeMs: 60_000 }, faults: [{ method: 'POST', delayMs: 3000 }] })
    const action = await startUntil(service, () => service.requestsOf('POST').length > 0)
    const { run, ms } = await cancel(action, 'SIGINT')

    expectJobReported(service, run)
    expect(ms).toBeGreaterThan(2500)
    expect(ms).toBeLessThan(3000 + RUN_OVERHEAD_MS)
  })

  it('does not let the SIGTERM that follows SIGINT cut the grace short', async (test) => {
    const service = await standIn(test, { plan: { activeMs: 60_000 }, faults: [{ method: 'POST', delayMs: 1500 }] })
    const action = await startUntil(service, () => service.requestsOf('POST').length > 0)
    const sentAt = Date.now()
    action.child.kill('SIGINT')
    await new Promise((resolve) => setTimeout(resolve, 200))
    action.child.kill('SIGTERM')
    const run = await action.done

    expectJobReported(service, run)
    expect(Date.now() - sentAt).toBeGreaterThan(1000)
  })

  it('says the job may or may not exist when the create has not answered by the end of the grace', async (test) => {
    const service = await standIn(test, { faults: [{ method: 'POST', hang: true }] })
    const action = await startUntil(service, () => service.requestsOf('POST').length > 0)
    const { run, ms } = await cancel(action, 'SIGINT')

    // The grace is about 7s: the runner's SIGTERM comes 7.5s after its SIGINT, and its kill 2.5s after
    // that. The run ends after the grace, with room for a slow machine, and before that kill.
    expect(ms).toBeGreaterThan(6500)
    expect(ms).toBeLessThan(Math.min(7000 + RUN_OVERHEAD_MS, 10_000))
    expect(run.code).not.toBe(0)
    expect(service.requestsOf('POST')).toHaveLength(1)
    expect(run.stdout).toContain(
      "::error::The run was cancelled while the job was being created: it may or may not have been created. Check the project's jobs before running again."
    )
    expect(run.outputs.jobId).toBeUndefined()
    expectCleanOutput(run, service.apiKey)
  })

  it('ends at once between tries after a 429, saying no job was created, and never sends it again', async (test) => {
    const service = await standIn(test, {
      faults: [
        {
          method: 'POST',
          status: 429,
          body: 'Too Many Requests',
          contentType: 'text/plain',
          headers: { 'retry-after': '20' }
        }
      ]
    })
    const action = await startUntil(service, (out) => /Trying again in 20s/.test(out))
    const { run, ms } = await cancel(action, 'SIGINT')

    // At once: not the 20 s the Retry-After asks for, with room for a busy machine to see it exit.
    expect(ms).toBeLessThan(RUN_OVERHEAD_MS)
    expect(run.code).not.toBe(0)
    expect(service.requestsOf('POST')).toHaveLength(1)
    expect(service.created).toBe(0)
    expect(run.stdout).toContain('::error::The run was cancelled before a job was created.')
    expectCleanOutput(run, service.apiKey)
  })
})
