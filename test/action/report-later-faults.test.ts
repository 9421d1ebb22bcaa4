// Report later when GitHub fails a write, through the bundled action against the stand-ins, GitHub's
// state kept across runs: a record is marked final only once every write its telling needs succeeded
// (a 502 on the commit status or on the reply's edit leaves it open, and the next reporting run
// completes it); a write GitHub made before answering 502 is read back or found again, never made
// twice (the status, the first reply, the record at hand-over); a hand-over whose record could not be
// written promises no ending on its reply; a told job whose pull request is open stays the thread's
// job; and a cancelled reporting run says so in its own words and gives up its claim.
import { describe, expect, it } from 'vitest'
import { runAction, startAction, type ActionRun } from '../support/run-action.js'
import {
  commitId,
  pullRequestEvent,
  runnerEnvironment,
  workflowDispatchEvent,
  type RecordedRequest,
  type StandInGitHub
} from '../support/stand-in-github.js'
import type { StandInService } from '../support/stand-in-service.js'
import {
  AGENT_PR,
  AGENT_PR_LINK,
  commentEnv,
  commentInputs,
  LONG_TEST_MS,
  REPO,
  SERVER,
  SOURCE,
  standIn,
  standInGitHub
} from '../support/ending-runs.js'

const INDEX_LABEL = 'docs-agent:jobs'
/** A job that works until the test says it ended (finish); a message to it is taken and ends at once. */
const WORKS_ON = {
  plan: { activeReads: 1_000_000, prLink: AGENT_PR_LINK, repository: SOURCE },
  messagePlan: { activeReads: 1, prLink: AGENT_PR_LINK, repository: SOURCE }
}
const HEAD = commitId('pr-head')
const PROMISED =
  "Nothing to do: the repository's reporting run (report: pending) tells its ending where it was asked for, once it reads the job."
const SEVERAL_RUNS_MS = 2 * LONG_TEST_MS
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const GITHUB_502 = { status: 502, message: 'Server Error' }

function finish(service: StandInService, jobId: string): void {
  const job = service.jobs.get(jobId)
  if (!job) throw new Error(`no job ${jobId}`)
  job.plan = { ...job.plan, activeReads: 0, final: 'completed' }
}

const reportInputs = (service: StandInService) => ({ report: 'pending', ...commentInputs(service) })

function reportEnv(github: StandInGitHub, runId: string): Record<string, string> {
  return runnerEnvironment(github, 'schedule', workflowDispatchEvent(), {
    GITHUB_SERVER_URL: SERVER,
    GITHUB_RUN_ID: runId
  })
}

const report = (service: StandInService, github: StandInGitHub, runId: string) =>
  runAction({ inputs: reportInputs(service), env: reportEnv(github, runId) })

/**
 * The repository's reporting workflow runs once before the hand-over, as where report-later.yml is
 * installed: it records itself in the index, so a hand-over's reply promises the ending.
 */
async function installReporter(service: StandInService, github: StandInGitHub): Promise<void> {
  const first = await report(service, github, '6000')
  expect(first.code).toBe(0)
}

/** A run with wait false for a pull request: its record names the pull request's head commit. */
const handOverPullRequest = (service: StandInService, github: StandInGitHub) =>
  runAction({
    inputs: commentInputs(service, { wait: 'false', prompt: 'Document the --dry-run flag', context: 'none' }),
    env: runnerEnvironment(github, 'pull_request', pullRequestEvent({ number: 7 }), {
      GITHUB_SERVER_URL: SERVER,
      GITHUB_SHA: commitId('merge')
    })
  })

/** A /docs comment on issue #12 with wait false: its record names the reply. */
const handOverComment = (service: StandInService, github: StandInGitHub, extra: Record<string, string> = {}) =>
  runAction({
    inputs: commentInputs(service, { wait: 'false', ...extra }),
    env: commentEnv(github, '/docs document the retry policy')
  })

/** The index's record comments, oldest first, still there or deleted once told, each with its last body. */
function records(github: StandInGitHub): { id: number; body: string }[] {
  const issue = github.issues.find((i) => i.labels.includes(INDEX_LABEL))
  if (!issue) throw new Error('no index issue')
  return [...github.allComments, ...github.deletedComments]
    .filter((c) => c.issueNumber === issue.number)
    .sort((a, b) => a.id - b.id)
}

