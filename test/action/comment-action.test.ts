// Comment-triggered runs of the bundled action, as the runner starts them on an issue_comment
// event: the event payload in GITHUB_EVENT_PATH, the stand-in service for the job, and a stand-in
// GitHub API (GITHUB_API_URL) for the reaction and the replies on the thread.
import http from 'node:http'
import net from 'node:net'
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { ACTION_ENTRY, runAction, startAction, withoutMaskCommands } from '../support/run-action.js'
import {
  changedFile,
  issueCommentEvent,
  removeEventFiles,
  startStandInGitHub,
  writeEventFile,
  type CommentEventOptions,
  type StandInGitHub
} from '../support/stand-in-github.js'
import { startStandInService, type StandInService } from '../support/stand-in-service.js'

const TOKEN = 'ghs_stand_in_token_0123456789'
const SERVER = 'https://github.example'
const REPO = 'octo-org/docs-site'
const RUN_LINK = `${SERVER}/${REPO}/actions/runs/4711`
const ASKED_ON_ISSUE_12 = `Event: @octo-maintainer asked this in a comment on issue #12 "Retries are not documented" (${SERVER}/${REPO}/issues/12).`

let service: StandInService
let github: StandInGitHub
afterEach(async () => {
  await service?.close()
  await github?.close()
})
afterAll(removeEventFiles)

interface CommentRun {
  event: CommentEventOptions
  inputs?: Record<string, string>
  env?: Record<string, string>
  entry?: string
}

function runOnComment(options: CommentRun) {
  return runAction(commentRunOptions(options))
}

function commentRunOptions({ event, inputs = {}, env = {}, entry }: CommentRun) {
  return {
    entry,
    inputs: {
      projectId: 'docs',
      apiKey: service.apiKey,
      baseUrl: service.url,
      pollInterval: '1s',
      timeout: '10s',
      githubToken: TOKEN,
      ...inputs
    },
    env: {
      GITHUB_EVENT_NAME: 'issue_comment',
      GITHUB_EVENT_PATH: writeEventFile(issueCommentEvent(event)),
      GITHUB_API_URL: github.apiUrl,
      GITHUB_SERVER_URL: SERVER,
      GITHUB_REPOSITORY: REPO,
      GITHUB_RUN_ID: '4711',
      ...env
    }
  }
}

/** The marker of the note that names the thread's job (report/thread-note.ts), left once the job exists. */
const NOTE = '<!-- docs-agent-job: '
const replies = () => github.comments.filter((c) => !c.body.includes(NOTE))

/**
 * One reply posted, then only edits of it: the requests GitHub got, without the reads of the thread
 * and the note naming the job.
 */
function expectOneReplyEdited(): void {
  const writes = github.requests
    .filter((r) => r.method !== 'GET' && !String(r.body?.body).includes(NOTE))
    .map((r) => `${r.method} ${r.path}`)
  const [reply] = replies()
  expect(replies()).toHaveLength(1)
  expect(writes.slice(0, 2)).toEqual([
    `POST /repos/${REPO}/issues/comments/4242/reactions`,
    `POST /repos/${REPO}/issues/12/comments`
  ])
  expect(writes.length).toBeGreaterThan(2)
  expect(writes.slice(2).every((w) => w === `PATCH /repos/${REPO}/issues/comments/${reply.id}`)).toBe(true)
}

function promptsSent(): string[] {
  return service.requestsOf('POST').map((r) => JSON.parse(r.body).prompt)
}

