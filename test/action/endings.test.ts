// What a person sees at the end of a run, through the bundled action: every ending leaves a job
// summary whose heading leads with the verdict, then a sentence that names the job once, then the next
// step where there is one; a run that ends before any job exists says so, with no table; a dry run has
// no empty cell; a completed job
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

/** The summary's table, its one row of values under their names, as [field, value] pairs. */
function rows(summary: string): [string, string][] {
  const table = /<table>(.*?)<\/table>/.exec(summary)?.[1] ?? ''
  const names = [...table.matchAll(/<th>(.*?)<\/th>/g)].map((m) => m[1])
  const values = [...table.matchAll(/<td>(.*?)<\/td>/g)].map((m) => m[1])
  return names.map((name, i) => [name, values[i] ?? ''])
}

/** HTML as the reader sees it: tags gone, character references read. */
function asText(html: string): string {
  return html.replace(/<[^>]+>/g, '').replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
}

/** What the summary says after its heading and before its table or its folded parts: how it ended, and the next step. */
function nextStep(summary: string): string {
  const ends = ['<table>', '<details'].map((tag) => summary.indexOf(tag)).filter((at) => at >= 0)
  return asText(summary.slice(summary.indexOf('</h3>') + 5, Math.min(...ends, summary.length)))
}

/** The sentence under the heading, as HTML. */
function sentence(summary: string): string {
  return /<\/h3>\n<p>(.*?)<\/p>/.exec(summary)?.[1] ?? ''
}

describe.concurrent('the summary of each ending leads with the verdict', () => {
  it('a failed job: "Failed", the job, and to look at it', async (test) => {
    const service = await standIn(test, { plan: { activeMs: 100, final: 'failed' } })
    const run = await runAction({ inputs: inputsFor(service) })
    const job = run.outputs.jobId

    expect(run.code).toBe(1)
    expect(heading(run.summary)).toBe('❌ Failed')
    expect(asText(sentence(run.summary))).toBe(`Job ${job} failed: the agent hit an unrecoverable error.`)
    expect(nextStep(run.summary)).toMatch(/Next step: Look at the job in the project's dashboard, then run again/)
    // The heading says the status: no cell says it again.
    expect(rows(run.summary).map(([field]) => field)).not.toContain('Status')
    expect(rows(run.summary)).toContainEqual(['Model', 'docs-agent-large'])
  })

  it('a timeout: "Timed out", the job, and to follow it again with jobId and no prompt', async (test) => {
    const service = await standIn(test, { plan: { activeMs: 60_000 } })
    // Long enough for the create and a read on a busy machine: the heading names the job only once it exists.
    const run = await runAction({ inputs: inputsFor(service, { timeout: '5s' }) })
    const job = run.outputs.jobId

    expect(run.code).toBe(1)
    expect(heading(run.summary)).toBe('⏱️ Timed out: the job is still running')
    expect(asText(sentence(run.summary))).toMatch(new RegExp(`^Job ${job} was still active when the run's timeout`))
    expect(nextStep(run.summary)).toContain("run this action with the job's id as jobId and no prompt")
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
    expect(heading(run.summary)).toBe('🛑 Cancelled: the job is still running')
    expect(asText(sentence(run.summary))).toContain(`Job ${job} keeps running`)
    expect(nextStep(run.summary)).toContain("run this action with the job's id as jobId and no prompt")
  })

  it('a key the service refuses (401): a short summary saying so, no job created, and the next step', async (test) => {
    const service = await standIn(test)
    const run = await runAction({ inputs: inputsFor(service, { apiKey: 'svc_not_the_key' }) })

    expect(run.code).toBe(1)
    expect(service.jobs.size).toBe(0)
    expect(heading(run.summary)).toBe('❌ Failed: nothing was created')
    // What happened under the heading, and what to do under "Next step", as every other ending.
    expect(asText(sentence(run.summary))).toBe('The service rejected the API key (HTTP 401): it is expired or unknown.')
    expect(nextStep(run.summary)).toMatch(/Next step: Check the repository secret passed as apiKey; a new key can be/)
    // No table: a run with no job has no field to show, and nothing repeats the heading.
    expect(run.summary).not.toContain('<table>')
    expect(run.summary).not.toContain('svc_not_the_key')
    expect(run.summary).not.toMatch(/Followed for/)
  })

  it('a dry run: "Dry run", no empty row, no time followed', async (test) => {
    const service = await standIn(test)
    const run = await runAction({ inputs: inputsFor(service, { dryRun: 'true' }) })

    expect(run.code).toBe(0)
    expect(service.requests).toEqual([])
    expect(heading(run.summary)).toBe('🧪 Dry run: the prompt, not sent')
    expect(nextStep(run.summary)).toContain('Set dryRun to false to create the job.')
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
    expect(heading(run.summary)).toBe('✅ Completed: pull request #57 is ready')
    expect(sentence(run.summary)).toBe(
      `Job <code>${job}</code> opened a pull request: <a href="${PR_LINK}">${REPO}#57</a>`
    )
    expect(nextStep(run.summary)).toContain('Review the pull request')
    const details = /<\/a><\/p><p>(.*?)<\/p>/.exec(run.summary)?.[1] ?? ''
    expect(details).not.toContain('<the>')
    expect(asText(details)).toBe('Document <the> --dry-run flag · draft · 3 files changed, +42 −7')
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
    expect(sentence(run.summary)).toMatch(new RegExp(`opened a pull request: <a href="${PR_LINK}">${REPO}#57</a>$`))
    expect(run.summary).not.toContain(' · open · ')
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
