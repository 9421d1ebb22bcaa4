// What a person sees at the end of a run, through the bundled action: every ending leaves a
// job summary whose heading leads with the verdict and names the job when there is one, then the next
// step; a run that ends before any job exists says so; a dry run has no empty rows; a completed job
// whose pull request the token can read shows its title, state, files and lines, in the summary and in
// the thread's final reply; the reply shows a waiting mark only while the job works, and names the job
// once; an empty key on a fork's pull request says why it is empty.
import { afterAll, describe, expect, it, type TestContext } from 'vitest'
import { inputsFor, runAction, startAction } from '../support/run-action.js'
import {
  apiPullRequest,
  issueCommentEvent,
  pullRequestEvent,
  removeEventFiles,
  runnerEnvironment,
  startStandInGitHub,
  workflowDispatchEvent,
  type Options as GitHubOptions
} from '../support/stand-in-github.js'
import { startStandInService, type Options } from '../support/stand-in-service.js'

const TOKEN = 'ghs_endings_token_0123456789'
const SERVER = 'https://github.example'
const REPO = 'octo-org/docs-site'
const PR_LINK = `${SERVER}/${REPO}/pull/57`

afterAll(removeEventFiles)

async function standIn(test: TestContext, options: Options = {}) {
  const service = await startStandInService(options)
  test.onTestFinished(() => service.close())
  return service
}

async function standInGitHub(test: TestContext, options: GitHubOptions = {}) {
  const github = await startStandInGitHub(options)
  test.onTestFinished(() => github.close())
  return github
}

/** The summary's heading: the first <h3>, as text. */
function heading(summary: string): string {
  return /<h3>(.*?)<\/h3>/.exec(summary)?.[1] ?? ''
}

/** The summary's table rows, as [field, value] pairs. */
function rows(summary: string): [string, string][] {
  return [...summary.matchAll(/<tr><td>(.*?)<\/td><td>(.*?)<\/td><\/tr>/g)].map((m) => [m[1], m[2]])
}

/** HTML as the reader sees it: tags gone, character references read. */
function asText(html: string): string {
  return html.replace(/<[^>]+>/g, '').replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
}

/** What the summary says after its heading and before its table: how it ended, and the next step. */
function nextStep(summary: string): string {
  return asText(summary.slice(summary.indexOf('</h3>') + 5, summary.indexOf('<table>')))
}

describe.concurrent('the summary of each ending leads with the verdict', () => {
  it('a failed job: "Failed", the job, and to look at it', async (test) => {
    const service = await standIn(test, { plan: { activeMs: 100, final: 'failed' } })
    const run = await runAction({ inputs: inputsFor(service) })
    const job = run.outputs.jobId

    expect(run.code).toBe(1)
    expect(heading(run.summary)).toBe(`❌ Failed: job ${job}`)
    expect(nextStep(run.summary)).toMatch(new RegExp(`Look at job ${job} in the project's dashboard`))
    expect(rows(run.summary)).toContainEqual(['Status', 'failed'])
  })

  it('a timeout: "Timed out", the job, and to follow it again with jobId and no prompt', async (test) => {
    const service = await standIn(test, { plan: { activeMs: 60_000 } })
    // Long enough for the create and a read on a busy machine: the heading names the job only once it exists.
    const run = await runAction({ inputs: inputsFor(service, { timeout: '5s' }) })
    const job = run.outputs.jobId

    expect(run.code).toBe(1)
    expect(heading(run.summary)).toBe(`⏱️ Timed out: job ${job} is still running`)
    expect(nextStep(run.summary)).toContain(`run this action with jobId: ${job} and no prompt`)
  })

  it('a cancel: "Cancelled", the job, and to follow it again', async (test) => {
    const service = await standIn(test, { plan: { activeMs: 60_000 } })
    let stdout = ''
    const action = startAction({ inputs: inputsFor(service, { timeout: '30s' }), onStdout: (c) => (stdout += c) })
    await new Promise<void>((resolve, reject) => {
      const poll = setInterval(() => / is active /.test(stdout) && (clearInterval(poll), resolve()), 5)
      void action.done.then(() => (clearInterval(poll), reject(new Error(`ended first:\n${stdout}`))))
    })
    action.child.kill('SIGINT')
    const run = await action.done
    const job = run.outputs.jobId

    expect(run.code).not.toBe(0)
    expect(heading(run.summary)).toBe(`🛑 Cancelled: job ${job} is still running`)
    expect(nextStep(run.summary)).toContain(`run this action with jobId: ${job} and no prompt`)
  })

  it('a key the service refuses (401): a short summary saying so, and that no job was created', async (test) => {
    const service = await standIn(test)
    const run = await runAction({ inputs: inputsFor(service, { apiKey: 'svc_not_the_key' }) })

    expect(run.code).toBe(1)
    expect(service.jobs.size).toBe(0)
    expect(heading(run.summary)).toBe('❌ Failed: nothing was created')
    expect(nextStep(run.summary)).toMatch(/HTTP 401/)
    expect(rows(run.summary)).toContainEqual(['Job', 'none: no job was created'])
    expect(run.summary).not.toContain('svc_not_the_key')
    expect(run.summary).not.toMatch(/Followed for/)
  })

  it('a dry run: "Dry run", no empty row, no time followed', async (test) => {
    const service = await standIn(test)
    const run = await runAction({ inputs: inputsFor(service, { dryRun: 'true' }) })

    expect(run.code).toBe(0)
    expect(service.requests).toEqual([])
    expect(heading(run.summary)).toBe('🧪 Dry run: nothing was sent')
    expect(nextStep(run.summary)).toContain('Set dryRun to false to create the job.')
    expect(rows(run.summary).length).toBeGreaterThan(0)
    for (const [field, value] of rows(run.summary)) expect(value, field).not.toBe('')
    expect(run.summary).not.toMatch(/Followed for|<td><\/td>/)
  })

  it('a completed job: its pull request by title, state, files and lines, read with the run token', async (test) => {
    const service = await standIn(test, { plan: { activeMs: 100, prLink: PR_LINK } })
    const github = await standInGitHub(test, {
      repository: {
        pulls: { 57: apiPullRequest({ number: 57, title: 'Document <the> --dry-run flag', state: 'draft' }) }
      }
    })
    const run = await runAction({
      inputs: inputsFor(service, { githubToken: TOKEN }),
      env: runnerEnvironment(github, 'workflow_dispatch', workflowDispatchEvent(), { GITHUB_SERVER_URL: SERVER })
    })
    const job = run.outputs.jobId

    expect(run.code).toBe(0)
    expect(github.pullReads.map((r) => r.path)).toEqual([`/repos/${REPO}/pulls/57`])
    expect(heading(run.summary)).toBe(`✅ Completed: job ${job} opened pull request #57`)
    expect(nextStep(run.summary)).toContain('Review the pull request')
    const pr = rows(run.summary).find(([field]) => field === 'Pull request')?.[1] ?? ''
    expect(pr).toContain(`<a href="${PR_LINK}">#57</a>`)
    expect(pr).not.toContain('<the>')
    expect(asText(pr)).toBe('#57 Document <the> --dry-run flag · draft · 3 files changed, +42 −7')
  })

  it('a pull request the token may not read: the link alone, and no warning', async (test) => {
    const service = await standIn(test, { plan: { activeMs: 100, prLink: PR_LINK } })
    const github = await standInGitHub(test, { faults: { pull: { status: 404, message: 'Not Found' } } })
    const run = await runAction({
      inputs: inputsFor(service, { githubToken: TOKEN }),
      env: runnerEnvironment(github, 'workflow_dispatch', workflowDispatchEvent(), { GITHUB_SERVER_URL: SERVER })
    })

    expect(run.code).toBe(0)
    expect(github.pullReads).toHaveLength(1)
    expect(run.stdout).not.toMatch(/^::(warning|notice)::Could not read pull request/m)
    expect(rows(run.summary)).toContainEqual(['Pull request', `<a href="${PR_LINK}">${PR_LINK}</a>`])
  })
})