describe('a trusted comment', () => {
  it('sends the text after the trigger with the thread as context, reacts, replies, and updates the reply with the pull request', async () => {
    service = await startStandInService({ plan: { activeMs: 200 } })
    github = await startStandInGitHub()
    const run = await runOnComment({
      event: { body: '/docs explain the retry policy in the FAQ', number: 12, title: 'Retries are not documented' }
    })

    expect(run.code).toBe(0)
    // The instruction, then the context section, which says who asked it where.
    const [prompt] = promptsSent()
    expect(promptsSent()).toHaveLength(1)
    expect(prompt.startsWith('explain the retry policy in the FAQ\n\nContext: information about the repository')).toBe(
      true
    )
    expect(prompt.endsWith(ASKED_ON_ISSUE_12)).toBe(true)
    expect(github.reactions).toEqual([{ commentId: 4242, content: 'eyes' }])
    const [reply] = replies()
    expect(replies()).toHaveLength(1)
    expect(reply.issueNumber).toBe(12)
    expect(reply.bodies[0]).toContain(`[Follow the workflow run](${RUN_LINK})`)
    const { jobId, prLink } = run.outputs
    // On another GitHub than the workflow's (github.example), the link stays a code span, and says where it is live.
    expect(
      reply.body.startsWith(
        `✅ Job \`${jobId}\` opened a pull request: \`${prLink}\` (a link in the workflow run's summary)\n\n` +
          'Review the pull request, and merge it when it is right.\n\n' +
          'To ask for more, comment `/docs <what to change>` here: it goes to this job while its pull ' +
          'request is open. `/docs --new <instruction>` starts a new job instead.\n\nTook '
      )
    ).toBe(true)
    expect(reply.body).toMatch(/\n\nTook [\d.]+m?s · /)
    // Then, hidden, the thread's record of its job, signed for this reply.
    const [visible, record] = reply.body.split('\n<!-- docs-agent-record: thread ')
    expect(visible.endsWith(`· [Workflow run](${RUN_LINK})`)).toBe(true)
    expect(record).toMatch(/^[\w-]+ v1\.[\w-]+ -->$/)
    expectOneReplyEdited()
    // Octokit's writes, and the bounded reads of the thread (for the note naming its job).
    expect(
      github.requests.every(
        (r) => r.headers.authorization === (r.method === 'GET' ? `Bearer ${TOKEN}` : `token ${TOKEN}`)
      )
    ).toBe(true)
    expect(github.requests.find((r) => r.method !== 'GET')?.headers['user-agent']).toMatch(
      /^docs-agent-job-action\/\d+\.\d+\.\d+ /
    )
    // The summary shows the prompt as given, and the context sent with it, folded.
    expect(run.summary).toContain('<blockquote>explain the retry policy in the FAQ</blockquote>')
    expect(run.summary).toMatch(/<details><summary>Context sent after the prompt \([\d,]+ characters\)<\/summary><pre>/)
    expect(run.summary).toContain('Event: @octo-maintainer asked this in a comment on issue #12')
  })

  it('on a pull request, says so in the prompt and links the pull request', async () => {
    service = await startStandInService({ plan: { activeMs: 100 } })
    github = await startStandInGitHub({ repository: { pullFiles: { 31: [changedFile('src/cli.ts')] } } })
    const run = await runOnComment({
      event: {
        body: '/docs document the new flag from this change',
        onPullRequest: true,
        number: 31,
        title: 'Add --dry-run'
      }
    })

    expect(run.code).toBe(0)
    const [prompt] = promptsSent()
    expect(prompt.startsWith('document the new flag from this change\n\nContext:')).toBe(true)
    expect(prompt).toContain(
      `Event: @octo-maintainer asked this in a comment on pull request #31 "Add --dry-run" (${SERVER}/${REPO}/pull/31).`
    )
    // On a pull request, the context lists its changed files too.
    expect(prompt).toContain('- `src/cli.ts` modified, +3 -1')
    expect(run.stdout).not.toContain('::warning')
    expect(replies().map((c) => c.issueNumber)).toEqual([31])
  })

  it('works on GitHub Enterprise Server: API calls under GITHUB_API_URL, links on GITHUB_SERVER_URL', async () => {
    service = await startStandInService({ plan: { activeMs: 100 } })
    github = await startStandInGitHub({ basePath: '/api/v3' })
    const ghes = 'https://ghe.example.com'
    const run = await runOnComment({ event: { body: '/docs explain it' }, env: { GITHUB_SERVER_URL: ghes } })

    expect(run.code).toBe(0)
    expectOneReplyEdited()
    expect(github.reactions).toHaveLength(1)
    expect(promptsSent()[0]).toContain(`(${ghes}/${REPO}/issues/12).`)
    expect(github.comments[0].body).toContain(`[Workflow run](${ghes}/${REPO}/actions/runs/4711)`)
  })

  it('accepts a custom trigger and associations', async () => {
    service = await startStandInService({ plan: { activeMs: 100 } })
    github = await startStandInGitHub()
    const run = await runOnComment({
      event: { body: '/explain the cache settings', association: 'CONTRIBUTOR' },
      inputs: { trigger: '/explain', allowedAssociations: 'MEMBER, CONTRIBUTOR' }
    })

    expect(run.code).toBe(0)
    expect(promptsSent()[0]).toMatch(/^the cache settings\n\nContext:/)
  })

  it('never prints the GitHub token', async () => {
    service = await startStandInService({ plan: { activeMs: 100 } })
    github = await startStandInGitHub({ failAll: { status: 401, message: `Bad credentials ${TOKEN}` } })
    const run = await runOnComment({ event: { body: '/docs explain it' }, env: { RUNNER_DEBUG: '1' } })

    expect(run.stdout).toContain(`::add-mask::${TOKEN}`)
    expect(withoutMaskCommands(run.all)).not.toContain(TOKEN)
  })
})

