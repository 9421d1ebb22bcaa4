// Every wait the bundled action makes is bounded: by the shortest pollInterval it accepts, by the
// longest duration a timer can hold, by the time the step has left, whatever a server asks for in
// Retry-After, and, for the replies on a comment thread, by a few seconds after the run ends.
import { afterAll, describe, expect, it, type TestContext } from 'vitest'
import { expectCleanOutput } from '../support/expect-clean-output.js'
import { inputsFor, runAction, withoutMaskCommands, type ActionRun } from '../support/run-action.js'
import { issueCommentEvent, removeEventFiles, startStandInGitHub, writeEventFile } from '../support/stand-in-github.js'
import { startStandInService, type Options, type StandInService } from '../support/stand-in-service.js'
import { msAfter, withinTimeout } from '../support/step-time.js'

// Each test has a stand-in of its own, closed when that test ends, so that the tests can run side
// by side: most of their time is spent waiting.
async function standIn(test: TestContext, options: Options = {}): Promise<StandInService> {
  const service = await startStandInService(options)
  test.onTestFinished(() => service.close())
  return service
}

afterAll(removeEventFiles)

async function timedRun(
  service: StandInService,
  extra: Record<string, string> = {}
): Promise<ActionRun & { ms: number }> {
  const started = Date.now()
  const run = await runAction({ inputs: inputsFor(service, { prompt: 'Document the limits', ...extra }) })
  return { ...run, ms: Date.now() - started }
}

const errors = (run: ActionRun): string[] => run.stdout.split('\n').filter((line) => line.startsWith('::error::'))

describe.concurrent('durations the action refuses, before any request', () => {
  it.for<[string, Record<string, string>, string]>([
    [
      'a pollInterval below 1s',
      { pollInterval: '10ms' },
      "::error::Input pollInterval is '10ms', which is shorter than 1s, the shortest accepted: polling more often only adds load on the service. Use 1s or more."
    ],
    [
      'a pollInterval that rounds to 0',
      { pollInterval: '0.4ms' },
      "::error::Input pollInterval is '0.4ms', which is shorter than 1s, the shortest accepted: polling more often only adds load on the service. Use 1s or more."
    ],
    [
      'a timeout that rounds to 0',
      { timeout: '0.4ms' },
      "::error::Input timeout is '0.4ms', which is shorter than 1ms, the shortest accepted. Use 1ms or more."
    ],
    [
      'a timeout no timer can hold',
      { timeout: '600h' },
      "::error::Input timeout is '600h', which is longer than a timer can hold. The largest accepted value is 2147483647ms, about 596h (24.8 days)."
    ]
  ])('%s', async ([, extra, error], test) => {
    const service = await standIn(test)
    const run = await timedRun(service, extra)

    expect(run.code).toBe(1)
    expect(errors(run)).toEqual([error])
    expect(service.requests).toHaveLength(0)
    expectCleanOutput(run, service.apiKey)
  })
})

describe.concurrent('a Retry-After longer than any timer', () => {
  it.for([
    ['in seconds', '3000000'],
    ['as a date in 2100', 'Fri, 01 Jan 2100 00:00:00 GMT']
  ])('%s: waits out the time left, then times out, without a timer overflow', async ([, retryAfter], test) => {
    const service = await standIn(test, {
      plan: { activeMs: 60_000 },
      faults: [
        {
          method: 'GET',
          status: 503,
          body: 'busy',
          contentType: 'text/plain',
          headers: { 'retry-after': retryAfter },
          times: 100_000
        }
      ]
    })
    // 4 s: time for the create and the first read before the deadline on a busy machine too.
    const run = await timedRun(service, { timeout: '4s', pollInterval: '1s' })

    expect(msAfter(service.requests[0], run)).toBeLessThan(withinTimeout(4000))
    expect(run.code).toBe(1)
    // The first read, and one last read before the deadline: not one every millisecond.
    expect(service.requestsOf('GET')).toHaveLength(2)
    expect(run.stderr).not.toContain('TimeoutOverflowWarning')
    expect(run.stdout).not.toMatch(/Trying again in (\d+[mh]\b|\d{3,}s)/)
    const id = run.outputs.jobId
    expect(errors(run)).toEqual([
      expect.stringContaining(
        `::error::Job ${id} did not reach a final status within the timeout of 4.0s (last status: active). The last read failed: Reading job ${id} failed with HTTP 503 (busy).`
      )
    ])
    expectCleanOutput(run, service.apiKey)
  })
})

describe.concurrent('GitHub calls on a comment-triggered run', () => {
  it('do not hold the step when the GitHub API never answers', async (test) => {
    const token = 'ghs_stand_in_token_0123456789'
    const service = await standIn(test, { plan: { activeMs: 0 } })
    const github = await startStandInGitHub({ hang: true })
    test.onTestFinished(() => github.close())
    const run = await runAction({
      inputs: {
        projectId: 'docs',
        apiKey: service.apiKey,
        baseUrl: service.url,
        // 6 s: the context's half of it, 3 s, then time for the create on a busy machine too (3 s was not).
        timeout: '6s',
        githubToken: token
      },
      env: {
        GITHUB_EVENT_NAME: 'issue_comment',
        GITHUB_EVENT_PATH: writeEventFile(issueCommentEvent({ body: '/docs explain the limits' })),
        GITHUB_API_URL: github.apiUrl,
        GITHUB_SERVER_URL: 'https://github.example',
        GITHUB_REPOSITORY: 'octo-org/docs-site',
        GITHUB_RUN_ID: '4711'
      }
    })

    // The job completed at once (at its create); the replies get 5s after that, not 10s for each call in turn.
    expect(msAfter(service.requests[0], run)).toBeLessThan(withinTimeout(5000))
    expect(run.code).toBe(0)
    expect(run.outputs.status).toBe('completed')
    expect(github.requests.length).toBeGreaterThan(0)
    expect(run.stdout).toMatch(/^::warning::Could not .* on the issue #12: .* The job is not affected\.$/m)
    expect(withoutMaskCommands(run.all)).not.toContain(token)
    expectCleanOutput(run, service.apiKey)
  })
})