describe.concurrent('the reply on the thread', () => {
  it('shows the waiting mark only while the job works, and names the job once at the end, with its pull request', async (test) => {
    const service = await standIn(test, { plan: { activeReads: 2, prLink: PR_LINK } })
    const github = await standInGitHub(test, {
      repository: { pulls: { 57: apiPullRequest({ number: 57, title: 'Retries, documented', state: 'open' }) } }
    })
    const run = await runAction({
      inputs: {
        projectId: 'docs',
        apiKey: service.apiKey,
        baseUrl: service.url,
        pollInterval: '1s',
        githubToken: TOKEN
      },
      env: runnerEnvironment(github, 'issue_comment', issueCommentEvent({ body: '/docs document the retries' }), {
        GITHUB_SERVER_URL: SERVER
      })
    })
    const job = run.outputs.jobId

    expect(run.code).toBe(0)
    const [reply] = github.comments
    for (const body of reply.bodies.filter((b) => b.includes('⏳'))) {
      expect(body).not.toMatch(/`(completed|archived|failed)`/)
    }
    const final = reply.body
    expect(final).not.toContain('⏳')
    expect(final.split(job).length - 1).toBe(1)
    expect(final).toContain('`Retries, documented`')
    expect(final).toContain('open · 3 files changed, +42 −7')
    expect(final).toContain(PR_LINK)
  })
})

describe('a pull request from a fork', () => {
  it('with an empty key: GitHub gives such runs no secrets, and what to do instead', async (test) => {
    const service = await standIn(test)
    const github = await standInGitHub(test)
    const event = pullRequestEvent({ number: 9, fork: 'stranger/docs-site' })
    const run = await runAction({
      inputs: inputsFor(service, { apiKey: '' }),
      env: runnerEnvironment(github, 'pull_request', event)
    })

    expect(run.code).toBe(1)
    expect(service.requests).toEqual([])
    const [error] = run.stdout.split('\n').filter((line) => line.startsWith('::error::'))
    expect(error).toContain('this run is for pull request #9 from the fork stranger/docs-site')
    expect(error).toContain('GitHub gives the workflows it runs for a fork')
    expect(error).toContain('github.event.pull_request.head.repo.full_name == github.repository')
    expect(error).toContain('pull_request_target')
    expect(error).toContain('docs/security.md')
    expect(heading(run.summary)).toBe('❌ Failed: nothing was created')
  })

  it('from a branch of the repository, an empty key is only required', async (test) => {
    const service = await standIn(test)
    const github = await standInGitHub(test)
    const run = await runAction({
      inputs: inputsFor(service, { apiKey: '' }),
      env: runnerEnvironment(github, 'pull_request', pullRequestEvent({ number: 9 }))
    })

    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/^::error::Input apiKey is required/m)
    expect(run.stdout).not.toContain('fork')
  })
})
