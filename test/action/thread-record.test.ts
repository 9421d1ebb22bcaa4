// The reply is the thread's record, through the bundled action, on a stand-in GitHub that keeps its
// state across runs: one bot comment per request (each edited as its run goes), the thread's job read
// from its newest verified reply on a thread of any length, the "ask for more" line true after each
// ending, a copy of a reply routing nothing, one request per issue opened with its label, a request
// during the label's job going to that job, a slow first reply edited rather than left, a silent
// GitHub that does not cost the create, and a failed final edit that does not lose the record.
import { afterAll, describe, expect, it } from 'vitest'
import { runAction, startAction, type ActionRun } from '../support/run-action.js'
import {
  issueCommentEvent,
  issuesEvent,
  removeEventFiles,
  startStandInGitHub,
  writeEventFile,
  type IssuesEventOptions,
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
const ISSUE = 12
const CODE_PR = 7
/** The nth job opens pull request 30 + n in this repository. */
const OPENS_PRS: ServiceOptions = {
  plan: (n) => ({ activeReads: 1, prLink: `${SOURCE}/pull/${30 + n}`, repository: SOURCE }),
  messagePlan: { activeReads: 1, prLink: `${SOURCE}/pull/31`, repository: SOURCE }
}
const RECORD = /\n<!-- docs-agent-record: thread [\w-]+ v1\.[\w-]+ -->$/
/** A test of several runs in a row: more than the default on a loaded machine. */
const SEVERAL_RUNS_MS = 60_000

afterAll(removeEventFiles)

interface Stands {
  service: StandInService
  github: StandInGitHub
  label(options?: IssuesEventOptions, extra?: Record<string, string>): Promise<ActionRun>
  comment(body: string, number?: number, extra?: Record<string, string>): Promise<ActionRun>
  startComment(body: string, number?: number): ReturnType<typeof startAction>
  creates(): string[]
  /** The job each follow-up message went to. */
  messagedJobs(): string[]
  /** Every comment on a thread (anyone's), oldest first, and the action's own there. */
  botComments(number: number): { id: number; body: string; bodies: string[] }[]
  close(): Promise<void>
}

async function standIns(
  serviceOptions: ServiceOptions = OPENS_PRS,
  githubOptions: GitHubOptions = {}
): Promise<Stands> {
  const service = await startStandInService(serviceOptions)
  const github = await startStandInGitHub({ permissions: { 'octo-maintainer': 'triage' }, ...githubOptions })
  const inputs = (extra: Record<string, string> = {}) => ({
    projectId: 'docs',
    apiKey: service.apiKey,
    baseUrl: service.url,
    pollInterval: '1s',
    timeout: '20s',
    githubToken: TOKEN,
    context: 'none',
    ...extra
  })
  const env = (eventName: string, payload: object) => ({
    GITHUB_EVENT_NAME: eventName,
    GITHUB_EVENT_PATH: writeEventFile(payload),
    GITHUB_API_URL: github.apiUrl,
    GITHUB_SERVER_URL: SERVER,
    GITHUB_REPOSITORY: REPO,
    GITHUB_RUN_ID: '4711',
    GITHUB_REF_NAME: 'main'
  })
  const commentEvent = (body: string, number: number) =>
    issueCommentEvent({ body, number, onPullRequest: number === CODE_PR })
  return {
    service,
    github,
    label: (options = {}, extra = {}) => runAction({ inputs: inputs(extra), env: env('issues', issuesEvent(options)) }),
    comment: (body, number = ISSUE, extra = {}) =>
      runAction({ inputs: inputs(extra), env: env('issue_comment', commentEvent(body, number)) }),
    startComment: (body, number = ISSUE) =>
      startAction({ inputs: inputs(), env: env('issue_comment', commentEvent(body, number)) }),
    creates: () =>
      service
        .requestsOf('POST')
        .filter((r) => r.path.endsWith('/job'))
        .map((r) => r.path),
    messagedJobs: () =>
      service
        .requestsOf('POST', '/message')
        .map((r) => decodeURIComponent(r.path.replace(/^\/v2\/agent\/docs\/job\/(.*)\/message$/, '$1'))),
    botComments: (number) => github.comments.filter((c) => c.issueNumber === number),
    close: async () => {
      await service.close()
      await github.close()
    }
  }
}

async function waitFor(what: string, ready: () => boolean, ms = 10_000): Promise<void> {
  for (let waited = 0; !ready(); waited += 25) {
    if (waited > ms) throw new Error(`Gave up waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

describe.concurrent('one bot comment per request', () => {
  it.for([
    ['an issue', ISSUE],
    ['a pull request', CODE_PR]
  ] as const)(
    'on %s: three requests, three comments, each edited, each recording its job; the job routed from the reply',
    { timeout: SEVERAL_RUNS_MS },
    async ([, number]) => {
      const s = await standIns()
      try {
        const first = await s.comment('/docs explain the retries', number)
        const second = await s.comment('/docs also the backoff', number)
        const third = await s.comment('/docs --new a page on the cache', number)

        expect([first.code, second.code, third.code]).toEqual([0, 0, 0])
        expect(s.creates()).toHaveLength(2)
        expect(s.messagedJobs()).toEqual([first.outputs.jobId])
        expect(second.stdout).toContain(`keeps job ${first.outputs.jobId} (from the action's signed record there)`)
        const comments = s.botComments(number)
        expect(comments).toHaveLength(3)
        for (const comment of comments) {
          expect(comment.bodies.length).toBeGreaterThan(1)
          expect(comment.bodies[0]).toMatch(/^👀 On it/)
          expect(comment.body).toMatch(RECORD)
        }
        expect(comments[1].body).toMatch(/^✅ Job `[^`]+` completed the follow-up/)
        // The newest reply names the thread's job from then on.
        await s.comment('/docs and link it from the FAQ', number)
        expect(s.messagedJobs()).toEqual([first.outputs.jobId, third.outputs.jobId])
        expect(s.botComments(number)).toHaveLength(4)
      } finally {
        await s.close()
      }
    }
  )

  it(
    "on a thread of 520 comments: the reply's record is found on the newest page, read second",
    async () => {
      const chatter = Array.from({ length: 520 }, (_, i) => ({
        issueNumber: ISSUE,
        login: 'someone',
        body: `comment ${i}`
      }))
      const s = await standIns(OPENS_PRS, { threadComments: chatter })
      try {
        const first = await s.comment('/docs explain the retries')
        const reads = s.github.threadReads.length
        const second = await s.comment('/docs also the backoff')

        expect(second.code).toBe(0)
        expect(s.creates()).toHaveLength(1)
        expect(s.messagedJobs()).toEqual([first.outputs.jobId])
        // Page 1 says the last is 6; the reply is there.
        const pages = s.github.threadReads
          .slice(reads)
          .filter((r) => r.pathname.endsWith(`/issues/${ISSUE}/comments`))
          .map((r) => r.query.page)
        expect(pages).toEqual(['1', '6'])
      } finally {
        await s.close()
      }
    },
    SEVERAL_RUNS_MS
  )
})

describe.concurrent('the "ask for more" line, true after each ending', () => {
  const endings = [
    {
      name: 'completed with a pull request',
      plan: { activeReads: 1, prLink: `${SOURCE}/pull/31`, repository: SOURCE },
      line: 'To ask for more, comment `/docs <what to change>` here: it goes to this job while its pull request is open.',
      next: 'message'
    },
    {
      name: 'completed with no changes',
      plan: { activeReads: 1, prLink: null, repository: SOURCE },
      line: 'To ask again, comment `/docs <instruction>` here: it starts a new job (this one opened no pull request).',
      next: 'create'
    },
    {
      name: 'failed',
      plan: { activeReads: 1, final: 'failed', prLink: null, repository: SOURCE },
      line: 'To ask again, comment `/docs <instruction>` here: it starts a new job (this one failed).',
      next: 'create'
    },
    {
      name: 'timed out',
      plan: { activeMs: 600_000, repository: SOURCE },
      line: 'To ask for more, comment `/docs <what to change>` here: it goes to this job while it works or its pull request is open.',
      next: 'message'
    }
  ] as const

  it.for(endings)(
    '$name: the reply says what the next request does, and it does that',
    { timeout: SEVERAL_RUNS_MS },
    async ({ name, plan, line, next }) => {
      const later = { activeReads: 1, prLink: `${SOURCE}/pull/32`, repository: SOURCE }
      const s = await standIns({
        plan: (n) => (n === 1 ? plan : later),
        messagePlan: { activeReads: 1, repository: SOURCE }
      })
      try {
        const timeout: Record<string, string> = name === 'timed out' ? { timeout: '5s' } : {}
        const first = await s.comment('/docs explain the retries', ISSUE, timeout)
        const [reply] = s.botComments(ISSUE)
        expect(reply.body).toContain(`\n\n${line}`)
        // Never a step only the workflow's author can take, but for a job handed over where no reporting
        // run is known: how to get its ending instead is said in the reply as in the summary.
        if (name !== 'timed out') expect(reply.body).not.toMatch(/jobId|run this action/)
        if (name === 'timed out') {
          const next =
            'No reporting run has recorded itself in this repository yet, so nothing will tell its ending: add the ' +
            'report-later workflow (examples/workflows/report-later.yml, with report: pending), or follow the job with a ' +
            'run of this action given its id as jobId and no prompt.'
          expect(reply.body).toContain(next)
          expect(first.summary.replaceAll('&#39;', "'")).toContain(next)
        }

        const second = await s.comment('/docs and the backoff')
        expect(second.code).toBe(0)
        if (next === 'message') {
          expect(s.creates()).toHaveLength(1)
          expect(s.messagedJobs()).toEqual([first.outputs.jobId])
        } else {
          expect(s.creates()).toHaveLength(2)
          expect(s.messagedJobs()).toEqual([])
          // A failed job, or one with no changes, is never named as the thread's job again.
          expect(s.botComments(ISSUE)[1].body).not.toContain(first.outputs.jobId)
        }
      } finally {
        await s.close()
      }
    }
  )
})

describe.concurrent('only the comments the action wrote count', () => {
  it(
    "an outsider's re-posted copy of an older reply routes nothing, and is never edited",
    async () => {
      const s = await standIns()
      try {
        const first = await s.comment('/docs explain the retries')
        const jobA = first.outputs.jobId
        const second = await s.comment('/docs --new a page on the cache')
        const jobB = second.outputs.jobId
        // Someone re-posts, word for word, what the action wrote naming job A, below job B's reply.
        const copies = s.github.comments
          .filter((c) => c.issueNumber === ISSUE && c.body.includes(jobA) && c.body.includes('<!-- docs-agent-'))
          .map((c) => s.github.addComment({ issueNumber: ISSUE, body: c.body, login: 'drive-by' }))
        expect(copies.length).toBeGreaterThan(0)

        const third = await s.comment('/docs and link it from the FAQ')
        expect(third.code).toBe(0)
        expect(s.messagedJobs()).toEqual([jobB])
        const outsiders = s.github.threadComments(ISSUE).filter((c) => copies.includes(c.id))
        expect(outsiders.every((c) => c.bodies.length === 1)).toBe(true)
        expect(s.github.requests.filter((r) => copies.some((id) => r.path.endsWith(`/comments/${id}`)))).toEqual([])
      } finally {
        await s.close()
      }
    },
    SEVERAL_RUNS_MS
  )
})

describe.concurrent('one request per issue', () => {
  it(
    'an issue opened with its label (GitHub sends opened, then labeled): one job, one comment, and the second run says why',
    async () => {
      const s = await standIns()
      try {
        const opened = await s.label({ action: 'opened', author: 'octo-maintainer', authorAssociation: 'MEMBER' })
        const labelled = await s.label({ action: 'labeled', author: 'octo-maintainer', authorAssociation: 'MEMBER' })

        expect([opened.code, labelled.code]).toEqual([0, 0])
        expect(s.service.requestsOf('POST')).toHaveLength(1)
        expect(s.botComments(ISSUE)).toHaveLength(1)
        expect(labelled.stdout).toContain(
          `::notice::The issue #12 already asked job ${opened.outputs.jobId} for this same text`
        )
        expect(s.github.reactions).toHaveLength(1)
      } finally {
        await s.close()
      }
    },
    SEVERAL_RUNS_MS
  )

  it(
    "a /docs comment while the label's job still works goes to that job: the thread recorded it at the create",
    async () => {
      const s = await standIns({
        plan: { activeMs: 4000, prLink: `${SOURCE}/pull/31`, repository: SOURCE },
        messagePlan: { activeReads: 1, prLink: `${SOURCE}/pull/31`, repository: SOURCE }
      })
      try {
        const labelRun = startAction({
          inputs: {
            projectId: 'docs',
            apiKey: s.service.apiKey,
            baseUrl: s.service.url,
            pollInterval: '1s',
            timeout: '20s',
            githubToken: TOKEN,
            context: 'none'
          },
          env: {
            GITHUB_EVENT_NAME: 'issues',
            GITHUB_EVENT_PATH: writeEventFile(issuesEvent({})),
            GITHUB_API_URL: s.github.apiUrl,
            GITHUB_SERVER_URL: SERVER,
            GITHUB_REPOSITORY: REPO,
            GITHUB_RUN_ID: '4711',
            GITHUB_REF_NAME: 'main'
          }
        })
        await waitFor('the label run to show its job', () =>
          (s.botComments(ISSUE)[0]?.bodies ?? []).some((b) => b.startsWith('⏳ Job'))
        )
        const during = await s.comment('/docs also the backoff')
        const label = await labelRun.done

        expect([label.code, during.code]).toEqual([0, 0])
        expect(s.creates()).toHaveLength(1)
        expect(s.messagedJobs()).toEqual([label.outputs.jobId])
        expect(s.botComments(ISSUE)).toHaveLength(2)
      } finally {
        await s.close()
      }
    },
    SEVERAL_RUNS_MS
  )
})