/** The action's comments on issue #12: the reply (and any second one). */
const repliesOn12 = (github: StandInGitHub) => github.comments.filter((c) => c.issueNumber === 12)

/** The statuses set on the pull request's head commit with `state`. */
const statusWrites = (github: StandInGitHub, state: string) =>
  github.requests.filter((r) => r.method === 'POST' && r.path.endsWith(`/statuses/${HEAD}`) && r.body?.state === state)

/** What a person reads as the commit's check: the newest docs-agent status on the head commit. */
const shownStatus = (github: StandInGitHub) =>
  github.statuses.filter((s) => s.sha === HEAD && s.context === 'docs-agent').at(-1)?.state

const warnings = (run: ActionRun) => run.stdout.split('\n').filter((line) => line.startsWith('::warning'))

/** A fault a test arms once its earlier runs are done: it answers only while `armed()` says so. */
function armedFault(
  armed: () => boolean,
  fault: { status: number; message: string; made?: boolean },
  matches = (_req: RecordedRequest) => true
) {
  return { ...fault, when: (req: RecordedRequest) => armed() && matches(req) }
}

describe.concurrent('a failed write leaves the ending for the next reporting run', () => {
  it(
    'a 502 on the commit status: the record stays open and says so once; the next reporting run completes the status',
    async (test) => {
      let armed = false
      const service = await standIn(test, WORKS_ON)
      const github = await standInGitHub(test, {
        faults: { 'status-create': { ...armedFault(() => armed, GITHUB_502), times: 1 } }
      })
      const asked = await handOverPullRequest(service, github)
      expect(asked.code).toBe(0)
      expect(shownStatus(github)).toBe('pending')
      finish(service, asked.outputs.jobId)

      armed = true
      const failed = await report(service, github, '6100')
      expect(failed.code).toBe(0)
      // One warning says what was not written and what happens next.
      const said = warnings(failed).filter((line) => line.includes(asked.outputs.jobId))
      expect(said).toHaveLength(1)
      expect(said[0]).toContain(`the status of commit ${HEAD.slice(0, 7)}: HTTP 502`)
      expect(said[0]).toContain('Its record stays open and unclaimed: the next reporting run tells the ending again')
      expect(shownStatus(github)).toBe('pending')
      expect(records(github)[0].body).toContain('Working')

      armed = false
      const next = await report(service, github, '6101')
      expect(next.code).toBe(0)
      expect(shownStatus(github)).toBe('success')
      expect(records(github)[0].body).toContain('Told')
      // The note on the agent's pull request was left by the first run, and looked for (not left again) by the second.
      const notes = github.comments.filter((c) => c.issueNumber === AGENT_PR && c.body.includes('docs-agent-job:'))
      expect(notes).toHaveLength(1)
    },
    SEVERAL_RUNS_MS
  )

  it(
    "a 502 on the reply's edit: the reply keeps no false promise for ever; the next reporting run tells it there",
    async (test) => {
      let armed = false
      let replyId = 0
      const service = await standIn(test, WORKS_ON)
      const github = await standInGitHub(test, {
        faults: {
          'comment-update': {
            ...armedFault(
              () => armed,
              GITHUB_502,
              (req) => req.path.endsWith(`/comments/${replyId}`)
            ),
            times: 1
          }
        }
      })
      await installReporter(service, github)
      const asked = await handOverComment(service, github)
      const [reply] = repliesOn12(github)
      replyId = reply.id
      expect(reply.body).toContain(PROMISED)
      finish(service, asked.outputs.jobId)

      armed = true
      const failed = await report(service, github, '6200')
      expect(failed.code).toBe(0)
      expect(warnings(failed).filter((line) => line.includes('Its record stays open'))).toHaveLength(1)
      expect(records(github)[0].body).toContain('Working')
      expect(reply.body).toContain(PROMISED)

      armed = false
      const next = await report(service, github, '6201')
      expect(next.code).toBe(0)
      expect(reply.body).not.toContain(PROMISED)
      expect(reply.body).toContain(`${REPO}#${AGENT_PR}`)
      expect(reply.body).toContain('/actions/runs/6201')
      expect(records(github)[0].body).toContain('Told')
      expect(repliesOn12(github)).toHaveLength(1)
    },
    SEVERAL_RUNS_MS
  )

  it(
    'a status GitHub set before answering 502 is read back: one status write for the ending, though the telling is retried',
    async (test) => {
      let armed = false
      const service = await standIn(test, WORKS_ON)
      const github = await standInGitHub(test, {
        faults: {
          'status-create': { ...armedFault(() => armed, { ...GITHUB_502, made: true }), times: 1 },
          // The note on the agent's pull request fails too: the record stays open, and the next run tells the ending again.
          'comment-create': {
            ...armedFault(
              () => armed,
              GITHUB_502,
              (req) => req.path.includes(`/issues/${AGENT_PR}/comments`)
            ),
            times: 1
          }
        }
      })
      const asked = await handOverPullRequest(service, github)
      finish(service, asked.outputs.jobId)

      armed = true
      const failed = await report(service, github, '6300')
      expect(failed.code).toBe(0)
      // Made despite its 502, and read back as made.
      expect(github.madeDespiteFault.filter((r) => r.path.endsWith(`/statuses/${HEAD}`))).toHaveLength(1)
      expect(shownStatus(github)).toBe('success')
      expect(records(github)[0].body).toContain('Working')

      armed = false
      const next = await report(service, github, '6301')
      expect(next.code).toBe(0)
      expect(statusWrites(github, 'success')).toHaveLength(1)
      const notes = github.comments.filter((c) => c.issueNumber === AGENT_PR && c.body.includes('docs-agent-job:'))
      expect(notes).toHaveLength(1)
      expect(records(github)[0].body).toContain('Told')
    },
    SEVERAL_RUNS_MS
  )
})

