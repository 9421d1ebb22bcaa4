// The bundled action against hostile or stalled answers and a cancel: whatever GitHub's API and the
// service answer, and whenever the runner cancels, the action neither creates a job that was not
// asked for, nor holds the step past its timeout, nor gives the runner a command, nor costs the
// runner its memory.
import { afterAll, describe, expect, it, type TestContext } from 'vitest'
import { expectCleanOutput } from '../support/expect-clean-output.js'
import { startProxy } from '../support/proxy.js'
import { inputsFor, startAction, type ActionRun, type RunOptions } from '../support/run-action.js'
import { commandsTheRunnerWouldObey, unexpectedCommands } from '../support/runner-commands.js'
import {
  changedFile,
  issueCommentEvent,
  pushEvent,
  removeEventFiles,
  runnerEnvironment,
  standInCommit,
  startStandInGitHub,
  workflowRun,
  type Options as GitHubOptions,
  type StandInGitHub
} from '../support/stand-in-github.js'
import { startStandInService, type Options, type StandInService } from '../support/stand-in-service.js'
import { msAfter, RUN_OVERHEAD_MS } from '../support/step-time.js'

const TOKEN = 'ghs_trust_boundary_token_0123456789'
const MARKER = 'PWNED'

afterAll(removeEventFiles)

// Each test has stand-ins of its own, closed when it ends, so that the tests can run side by side.
async function standIn(test: TestContext, options: Options = {}): Promise<StandInService> {
  const service = await startStandInService(options)
  test.onTestFinished(() => service.close())
  return service
}

async function standInGitHub(test: TestContext, options: GitHubOptions = {}): Promise<StandInGitHub> {
  const github = await startStandInGitHub(options)
  test.onTestFinished(() => github.close())
  return github
}

// What a run may take beyond its timeout (see step-time.ts). The defects these tests catch cost
// tens of seconds, or minutes.
const SLACK_MS = RUN_OVERHEAD_MS

/**
 * Runs the action and times it. Without its bounds some of these runs take minutes; the watchdog ends
 * them (the test then fails on the exit code) so that they do not load the machine. It waits as long
 * as the test may take, so that a busy machine's slow start-up is not taken for such a run.
 */
async function timedRun(options: RunOptions, watchdogMs = 14_000): Promise<ActionRun & { ms: number }> {
  const started = Date.now()
  const action = startAction(options)
  const watchdog = setTimeout(() => action.child.kill('SIGKILL'), watchdogMs)
  try {
    const run = await action.done
    return { ...run, ms: Date.now() - started }
  } finally {
    clearTimeout(watchdog)
  }
}

const history = [
  standInCommit('Add the retry policy', [changedFile('src/retry.ts')]),
  standInCommit('Add --dry-run', [changedFile('src/cli.ts')])
]
const c1 = history[0].sha

/** A push of one commit, on a branch whose last successful run was at the commit before. */
function pushEnv(github: StandInGitHub): Record<string, string> {
  return runnerEnvironment(github, 'push', pushEvent({ before: c1, commits: history.slice(1) }))
}

describe.concurrent('a cancel while the context is read', () => {
  it('sends no create, and says the run was cancelled before a job was created', async (test) => {
    const service = await standIn(test)
    const github = await standInGitHub(test, { hang: true })
    const action = startAction({
      inputs: inputsFor(service, { githubToken: TOKEN, timeout: '30s' }),
      env: pushEnv(github)
    })
    // One SIGINT, as the runner sends it, once the first read is in flight (and stalled).
    const whenRead = setInterval(() => {
      if (github.requests.length === 0) return
      clearInterval(whenRead)
      action.child.kill('SIGINT')
    }, 5)
    const run = await action.done.finally(() => clearInterval(whenRead))

    expect(github.requests.length).toBeGreaterThan(0)
    expect(service.requestsOf('POST')).toHaveLength(0)
    expect(service.created).toBe(0)
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('::error::The run was cancelled before a job was created.')
    expect(run.outputs.jobId).toBeUndefined()
    // The summary's account of what left says that nothing did.
    expect(run.summary).toContain('Not sent (the run ended before it went out)')
    expect(run.summary).not.toContain('Sent to the service')
    expectCleanOutput(run, service.apiKey)
  })
})