describe.concurrent('GitHub slow, silent or failing', () => {
  it(
    'a first reply GitHub made but answered for after its bound: found by its marker and given the record before the end, never a second comment',
    async () => {
      const s = await standIns(
        { plan: { activeMs: 13_000, prLink: `${SOURCE}/pull/31`, repository: SOURCE } },
        { delays: { 'comment-create': { ms: 60_000 } } }
      )
      try {
        const run = await s.comment('/docs explain the retries')

        expect(run.code).toBe(0)
        const comments = s.botComments(ISSUE)
        expect(comments).toHaveLength(1)
        const [reply] = comments
        expect(reply.body).toMatch(/^✅ /)
        // The job was recorded while it worked, on the comment found again, before the ending.
        expect(reply.bodies.slice(1, -1).some((b) => b.startsWith('⏳ Job') && RECORD.test(b))).toBe(true)
      } finally {
        await s.close()
      }
    },
    SEVERAL_RUNS_MS
  )

  it(
    "a first reply looked up by its marker is never another author's comment that holds the marker",
    async () => {
      const s = await standIns(
        { plan: { activeMs: 13_000, prLink: `${SOURCE}/pull/31`, repository: SOURCE } },
        {
          delays: { 'comment-create': { ms: 60_000 } },
          threadComments: [{ issueNumber: ISSUE, login: 'drive-by', body: 'An older comment of mine.' }]
        }
      )
      try {
        const [theirs] = s.github.threadComments(ISSUE)
        const action = s.startComment('/docs explain the retries')
        await waitFor('the first reply', () => s.botComments(ISSUE).length > 0)
        // The outsider edits their older comment to hold the reply's hidden marker, as soon as it shows.
        const marker = /<!-- docs-agent-reply: [\w-]+ -->/.exec(s.botComments(ISSUE)[0].bodies[0])?.[0]
        expect(marker).toBeDefined()
        const edited = await fetch(`${s.github.apiUrl}/repos/${REPO}/issues/comments/${theirs.id}`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ body: `Mine now.\n${marker}` })
        })
        expect(edited.status).toBe(200)
        const run = await action.done

        expect(run.code).toBe(0)
        // Theirs holds only what they wrote; the action's own reply says how the run ended.
        expect(s.github.threadComments(ISSUE).find((c) => c.id === theirs.id)?.bodies).toEqual([
          'An older comment of mine.',
          `Mine now.\n${marker}`
        ])
        expect(s.botComments(ISSUE)).toHaveLength(1)
        expect(s.botComments(ISSUE)[0].body).toMatch(/^✅ /)
      } finally {
        await s.close()
      }
    },
    SEVERAL_RUNS_MS
  )

  it('GitHub silent on the thread: the create goes out within a 3 s timeout, and the run says it could not see the earlier job', async () => {
    const s = await standIns({ plan: { activeReads: 0, repository: SOURCE } }, { faults: { 'comment-list': 'hang' } })
    try {
      const run = await s.comment('/docs explain the retries', ISSUE, { timeout: '3s' })

      expect(s.creates()).toHaveLength(1)
      expect(run.code).toBe(0)
      expect(run.stdout).toMatch(
        /::warning::Could not see issue #12's earlier job: GitHub did not answer within [\d.]+s, the most reading the thread may hold up the create/
      )
      expect(run.stdout).not.toContain('the timeout ran out before the create')
    } finally {
      await s.close()
    }
  }, 30_000)

  it(
    'the final edit failing once is tried again; failing for good, a warning says what the next request does, and the record made at the create routes it',
    async () => {
      const finalEdit = (req: { body?: { body?: unknown } }) => String(req.body?.body ?? '').startsWith('✅')
      const once = await standIns(OPENS_PRS, {
        faults: { 'comment-update': { status: 502, message: 'Bad gateway', when: finalEdit, times: 1 } }
      })
      try {
        const run = await once.comment('/docs explain the retries')
        expect(run.code).toBe(0)
        expect(once.botComments(ISSUE)[0].body).toMatch(/^✅ /)
      } finally {
        await once.close()
      }

      const always = await standIns(OPENS_PRS, {
        faults: { 'comment-update': { status: 502, message: 'Bad gateway', when: finalEdit } }
      })
      try {
        const run = await always.comment('/docs explain the retries')
        expect(run.code).toBe(0)
        expect(run.stdout).toContain(
          `::warning::Could not give the reply on the issue #12 the run's ending. It may still record job ${run.outputs.jobId} as it was when the job was created: a later /docs there then goes to that job`
        )
        const next = await always.comment('/docs also the backoff')
        expect(next.code).toBe(0)
        expect(always.messagedJobs()).toEqual([run.outputs.jobId])
      } finally {
        await always.close()
      }
    },
    SEVERAL_RUNS_MS
  )
})