describe.concurrent('a write GitHub made before answering 502 is found again, never made twice', () => {
  it(
    "a note GitHub left on the agent's pull request before answering 502 is looked for by the next reporting run: one note",
    async (test) => {
      let armed = false
      const service = await standIn(test, WORKS_ON)
      const github = await standInGitHub(test, {
        faults: {
          'comment-create': {
            ...armedFault(
              () => armed,
              { ...GITHUB_502, made: true },
              (req) => req.path.includes(`/issues/${AGENT_PR}/comments`)
            ),
            times: 1
          }
        }
      })
      const asked = await handOverPullRequest(service, github)
      finish(service, asked.outputs.jobId)
      armed = true
      const failed = await report(service, github, '6700')
      expect(failed.code).toBe(0)
      expect(records(github)[0].body).toContain('Working')
      armed = false
      const next = await report(service, github, '6701')
      expect(next.code).toBe(0)
      const notes = github.comments.filter((c) => c.issueNumber === AGENT_PR && c.body.includes('docs-agent-job:'))
      expect(notes).toHaveLength(1)
      expect(records(github)[0].body).toContain('Told')
      expect(statusWrites(github, 'success')).toHaveLength(1)
    },
    SEVERAL_RUNS_MS
  )

  it.for([
    { name: 'wait false', extra: { wait: 'false' }, ends: PROMISED },
    { name: 'a held run', extra: { wait: 'true' }, ends: `${REPO}#${AGENT_PR}` }
  ])(
    '$name: a first reply made and answered 502 is the one reply, and shows the ending',
    { timeout: SEVERAL_RUNS_MS },
    async ({ extra, ends }, test) => {
      const service = await standIn(test, {
        plan: { activeReads: 1, prLink: AGENT_PR_LINK, repository: SOURCE }
      })
      const github = await standInGitHub(test, {
        faults: {
          'comment-create': {
            ...GITHUB_502,
            made: true,
            times: 1,
            when: (req) => req.path.includes('/issues/12/comments')
          }
        }
      })
      await installReporter(service, github)
      const run = await runAction({
        inputs: commentInputs(service, extra),
        env: commentEnv(github, '/docs document the retry policy')
      })
      expect(run.code).toBe(0)
      const replies = repliesOn12(github)
      expect(replies).toHaveLength(1)
      expect(replies[0].body).toContain(ends)
      expect(replies[0].body).not.toContain('On it')
    }
  )

  it(
    "a record made at hand-over and answered 502 is found by its marker: one record, and the reply's promise is kept",
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      const github = await standInGitHub(test, {
        faults: {
          'comment-create': {
            ...GITHUB_502,
            made: true,
            times: 1,
            when: (req) => String(req.body?.body ?? '').includes('being recorded here')
          }
        }
      })
      await installReporter(service, github)
      const asked = await handOverComment(service, github)
      expect(asked.code).toBe(0)
      expect(records(github)).toHaveLength(1)
      expect(records(github)[0].body).toContain('Working')
      expect(repliesOn12(github)[0].body).toContain(PROMISED)
      finish(service, asked.outputs.jobId)
      await report(service, github, '6400')
      expect(repliesOn12(github)[0].body).toContain('/actions/runs/6400')
    },
    SEVERAL_RUNS_MS
  )

  it(
    'a record GitHub refused at hand-over: the reply promises nothing, and says how to follow the job instead',
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      const github = await standInGitHub(test, {
        faults: {
          'comment-create': {
            ...GITHUB_502,
            when: (req) => String(req.body?.body ?? '').includes('being recorded here')
          }
        }
      })
      const asked = await handOverComment(service, github)
      expect(asked.code).toBe(0)
      const [reply] = repliesOn12(github)
      expect(reply.body).not.toContain(PROMISED)
      // One next step, the same on the thread and in the summary.
      const unrecorded =
        "This run could not leave the job's record for the repository's reporting run, so its ending will not be " +
        'posted where it was asked for: follow the job with a run of this action given its id as jobId and no prompt.'
      expect(reply.body).toContain(unrecorded)
      expect(reply.body).toContain(asked.outputs.jobId)
      expect(asked.summary).toContain('Created: the job, not followed')
      expect(asked.summary).toContain('so its ending will not be posted where it was asked for: follow the job')
      const said = warnings(asked).filter((line) => line.includes('Could not leave the record'))
      expect(said).toHaveLength(1)
      expect(said[0]).toContain('The reply on the thread says so')
    },
    SEVERAL_RUNS_MS
  )
})