describe('the reply says how the job ended', () => {
  it('no changes: a completed job without a pull request', async () => {
    service = await startStandInService({ plan: { activeMs: 100, prLink: null } })
    github = await startStandInGitHub()
    const run = await runOnComment({ event: { body: '/docs check the FAQ' } })

    expect(run.code).toBe(0)
    expect(github.comments[0].body).toMatch(/^☑️ Job `job_1_\w+` completed without a pull request/)
  })

  it('failed: the job failed, and so does the step', async () => {
    service = await startStandInService({ plan: { activeMs: 100, final: 'failed' } })
    github = await startStandInGitHub()
    const run = await runOnComment({ event: { body: '/docs check the FAQ' } })

    expect(run.code).toBe(1)
    expect(github.comments[0].body).toMatch(/^❌ Job `job_1_\w+` failed/)
  })

  it('timed out: the job keeps running, and the step fails', async () => {
    service = await startStandInService({ plan: { activeMs: 60_000 } })
    github = await startStandInGitHub()
    // Long enough for the reaction, the thread's context and the create on a busy machine too: the
    // job must exist when the timeout runs out (at 500 ms, or 1.5 s on a shared 2-core machine, the
    // create could still be on its way).
    const run = await runOnComment({
      event: { body: '/docs check the FAQ' },
      inputs: { timeout: '4s' }
    })

    expect(run.code).toBe(1)
    expect(github.comments[0].body).toMatch(
      /^⏱️ Job `job_1_\w+` was still `active` when the run's timeout \(4\.0s\) ran out\. It keeps running on the service/
    )
  })

  it('cancelled: the reply names the job that keeps running', async () => {
    service = await startStandInService({ plan: { activeMs: 60_000 } })
    github = await startStandInGitHub()
    let stdout = ''
    const action = startAction({
      ...commentRunOptions({ event: { body: '/docs check the FAQ' } }),
      onStdout: (chunk) => (stdout += chunk)
    })
    // Cancelled once the job exists and the first reply is on the thread.
    for (
      let waited = 0;
      !(stdout.includes('Replied on the issue #12') && stdout.includes('Created job'));
      waited += 20
    ) {
      if (waited > 5000) throw new Error(`The run never got going:\n${stdout}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    action.child.kill('SIGINT')
    const run = await action.done

    expect(run.code).toBe(1)
    expect(github.comments[0].body).toMatch(
      /^🛑 The workflow run was cancelled\. Job `job_1_\w+` keeps running on the service/
    )
  })

  it('failed before a job: an input error is told on the thread too', async () => {
    service = await startStandInService()
    github = await startStandInGitHub()
    const run = await runOnComment({ event: { body: '/docs check the FAQ' }, inputs: { projectId: '' } })

    expect(run.code).toBe(1)
    expect(service.requests).toHaveLength(0)
    expect(github.comments[0].body).toMatch(/^❌ The run failed and no job was started/)
  })

  it.for([
    ['a 502 after the service made the job', { method: 'POST', status: 502, body: 'Bad gateway', afterCreate: true }],
    ['a reset after the service made the job', { method: 'POST', drop: 'reset', afterCreate: true }]
  ] as const)('a create whose answer was lost (%s): the thread is told a job may exist', async ([, fault]) => {
    service = await startStandInService({ faults: [fault] })
    github = await startStandInGitHub()
    const run = await runOnComment({ event: { body: '/docs check the FAQ' } })

    expect(run.code).toBe(1)
    expect(service.jobs.size).toBe(1)
    expect(service.requestsOf('POST')).toHaveLength(1)
    const [reply] = github.comments
    expect(reply.body).not.toMatch(/no job was started/)
    expect(reply.body).toMatch(
      /^❌ The service's answer to the create was lost, so the job may or may not have been created\./
    )
    expect(reply.body).toContain("Check the project's jobs before asking again")
  })
})

describe('comments that start nothing', () => {
  const cases: [string, CommentEventOptions, RegExp][] = [
    [
      'an untrusted author',
      { body: '/docs rewrite everything', association: 'NONE', login: 'drive-by' },
      /::notice::The comment by drive-by starts with \/docs, but their association with the repository is NONE, which is not in allowedAssociations/
    ],
    [
      'a first-time contributor',
      { body: '/docs x', association: 'FIRST_TIME_CONTRIBUTOR' },
      /association with the repository is FIRST_TIME_CONTRIBUTOR, which is not in/
    ],
    [
      'a bot, even with an allowed association',
      { body: '/docs x', userType: 'Bot', login: 'github-actions[bot]', association: 'OWNER' },
      /::notice::The comment is by a bot \(github-actions\[bot\]\)/
    ],
    [
      'a comment without the trigger',
      { body: 'Thanks, this looks good' },
      /::notice::The comment does not start with \/docs: it starts nothing\./
    ],
    [
      'an edited comment',
      { body: '/docs explain it', action: 'edited' },
      /::notice::The comment was edited, not created: only a new comment starts a job/
    ],
    [
      'a trigger with nothing after it',
      { body: '/docs   ' },
      /::notice::The comment by octo-maintainer has nothing after \/docs/
    ]
  ]
  it.each(cases)('%s: the step succeeds with a notice; no job, no reaction, no reply', async (_name, event, notice) => {
    service = await startStandInService()
    github = await startStandInGitHub()
    const run = await runOnComment({ event })

    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(notice)
    expect(service.requests).toHaveLength(0)
    expect(github.requests).toHaveLength(0)
    expect(run.outputs).toEqual({})
  })

  it('an allowedAssociations that is not a list of associations fails the step', async () => {
    service = await startStandInService()
    github = await startStandInGitHub()
    const run = await runOnComment({ event: { body: '/docs x' }, inputs: { allowedAssociations: 'OWNER,MAINTAINERS' } })

    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(
      /::error::Input allowedAssociations is 'OWNER,MAINTAINERS', and MAINTAINERS is not an author association/
    )
    expect(service.requests).toHaveLength(0)
  })
})

describe('GitHub trouble never changes the outcome', () => {
  it('a token that may not write: warnings, and the job is followed to its pull request all the same', async () => {
    service = await startStandInService({ plan: { activeMs: 100 } })
    github = await startStandInGitHub({ failAll: { status: 403, message: 'Resource not accessible by integration' } })
    const run = await runOnComment({ event: { body: '/docs explain it' } })

    expect(run.code).toBe(0)
    expect(run.outputs.status).toBe('completed')
    expect(run.outputs.prLink).toMatch(/^https:/)
    expect(run.stdout).toMatch(
      /::warning::Could not react to the comment on the issue #12: HTTP 403 \(Resource not accessible by integration.*"issues: write" and "pull-requests: write"/
    )
    // No reply was made, so the outcome is tried as a new reply (beside the note naming the job, refused too).
    const posts = github.requests.filter((r) => r.method === 'POST' && !String(r.body?.body).includes(NOTE))
    expect(posts.map((r) => r.path)).toEqual([
      `/repos/${REPO}/issues/comments/4242/reactions`,
      `/repos/${REPO}/issues/12/comments`,
      `/repos/${REPO}/issues/12/comments`
    ])
    expect(posts[2].body.body).toMatch(/^✅ Job/)
    expect(github.requests.filter((r) => r.method === 'PATCH')).toHaveLength(0)
    expect(run.stdout).not.toContain('::error::')
  })

  it('an API that is not there: warnings, and the job is followed all the same', async () => {
    service = await startStandInService({ plan: { activeMs: 100 } })
    github = await startStandInGitHub()
    const apiUrl = github.apiUrl
    await github.close()
    const run = await runOnComment({ event: { body: '/docs explain it' }, env: { GITHUB_API_URL: apiUrl } })

    expect(run.code).toBe(0)
    expect(run.outputs.status).toBe('completed')
    expect(run.stdout).toMatch(
      /::warning::Could not reply on the issue #12: no answer from GitHub \(.+\)\. The job is not affected\./
    )
  })

  it('an empty githubToken: one warning, no GitHub call, and the job runs', async () => {
    service = await startStandInService({ plan: { activeMs: 100 } })
    github = await startStandInGitHub()
    const run = await runOnComment({ event: { body: '/docs explain it' }, inputs: { githubToken: '' } })

    expect(run.code).toBe(0)
    expect(service.requestsOf('POST')).toHaveLength(1)
    expect(github.requests).toHaveLength(0)
    expect(run.stdout).toContain(
      '::warning::githubToken is empty: no reaction or reply on the issue #12. The job runs all the same.'
    )
  })
})

describe('the GitHub client', () => {
  it('goes through the proxy the runner names, like every other request', async () => {
    service = await startStandInService({ plan: { activeMs: 100 } })
    github = await startStandInGitHub()
    // A proxy that tunnels every CONNECT to the stand-in, whatever host it names: the API's host
    // is not a loopback name, so the client does not bypass the proxy for it.
    const tunnels: string[] = []
    const proxy = http.createServer((_req, res) => res.writeHead(502).end())
    proxy.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
      tunnels.push(req.url ?? '')
      const upstream = net.connect(github.port, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
        upstream.write(head)
        upstream.pipe(client).on('error', () => {})
        client.pipe(upstream).on('error', () => {})
      })
      upstream.on('error', () => client.destroy())
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    try {
      const proxyUrl = `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`
      const run = await runOnComment({
        event: { body: '/docs explain it' },
        env: { GITHUB_API_URL: `http://api.github.test:${github.port}`, http_proxy: proxyUrl, NO_PROXY: '127.0.0.1' }
      })

      expect(run.code).toBe(0)
      expectOneReplyEdited()
      expect(tunnels.length).toBeGreaterThan(0)
      expect(tunnels.every((target) => target === `api.github.test:${github.port}`)).toBe(true)
    } finally {
      proxy.closeAllConnections()
      await new Promise((resolve) => proxy.close(resolve))
    }
  })

  it('is loaded only in comment-triggered runs: without its chunk, other runs work and a comment run warns', async () => {
    service = await startStandInService({ plan: { activeMs: 100 } })
    github = await startStandInGitHub()
    // The bundle without the chunk that holds @actions/github (the one with Octokit's class); the
    // other chunks stay, as a push run with a context loads the context's readers from one.
    const dir = mkdtempSync(join(tmpdir(), 'docs-agent-entry-'))
    try {
      const entry = join(dir, 'index.js')
      const built = dirname(ACTION_ENTRY)
      const copied = readdirSync(built).filter(
        (name) => !name.endsWith('.js') || !/\bclass Octokit\b/.test(readFileSync(join(built, name), 'utf8'))
      )
      expect(copied).toContain('index.js')
      expect(readdirSync(built).length - copied.length).toBe(1)
      for (const name of copied) copyFileSync(join(built, name), join(dir, name))

      const ordinary = await runOnComment({
        event: { body: 'n/a' },
        entry,
        env: { GITHUB_EVENT_NAME: 'push' },
        inputs: { prompt: 'Document the flag' }
      })
      expect(ordinary.code).toBe(0)
      expect(ordinary.stdout).not.toContain('::warning::')

      const fromComment = await runOnComment({ event: { body: '/docs explain it' }, entry })
      expect(fromComment.code).toBe(0)
      expect(fromComment.outputs.status).toBe('completed')
      expect(fromComment.stdout).toMatch(
        /::warning::Could not load the GitHub client: Cannot find module .+\. The job is not affected\./
      )
      // Only the bounded reads of the thread (for its job's note), which need no client.
      expect(github.requests.filter((r) => r.method !== 'GET')).toHaveLength(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('an issue_comment run with a prompt input', () => {
  it('is an ordinary run: the prompt is sent as given, and the thread is left alone', async () => {
    service = await startStandInService({ plan: { activeMs: 100 } })
    github = await startStandInGitHub()
    const run = await runOnComment({
      event: { body: '/docs something else', association: 'NONE' },
      inputs: { prompt: 'Refresh the API reference' }
    })

    expect(run.code).toBe(0)
    const [prompt] = promptsSent()
    expect(prompt.startsWith('Refresh the API reference\n\nContext:')).toBe(true)
    expect(prompt).toContain('Event: a comment by @octo-maintainer on issue #12')
    expect(github.requests).toHaveLength(0)
  })
})