describe.concurrent('a cancel while the create is still connecting', () => {
  /** Runs the action behind a proxy that opens its tunnel `connectDelayMs` late, and cancels it meanwhile. */
  async function cancelWhileConnecting(test: TestContext, connectDelayMs: number) {
    const service = await standIn(test)
    const proxy = await startProxy({ connectDelayMs })
    test.onTestFinished(() => proxy.close())
    const action = startAction({
      inputs: inputsFor(service, { context: 'none', timeout: '30s' }),
      env: { HTTP_PROXY: proxy.url }
    })
    const whenConnecting = setInterval(() => {
      if (proxy.seen.length === 0) return
      clearInterval(whenConnecting)
      action.child.kill('SIGINT')
    }, 5)
    const run = await action.done.finally(() => clearInterval(whenConnecting))
    expect(proxy.seen.map((r) => r.method)).toEqual(['CONNECT'])
    expect(service.requests).toHaveLength(0)
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('::error::The run was cancelled before a job was created.')
    expect(run.all).not.toMatch(/may or may not/)
    expectCleanOutput(run, service.apiKey)
  }

  it('writes nothing to the service once the tunnel opens, and says no job was created', async (test) => {
    await cancelWhileConnecting(test, 1000)
  })

  it('still connecting when the grace ends: says no job was created, not "may or may not"', async (test) => {
    // The grace is about 7s (CANCEL_GRACE_MS in src/runtime/cancel.ts); the tunnel would open after it.
    await cancelWhileConnecting(test, 9000)
  })
})

describe.concurrent('an error page of tag openers and line breaks costs no more than its length', () => {
  const LT = '<'.repeat(1024 * 1024)
  const SCRIPTS = '<script'.repeat(150_000)

  it.for([
    ['a 1 MiB page of "<" without ">"', LT],
    ['a page of "<script" openers never closed', SCRIPTS]
  ])('a 503 on the create with %s: the step ends within its timeout, saying what happened', async ([, body], test) => {
    const service = await standIn(test, { faults: [{ method: 'POST', status: 503, body, contentType: 'text/html' }] })
    const run = await timedRun({ inputs: inputsFor(service, { timeout: '5s' }) })

    expect(run.code).toBe(1)
    expect(msAfter(service.requests[0], run)).toBeLessThan(5000 + SLACK_MS)
    expect(run.stdout).toContain('::error::The service failed while creating the job (HTTP 503: ')
    expect(service.requestsOf('POST')).toHaveLength(1)
    expectCleanOutput(run, service.apiKey)
  })

  it('503s on the reads with a 1 MiB page of "<": the step still ends at its timeout', async (test) => {
    const service = await standIn(test, {
      faults: [{ method: 'GET', status: 503, body: LT, contentType: 'text/html', times: 1000 }]
    })
    const run = await timedRun({ inputs: inputsFor(service, { jobId: 'job_1', prompt: '', timeout: '2s' }) })

    expect(run.code).toBe(1)
    expect(msAfter(service.requests[0], run)).toBeLessThan(2000 + SLACK_MS)
    expect(run.stdout).toMatch(
      /::error::Job job_1 did not reach a final status within the timeout of 2(\.0)?s .*HTTP 503/
    )
    expectCleanOutput(run, service.apiKey)
  })

  it('a diff of 300,000 blank lines: the context is rendered in time and the job created', async (test) => {
    const service = await standIn(test, { plan: { activeMs: 100 } })
    const patch = `@@ -1 +1,300002 @@\n+a${'\n'.repeat(300_000)}+b`
    const files = [changedFile('src/cli.ts', { additions: 300_002, deletions: 0, patch })]
    const big = [history[0], standInCommit('Add --dry-run', files)]
    const github = await standInGitHub(test, {
      repository: { history: big, workflowRuns: [workflowRun({ id: 4700, head_sha: big[0].sha })] }
    })
    const run = await timedRun({
      inputs: inputsFor(service, { githubToken: TOKEN, context: 'diff', contextLimit: '5000', timeout: '5s' }),
      env: runnerEnvironment(github, 'push', pushEvent({ before: big[0].sha, commits: big.slice(1) }))
    })

    expect(run.code).toBe(0)
    // From the first read of GitHub: node's start-up is not the step's (see step-time.ts).
    expect(msAfter(github.reads[0], run)).toBeLessThan(5000 + SLACK_MS)
    expect(service.requestsOf('POST')).toHaveLength(1)
    expect(JSON.parse(service.requestsOf('POST')[0].body).prompt).toContain('Add --dry-run')
  })
})

describe.concurrent('what the GitHub client logs', () => {
  it('a deprecation notice with commands in its sunset and link headers is logged as text, on stdout only', async (test) => {
    const service = await standIn(test, { plan: { activeMs: 100 } })
    const github = await standInGitHub(test, {
      headers: {
        deprecation: 'true',
        sunset: `##[error]${MARKER} in the sunset header`,
        link: `<https://docs.github.example/##[error]${MARKER}>; rel="deprecation"`
      }
    })
    const run = await timedRun({
      inputs: {
        projectId: 'docs',
        apiKey: service.apiKey,
        baseUrl: service.url,
        pollInterval: '1s',
        timeout: '10s',
        githubToken: TOKEN
      },
      env: runnerEnvironment(github, 'issue_comment', issueCommentEvent({ body: '/docs explain the retry policy' }))
    })

    expect(run.code).toBe(0)
    // The reply, and the note naming the job the issue keeps.
    expect(github.comments.filter((c) => !c.body.includes('<!-- docs-agent-job: '))).toHaveLength(1)
    expect(unexpectedCommands(run.stdout, { secrets: [service.apiKey, TOKEN], marker: MARKER })).toEqual([])
    expect(commandsTheRunnerWouldObey(run.stderr)).toEqual([])
    // Said, as text: the notice is not lost.
    expect(run.stdout).toMatch(
      /is deprecated\. It is scheduled to be removed on ## \[error\]PWNED in the sunset header/
    )
    expectCleanOutput(run, service.apiKey)
  })
})