describe.concurrent('after a reporting run', () => {
  it(
    'a told job whose pull request is open stays the thread\'s job: "/docs also ..." sends it a message, and creates nothing',
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      const github = await standInGitHub(test)
      const asked = await handOverComment(service, github)
      finish(service, asked.outputs.jobId)
      const told = await report(service, github, '6500')
      expect(told.code).toBe(0)
      expect(repliesOn12(github)[0].body).toContain('it goes to this job while its pull request is open')

      const also = await runAction({
        inputs: commentInputs(service),
        env: commentEnv(github, '/docs also document the backoff')
      })
      expect(also.code).toBe(0)
      expect(service.requestsOf('POST').filter((r) => r.path.endsWith('/job'))).toHaveLength(1)
      const messaged = service.requestsOf('POST', '/message').map((r) => r.path)
      expect(messaged).toEqual([`/v2/agent/docs/job/${encodeURIComponent(asked.outputs.jobId)}/message`])
    },
    SEVERAL_RUNS_MS
  )

  it(
    'a reporting run cancelled while it tells an ending says so in its own words and gives up its claim: the next run tells it at once',
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      // GitHub is slow to answer the reporting run's reads of a comment: the record's, then the reply's.
      const github = await standInGitHub(test, { delays: { 'comment-get': { ms: 2000, times: 2 } } })
      const asked = await handOverComment(service, github)
      finish(service, asked.outputs.jobId)
      const [reply] = repliesOn12(github)
      const from = github.requests.length
      const started = startAction({ inputs: reportInputs(service), env: reportEnv(github, '6600') })
      const readOfReply = () =>
        github.requests.slice(from).some((r) => r.method === 'GET' && r.path.endsWith(`/comments/${reply.id}`))
      for (let waited = 0; !readOfReply() && waited < 20_000; waited += 100) await sleep(100)
      started.child.kill('SIGINT')
      const cancelled = await started.done
      expect(cancelled.code).toBe(1)
      expect(cancelled.stdout).not.toContain('failed unexpectedly')
      expect(cancelled.stdout).not.toContain('report this')
      expect(cancelled.stdout).toContain('::error::The reporting run was cancelled')
      expect(records(github)[0].body).toContain('Working')

      const next = await report(service, github, '6601')
      expect(next.code).toBe(0)
      expect(next.summary).not.toContain('by another run')
      expect(records(github)[0].body).toContain('Told')
      expect(reply.body).toContain('/actions/runs/6601')
    },
    SEVERAL_RUNS_MS
  )
})
