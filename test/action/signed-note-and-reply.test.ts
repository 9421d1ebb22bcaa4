// The note on a job's pull request and the reply on the thread, through the bundled action: a
// `/docs` comment goes to a job only when the note on its pull request is signed for this
// repository, pull request and project; the reply on the thread always ends (a cancel during a slow
// write, GitHub slow to answer the first reply), posts no outside link and names the way out of a
// refusal; and the note's write keeps its bound on a Node that loses timers to garbage collection.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { runAction, startAction, type ActionRun } from '../support/run-action.js'
import {
  issueCommentEvent,
  removeEventFiles,
  startStandInGitHub,
  writeEventFile,
  type Options as GitHubOptions,
  type StandInGitHub
} from '../support/stand-in-github.js'
import {
  startStandInService,
  type Options as ServiceOptions,
  type StandInService
} from '../support/stand-in-service.js'

const TOKEN = 'ghs_stand_in_token_0123456789'
const SERVER = 'https://github.example'
const REPO = 'octo-org/docs-site'
const SOURCE = `${SERVER}/${REPO}`
const AGENT_PR = 31
const AGENT_PR_LINK = `${SERVER}/${REPO}/pull/${AGENT_PR}`
/** A job whose source is this repository, and which opens AGENT_PR there. */
const OPENS_AGENT_PR: ServiceOptions = {
  plan: { activeReads: 1, prLink: AGENT_PR_LINK, repository: SOURCE },
  messagePlan: { activeReads: 1, prLink: AGENT_PR_LINK, repository: SOURCE }
}

/** A test of several runs in a row: more than the default 15 s on a loaded machine. */
const SEVERAL_RUNS_MS = 30_000

let service: StandInService
let github: StandInGitHub
afterEach(async () => {
  await service?.close()
  await github?.close()
})
afterAll(removeEventFiles)

async function standIns(serviceOptions: ServiceOptions = {}, githubOptions: GitHubOptions = {}): Promise<void> {
  service = await startStandInService({ plan: { activeReads: 1 }, ...serviceOptions })
  github = await startStandInGitHub(githubOptions)
}

/** The stand-in GitHub again, with new options, keeping the comments the action wrote so far (by `login`). */
async function restartGitHub(githubOptions: GitHubOptions, login = 'github-actions[bot]'): Promise<void> {
  const kept = github.comments.map((c) => ({ issueNumber: c.issueNumber, body: c.body, login }))
  await github.close()
  github = await startStandInGitHub({
    ...githubOptions,
    threadComments: [...kept, ...(githubOptions.threadComments ?? [])]
  })
}

function env(eventName: string, payload: object): Record<string, string> {
  return {
    GITHUB_EVENT_NAME: eventName,
    GITHUB_EVENT_PATH: writeEventFile(payload),
    GITHUB_API_URL: github.apiUrl,
    GITHUB_SERVER_URL: SERVER,
    GITHUB_REPOSITORY: REPO,
    GITHUB_RUN_ID: '4711',
    GITHUB_REF_NAME: 'main'
  }
}

function inputs(extra: Record<string, string> = {}): Record<string, string> {
  return {
    projectId: 'docs',
    apiKey: service.apiKey,
    baseUrl: service.url,
    pollInterval: '1s',
    timeout: '10s',
    githubToken: TOKEN,
    context: 'none',
    ...extra
  }
}

function runByHand(extra: Record<string, string> = {}): Promise<ActionRun> {
  return runAction({
    inputs: inputs({ prompt: 'Document the --dry-run flag', ...extra }),
    env: env('workflow_dispatch', { ref: 'refs/heads/main', inputs: {}, repository: { full_name: REPO } })
  })
}

function onComment(body: string, number = AGENT_PR, extra: Record<string, string> = {}): Promise<ActionRun> {
  const event = issueCommentEvent({ body, onPullRequest: true, number })
  return runAction({ inputs: inputs(extra), env: env('issue_comment', event) })
}

const creates = () => service.requests.filter((r) => r.method === 'POST' && /\/job$/.test(r.path))
const messages = () => service.requests.filter((r) => r.method === 'POST' && /\/message$/.test(r.path))
const notes = () => github.comments.filter((c) => c.body.includes('<!-- docs-agent-job: '))
const replies = () => github.comments.filter((c) => !c.body.includes('<!-- docs-agent-job: '))
const notices = (run: ActionRun) => run.stdout.split('\n').filter((line) => line.startsWith('::notice::'))