describe.concurrent('a short timeout leaves the create its time', () => {
  it('wait: false, timeout: 6s and a stalled GitHub API: the reads give up in time and the job is created', async (test) => {
    const service = await standIn(test)
    const github = await standInGitHub(test, { hang: true })
    const run = await timedRun({
      // 6 s, the context's half 3 s: the create's half is room for a machine ten times slower.
      inputs: inputsFor(service, { githubToken: TOKEN, wait: 'false', timeout: '6s' }),
      env: pushEnv(github)
    })

    expect(run.code).toBe(0)
    expect(service.created).toBe(1)
    expect(run.outputs.jobId).toBe([...service.jobs.keys()][0])
    expect(run.stdout).toMatch(
      /::warning::The context for the agent could not be read in full from GitHub\. .*no answer within \d+(\.\d)? s, the most the context may hold up the create/
    )
    expect(msAfter(github.reads[0], run)).toBeLessThan(6000 + SLACK_MS)
    expectCleanOutput(run, service.apiKey)
  })

  it('a create never sent, as the timeout ran out first, says no job was created', async (test) => {
    const service = await standIn(test)
    const github = await standInGitHub(test, { hang: true })
    const run = await timedRun({
      inputs: inputsFor(service, { githubToken: TOKEN, wait: 'false', timeout: '1ms' }),
      env: pushEnv(github)
    })

    expect(run.code).toBe(1)
    expect(service.requests).toHaveLength(0)
    expect(run.stdout).toContain('::error::The timeout ran out before the create could be sent')
    expect(run.stdout).toContain('No job was created')
    expect(run.all).not.toMatch(/may or may not/)
    expectCleanOutput(run, service.apiKey)
  })
})

describe.concurrent('hostile answers from GitHub are cheap to refuse', () => {
  // Parsed without bounds these take 1.3 GB of memory: with a heap of 128 MB such a run fails.
  const SMALL_HEAP = { NODE_OPTIONS: '--max-old-space-size=128' }
  const DEEP = `${'['.repeat(8_000_000)}${']'.repeat(8_000_000)}`
  const WIDE = `[${'[],'.repeat(5_000_000)}[]]`

  it.for([
    ['nested 8 million deep', DEEP, /nested more than \d+ deep/],
    ['of 5 million empty arrays', WIDE, /more than [\d,]+ arrays and objects/]
  ] as const)('two 16 MB answers %s: refused in a sentence, and the job is created', async ([, body, why], test) => {
    const service = await standIn(test, { plan: { activeMs: 100 } })
    const hostile = { status: 200, body }
    const github = await standInGitHub(test, {
      repository: { history },
      faults: { 'workflow-runs': hostile, compare: hostile }
    })
    // 20 s, so the context may take its most, 10 s: both answers are refused within it on a busy
    // machine too (with 10 s, its half, 5 s, ran out after the first at load 14).
    const run = await timedRun(
      {
        inputs: inputsFor(service, { githubToken: TOKEN, timeout: '20s' }),
        env: { ...pushEnv(github), ...SMALL_HEAP }
      },
      25_000
    )

    expect(run.code).toBe(0)
    // Both are read on an idle machine; on a loaded one the context's 10 s may end after the first.
    // Either way each answer read is refused in one sentence, and the job is still created.
    expect(github.reads.length).toBeGreaterThanOrEqual(1)
    expect(github.reads.length).toBeLessThanOrEqual(2)
    expect(service.created).toBe(1)
    const warnings = run.stdout.split('\n').filter((line) => line.startsWith('::warning::'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/GitHub's answer could not be read \(/)
    expect(warnings[0]).toMatch(why)
    expect(msAfter(github.reads[0], run)).toBeLessThan(20_000 + SLACK_MS)
    expectCleanOutput(run, service.apiKey)
  })

  it('a 201 whose body is 1 MiB of nested arrays: the job was made, its id unknown, and the log says what the body is', async (test) => {
    const half = 512 * 1024
    const service = await standIn(test, {
      faults: [{ method: 'POST', status: 201, body: `${'['.repeat(half)}${']'.repeat(half)}`, afterCreate: true }]
    })
    const run = await timedRun({ inputs: inputsFor(service, { timeout: '5s' }) })

    expect(run.code).toBe(1)
    expect(service.created).toBe(1)
    expect(run.stdout).toContain(
      '::error::The service created the job (HTTP 201), but its answer could not be read (it is not a job record: JSON nested more than 16 deep), so its id is not known.'
    )
    expectCleanOutput(run, service.apiKey)
  })
})