async function waitFor(what: string, done: () => boolean, ms = 8000): Promise<void> {
  for (let waited = 0; !done(); waited += 20) {
    if (waited > ms) throw new Error(`Waited ${ms} ms for ${what}.`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('the note is signed, and only a note that verifies routes a comment', () => {
  it(
    "with an App token whose reply is refused: no GET /user, the App's own note routes it, a github-actions[bot] marker does not",
    async () => {
      await standIns(OPENS_AGENT_PR, { tokenLogin: 'docs-app[bot]' })
      const jobId = (await runByHand()).outputs.jobId
      expect(notes()).toHaveLength(1)
      const victim = service.seedJob()
      // The run's reply is refused (a secondary rate limit): it cannot tell who the token is.
      await restartGitHub(
        {
          tokenLogin: 'docs-app[bot]',
          faults: { 'comment-create': { status: 403, message: 'You have exceeded a secondary rate limit' } },
          threadComments: [
            { issueNumber: AGENT_PR, login: 'github-actions[bot]', body: `<!-- docs-agent-job: ${victim} -->` }
          ]
        },
        'docs-app[bot]'
      )
      const run = await onComment('/docs also mention that --force never asks')

      expect(github.requests.map((r) => r.pathname)).not.toContain('/user')
      expect(service.requests.some((r) => r.path.includes(victim))).toBe(false)
      expect(creates()).toHaveLength(1)
      expect(messages().map((r) => r.path)).toEqual([`/v2/agent/docs/job/${jobId}/message`])
      expect(run.code).toBe(0)
    },
    SEVERAL_RUNS_MS
  )

  it(
    'a note left for another project is ignored with a notice naming /docs --new and jobId: nothing goes to its job',
    async () => {
      await standIns({ ...OPENS_AGENT_PR, projects: ['docs', 'handbook'] })
      const jobId = (await runByHand()).outputs.jobId
      const run = await onComment('/docs explain the cache', AGENT_PR, { projectId: 'handbook' })

      expect(run.code).toBe(0)
      expect(service.requests.some((r) => r.path.includes(`/handbook/job/${jobId}`))).toBe(false)
      expect(messages()).toHaveLength(0)
      expect(creates().map((r) => r.path)).toEqual(['/v2/agent/docs/job', '/v2/agent/handbook/job'])
      const [notice] = notices(run).filter((line) => line.includes('does not verify'))
      expect(notice).toContain('/docs --new')
      expect(notice).toContain('jobId')
    },
    SEVERAL_RUNS_MS
  )

  it(
    'a note copied to another pull request, or forged, routes nothing',
    async () => {
      await standIns(OPENS_AGENT_PR)
      const jobId = (await runByHand()).outputs.jobId
      const [note] = notes()
      await restartGitHub({
        threadComments: [
          // The action's own note, copied (by a workflow that posts text it is given) to pull request 40.
          { issueNumber: 40, login: 'github-actions[bot]', body: note.body },
          // The note with the last character of its marker changed, and the marker as anyone may write it.
          {
            issueNumber: 41,
            login: 'github-actions[bot]',
            body: note.body.replace(/(<!-- docs-agent-job: .*?)(\w)( -->)/, (_, head, last, tail) =>
              [head, last === 'A' ? 'B' : 'A', tail].join('')
            )
          },
          { issueNumber: 42, login: 'github-actions[bot]', body: `<!-- docs-agent-job: ${jobId} -->` }
        ]
      })
      const copied = await onComment('/docs explain the cache', 40)
      const forged = await onComment('/docs explain the cache', 41)
      const unsigned = await onComment('/docs explain the cache', 42)

      expect([copied.code, forged.code, unsigned.code]).toEqual([0, 0, 0])
      expect(messages()).toHaveLength(0)
      expect(creates()).toHaveLength(4)
      expect(notices(copied).some((line) => line.includes('does not verify'))).toBe(true)
    },
    SEVERAL_RUNS_MS
  )

  it('a note is not written to a pull request outside the repository the job names as its source', async () => {
    await standIns({ plan: { activeReads: 1, prLink: `${SERVER}/someone-else/other/pull/9`, repository: SOURCE } })
    const run = await runByHand()

    expect(run.code).toBe(0)
    expect(github.requests.filter((r) => r.method === 'POST')).toHaveLength(0)
    expect(run.stdout).toMatch(/not in the repository job \S+ names as its source/)
  })
})

describe('replies that always end', () => {
  it('cancelled while the create is slow: the reply is edited at once, saying a job may or may not exist and how to find it', async () => {
    await standIns({ faults: [{ method: 'POST', delayMs: 12_000 }] })
    const event = issueCommentEvent({ body: '/docs check the FAQ', number: 12 })
    const action = startAction({ inputs: inputs(), env: env('issue_comment', event) })
    await waitFor('the create', () => service.requests.length > 0 && github.comments.length > 0)
    action.child.kill('SIGINT')
    await waitFor('the reply to be edited', () => (github.comments[0]?.bodies.length ?? 0) > 1, 3000)
    const run = await action.done

    expect(run.code).toBe(1)
    const [reply] = github.comments
    expect(reply.body).toMatch(/^🛑 /)
    expect(reply.body).toContain('may or may not')
    expect(reply.body).not.toMatch(/On it/)
  }, 20_000)

  it('GitHub slow to answer the first reply: it is found again and edited, not a second comment posted', async () => {
    await standIns({}, { delays: { 'comment-create': { ms: 60_000 } } })
    const event = issueCommentEvent({ body: '/docs check the FAQ', number: 12 })
    const run = await runAction({ inputs: inputs(), env: env('issue_comment', event) })

    expect(run.code).toBe(0)
    expect(replies()).toHaveLength(1)
    expect(replies()[0].body).toMatch(/^✅ /)
  }, 20_000)

  it("the service's pull request link is in a code span, never a live link", async () => {
    await standIns({ plan: { activeReads: 1, prLink: 'https://evil.example/x/y/pull/5' } })
    const event = issueCommentEvent({ body: '/docs check the FAQ', number: 12 })
    const run = await runAction({ inputs: inputs(), env: env('issue_comment', event) })

    expect(run.code).toBe(0)
    const [reply] = github.comments
    expect(reply.body).toContain('`https://evil.example/x/y/pull/5`')
    const outsideCodeSpans = reply.body.replace(/`[^`]*`/g, '')
    expect(outsideCodeSpans).not.toContain('evil.example')
  })

  it(
    'a follow-up refused by an archived job names /docs --new, not an input the commenter never gave',
    async () => {
      await standIns(OPENS_AGENT_PR)
      const jobId = (await runByHand()).outputs.jobId
      const job = service.jobs.get(jobId)!
      job.plan = { activeMs: 0, final: 'archived', prLink: AGENT_PR_LINK, repository: SOURCE }
      const run = await onComment('/docs also mention --force')

      expect(run.code).toBe(1)
      expect(messages()).toHaveLength(1)
      const reply = github.comments.find((c) => !c.body.includes('<!-- docs-agent-job: '))!
      expect(reply.body).toContain('/docs --new')
      expect(reply.body).not.toContain('without jobId')
      expect(run.stdout).toMatch(/::error::.*\/docs --new/)
    },
    SEVERAL_RUNS_MS
  )
})

describe('every timeout holds while garbage collection runs', () => {
  it('a note whose write never answers ends within its bound, with a notice', async () => {
    await standIns(OPENS_AGENT_PR, { faults: { 'comment-create': 'hang' } })
    // Garbage collection every 20 ms, as a busy process might have it: a timer only weakly held is lost.
    const dir = mkdtempSync(join(tmpdir(), 'docs-agent-gc-'))
    const preload = join(dir, 'gc.mjs')
    writeFileSync(preload, 'setInterval(() => globalThis.gc(), 20).unref()\n')
    const action = startAction({
      inputs: inputs({ prompt: 'Document the --dry-run flag' }),
      env: {
        ...env('workflow_dispatch', { ref: 'refs/heads/main', repository: { full_name: REPO } }),
        NODE_OPTIONS: `--expose-gc --import=${preload}`
      }
    })
    const ended = await Promise.race([
      action.done,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 14_000))
    ])
    if (!ended) action.child.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })

    expect(ended).not.toBeNull()
    expect(ended!.code).toBe(0)
    expect(ended!.stdout).toMatch(/::notice::Could not leave a note on pull request #31/)
  }, 20_000)
})
