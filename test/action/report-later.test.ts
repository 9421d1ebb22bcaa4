// Report later, through the bundled action against the stand-ins, GitHub's state kept across runs: a
// run with wait false hands its job over (a signed record in the index issue, a pending commit status)
// and ends without reading the job; a reporting run (report: pending) reads each open record's job
// once and, for each that has ended, edits the thread's reply, leaves the note on the agent's pull
// request, completes the commit status and marks the record final, exactly once, however many
// reporting runs there are, and the told record leaves the index; a forged or copied record reports
// nothing and hides nothing; a timed-out held run's job and a create the rate limit refused are
// reported later; a run reads at most 20 jobs. `reported` lists the endings a run told, `working`
// the jobs it read still working.
import { describe, expect, it } from 'vitest'
import { signRecord } from '../../src/github/signed-record.js'
import { seedRecords } from '../support/job-index-world.js'
import { runAction, startAction, type ActionRun } from '../support/run-action.js'
import {
  commitId,
  issueCommentEvent,
  pullRequestEvent,
  runnerEnvironment,
  workflowDispatchEvent,
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
  standInGitHub,
  TOKEN
} from '../support/ending-runs.js'

const INDEX_LABEL = 'docs-agent:jobs'
/** A job that works until the test says it ended (finish). */
const WORKS_ON = { plan: { activeReads: 1_000_000, prLink: AGENT_PR_LINK, repository: SOURCE } }
const HEAD = commitId('pr-head')
/** Each test runs the bundle three to six times, side by side with the file's other tests: on a busy machine, more than 30 s. */
const SEVERAL_RUNS_MS = 2 * LONG_TEST_MS
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The job ends now: every read from here on shows it completed, with its pull request (or `final`). */
function finish(service: StandInService, jobId: string, final = 'completed'): void {
  const job = service.jobs.get(jobId)
  if (!job) throw new Error(`no job ${jobId}`)
  job.plan = { ...job.plan, activeReads: 0, final, ...(final === 'completed' ? {} : { prLink: null }) }
}

function reportInputs(service: StandInService, extra: Record<string, string> = {}): Record<string, string> {
  return { report: 'pending', ...commentInputs(service), ...extra }
}

function reportEnv(github: StandInGitHub, runId = '4800'): Record<string, string> {
  return runnerEnvironment(github, 'schedule', workflowDispatchEvent(), {
    GITHUB_SERVER_URL: SERVER,
    GITHUB_RUN_ID: runId
  })
}

function pullRequestEnv(github: StandInGitHub): Record<string, string> {
  return runnerEnvironment(github, 'pull_request', pullRequestEvent({ number: 7 }), {
    GITHUB_SERVER_URL: SERVER,
    // The merge commit GitHub makes for the event: never where the status goes.
    GITHUB_SHA: commitId('merge')
  })
}

const report = (service: StandInService, github: StandInGitHub, runId?: string, extra?: Record<string, string>) =>
  runAction({ inputs: reportInputs(service, extra), env: reportEnv(github, runId) })

type Listed = { id: string; status: string; prLink: string | null; thread: number | null }
const reported = (run: ActionRun): Listed[] => JSON.parse(run.outputs.reported ?? 'null')
const working = (run: ActionRun): Listed[] => JSON.parse(run.outputs.working ?? 'null')

/** The index issue's number, and its comments (the records), oldest first. */
function indexOf(github: StandInGitHub): { number: number; records: { id: number; body: string }[] } {
  const issue = github.issues.find((i) => i.labels.includes(INDEX_LABEL))
  if (!issue) throw new Error('no index issue')
  return { number: issue.number, records: github.allComments.filter((c) => c.issueNumber === issue.number) }
}

/** The index's first record comment, still there or deleted once told, with its last body. */
function firstRecord(github: StandInGitHub): { id: number; body: string } {
  const { number } = indexOf(github)
  const all = [...github.allComments, ...github.deletedComments].filter((c) => c.issueNumber === number)
  return all.sort((a, b) => a.id - b.id)[0]
}

/** GitHub writes (anything but a GET) since `from` requests. */
const writesSince = (github: StandInGitHub, from: number) =>
  github.requests.slice(from).filter((r) => r.method !== 'GET')

describe.concurrent('a job handed over, told later', () => {
  it(
    'a wait false run leaves a record and ends without reading the job; a reporting run tells the ending once it has ended, and a second changes nothing',
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      const github = await standInGitHub(test)
      const asked = await runAction({
        inputs: commentInputs(service, { wait: 'false' }),
        env: commentEnv(github, '/docs document the retry policy')
      })
      expect(asked.code).toBe(0)
      expect(asked.outputs).toMatchObject({ jobCreated: 'true', status: 'active' })
      const jobId = asked.outputs.jobId
      // Ends in seconds: the job is created and never read.
      expect(service.requests.map((r) => r.method)).toEqual(['POST'])
      const pushed = await runAction({
        inputs: commentInputs(service, { wait: 'false', prompt: 'Document the --dry-run flag', context: 'none' }),
        env: pullRequestEnv(github)
      })
      expect(pushed.code).toBe(0)
      const prJob = pushed.outputs.jobId
      // Pending on the pull request's head, where its checks show it; not on the merge commit.
      expect(github.statuses).toEqual([expect.objectContaining({ sha: HEAD, state: 'pending', context: 'docs-agent' })])
      const index = indexOf(github)
      expect(index.records).toHaveLength(2)
      expect(github.issues).toHaveLength(1)
      const reply = github.comments.find((c) => c.issueNumber === 12 && !c.body.includes('docs-agent-record: index'))
      expect(reply).toBeDefined()
      // No reporting run has recorded itself yet: the person who asked is told how to get the ending,
      // in the summary's words.
      const next =
        'No reporting run has recorded itself in this repository yet, so nothing will tell its ending: add the ' +
        'report-later workflow (examples/workflows/report-later.yml, with report: pending), or follow the job with a ' +
        'run of this action given its id as jobId and no prompt.'
      expect(reply?.body).toContain(next)
      expect(asked.summary.replaceAll('&#39;', "'")).toContain(next)
      const replyBefore = reply?.body

      // Still working: read once each, nothing told.
      const early = await report(service, github, '4800')
      expect(early.code).toBe(0)
      expect(working(early).map((j) => j.status)).toEqual(['active', 'active'])
      expect(reported(early)).toEqual([])
      expect(service.requestsOf('GET').length).toBe(2)
      expect(reply?.body).toBe(replyBefore)

      finish(service, jobId)
      finish(service, prJob, 'failed')
      const later = await report(service, github, '4801')
      expect(later.code).toBe(0)
      expect(reported(later)).toEqual([
        { id: jobId, status: 'completed', prLink: AGENT_PR_LINK, thread: 12 },
        { id: prJob, status: 'failed', prLink: null, thread: null }
      ])
      // The reply tells the ending, with the pull request as GitHub's reference.
      expect(reply?.body).toContain(`${REPO}#${AGENT_PR}`)
      expect(reply?.body).toContain('/actions/runs/4801')
      expect(reply?.body).not.toContain(next)
      // The note on the agent's pull request, once.
      const notes = github.comments.filter((c) => c.issueNumber === AGENT_PR && c.body.includes('docs-agent-job:'))
      expect(notes).toHaveLength(1)
      // It names who asked and where, as the run that asked would have: the comment on #12 and that run.
      expect(notes[0].body).toContain(
        `opened this pull request, asked for by a [workflow run](${SERVER}/${REPO}/actions/runs/4711) ` +
          `(@octo-maintainer's [issue comment](${SERVER}/${REPO}/issues/12#issuecomment-4242) on ` +
          `[issue #12](${SERVER}/${REPO}/issues/12)).`
      )
      expect(notes[0].body).not.toContain('schedule')
      // The commit's status completed: failure with the job's status, in a held run's words, linking the reporting run.
      expect(github.statuses.at(-1)).toMatchObject({
        sha: HEAD,
        state: 'failure',
        context: 'docs-agent',
        description: 'The documentation job failed: the agent hit an unrecoverable error.',
        target_url: `${SERVER}/${REPO}/actions/runs/4801`
      })
      // The index's records read as a held run's endings, as they were when told (then deleted).
      const told = github.deletedComments
        .filter((c) => c.issueNumber === indexOf(github).number)
        .map((r) => r.body.split('\n').at(-1))
      expect(told).toEqual([
        `✅ Job \`${jobId}\` completed. Told on #12 by a reporting run.`,
        `❌ Job \`${prJob}\` failed: the agent hit an unrecoverable error. Told on commit ${HEAD.slice(0, 7)} by a reporting run.`
      ])
      expect(later.summary).toContain('Reported the ending of 2 documentation jobs')
      // Told everywhere: the records leave the index.
      expect(indexOf(github).records).toEqual([])

      // A second reporting run: nothing open, nothing read; it only turns its workflow off again.
      const before = github.requests.length
      const again = await report(service, github, '4802')
      expect(again.code).toBe(0)
      expect(reported(again)).toEqual([])
      expect(service.requestsOf('GET').length).toBe(4)
      expect(writesSince(github, before).map((r) => `${r.method} ${r.path}`)).toEqual([
        `PUT /repos/${REPO}/actions/workflows/docs.yml/disable`
      ])
    },
    SEVERAL_RUNS_MS
  )

  it(
    'a hand-over after the reporting workflow recorded itself says, in the summary and the reply alike, that it tells the ending',
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      const workflow = '.github/workflows/report-later.yml'
      const github = await standInGitHub(test, { workflows: [{ id: 7001, path: workflow }] })
      // A new reporting workflow's first run: it records itself in the index, and turns itself off.
      const first = await runAction({
        inputs: reportInputs(service),
        env: runnerEnvironment(github, 'schedule', workflowDispatchEvent(), {
          GITHUB_SERVER_URL: SERVER,
          GITHUB_WORKFLOW_REF: `${REPO}/${workflow}@refs/heads/main`
        })
      })
      expect(first.code).toBe(0)
      const asked = await runAction({
        inputs: commentInputs(service, { wait: 'false' }),
        env: commentEnv(github, '/docs document the retry policy')
      })
      expect(asked.code).toBe(0)
      const next =
        "Nothing to do: the repository's reporting run (report: pending) tells its ending where it was asked for, once it reads the job."
      const reply = github.comments.find((c) => c.issueNumber === 12)
      expect(reply?.body).toContain(next)
      expect(asked.summary.replaceAll('&#39;', "'")).toContain(next)
      expect(asked.summary).not.toContain('run this action with')
      expect(github.isWorkflowActive('report-later.yml')).toBe(true)
    },
    SEVERAL_RUNS_MS
  )

  it(
    'two reporting runs at once tell each ending once',
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      const github = await standInGitHub(test)
      const asked = await runAction({
        inputs: commentInputs(service, { wait: 'false' }),
        env: commentEnv(github, '/docs document the retry policy')
      })
      finish(service, asked.outputs.jobId)
      const before = github.requests.length
      const [one, two] = await Promise.all([
        startAction({ inputs: reportInputs(service), env: reportEnv(github, '4900') }).done,
        startAction({ inputs: reportInputs(service), env: reportEnv(github, '4901') }).done
      ])
      expect([one.code, two.code]).toEqual([0, 0])
      const writes = writesSince(github, before)
      // One note, one edit of the reply, one edit of the record to final.
      expect(writes.filter((r) => r.method === 'POST' && r.path.includes(`/issues/${AGENT_PR}/comments`))).toHaveLength(
        1
      )
      const reply = github.comments.find((c) => c.issueNumber === 12)
      expect(writes.filter((r) => r.method === 'PATCH' && r.path.endsWith(`/comments/${reply?.id}`))).toHaveLength(1)
      const record = github.deletedComments.find((c) => c.issueNumber === indexOf(github).number)
      expect(writes.filter((r) => r.method === 'PATCH' && r.path.endsWith(`/comments/${record?.id}`))).toHaveLength(1)
      expect(record?.body).toContain('Told')
      expect(indexOf(github).records).toEqual([])
    },
    SEVERAL_RUNS_MS
  )

  it(
    'a job handed over twice (two records) is told by one of two reporting runs at once: the run that lost the claim on its first record leaves its later one',
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      let release = () => {}
      const held = new Promise<void>((resolve) => (release = resolve))
      // The first claim is given at once but answered only when the test says: the other run claims meanwhile.
      const github = await standInGitHub(test, { delays: { reaction: { ms: 0, times: 1, until: held } } })
      let jobId = ''
      await seedRecords(
        service,
        github,
        2,
        () => ({ activeReads: 0, final: 'completed' }),
        (id) => ({ job: (jobId ||= id), state: 'open', created: new Date().toISOString() })
      )
      const records = indexOf(github).records
      expect(records).toHaveLength(2)
      const first = startAction({ inputs: reportInputs(service), env: reportEnv(github, '4910') })
      for (let i = 0; i < 200 && !github.reactions.some((r) => r.commentId === records[0].id); i++) await sleep(50)
      const second = await runAction({ inputs: reportInputs(service), env: reportEnv(github, '4911') })
      release()
      const one = await first.done
      expect([one.code, second.code]).toEqual([0, 0])
      // The run that claimed the first record tells both; the other tells neither.
      expect(reported(second).map((j) => j.id)).toEqual([])
      expect(new Set(reported(one).map((j) => j.id))).toEqual(new Set([jobId]))
      expect(indexOf(github).records).toEqual([])
    },
    SEVERAL_RUNS_MS
  )

  it(
    "a job's later record is told with the ending its first was told with, in the same run: a read of the job failing meanwhile leaves none of them for a run after",
    async (test) => {
      let reads = 0
      // The second read of the job would fail: the run reads it once, for its first record.
      const fault = { method: 'GET' as const, status: 502, body: 'Bad gateway', when: () => ++reads === 2 }
      const service = await standIn(test, { ...WORKS_ON, faults: [fault] })
      const github = await standInGitHub(test)
      let jobId = ''
      await seedRecords(
        service,
        github,
        2,
        () => ({ activeReads: 0, final: 'completed' }),
        (id) => ({ job: (jobId ||= id), state: 'open', created: new Date().toISOString() })
      )
      const run = await report(service, github, '4920')
      expect(run.code).toBe(0)
      expect(new Set(reported(run).map((j) => j.id))).toEqual(new Set([jobId]))
      expect(run.stdout).not.toContain(`Could not read job ${jobId}`)
      expect(indexOf(github).records).toEqual([])
    },
    SEVERAL_RUNS_MS
  )

  it(
    'a held run that follows a handed-over job to its end, beside a reporting run, tells its ending once',
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      const github = await standInGitHub(test)
      const asked = await runAction({
        inputs: commentInputs(service, { wait: 'false' }),
        env: commentEnv(github, '/docs document the retry policy')
      })
      const jobId = asked.outputs.jobId
      finish(service, jobId)
      const recordId = indexOf(github).records[0].id
      const before = github.requests.length
      const followEnv = runnerEnvironment(github, 'workflow_dispatch', workflowDispatchEvent(), {
        GITHUB_SERVER_URL: SERVER
      })
      const [held, reporter] = await Promise.all([
        startAction({ inputs: commentInputs(service, { jobId, context: 'none' }), env: followEnv }).done,
        startAction({ inputs: reportInputs(service), env: reportEnv(github, '4950') }).done
      ])
      expect([held.code, reporter.code]).toEqual([0, 0])
      const writes = writesSince(github, before)
      const reply = github.comments.find((c) => c.issueNumber === 12)
      const record = firstRecord(github)
      expect(record.id).toBe(recordId)
      expect(writes.filter((r) => r.method === 'PATCH' && r.path.endsWith(`/comments/${reply?.id}`))).toHaveLength(1)
      expect(writes.filter((r) => r.method === 'PATCH' && r.path.endsWith(`/comments/${record.id}`))).toHaveLength(1)
      expect(writes.filter((r) => r.method === 'POST' && r.path.includes(`/issues/${AGENT_PR}/comments`))).toHaveLength(
        1
      )
      expect(reply?.body).toContain(`${REPO}#${AGENT_PR}`)
      expect(record.body).toContain('Told')

      // Told: the next reporting run finds nothing open, tells nothing again, and the record has left the index.
      const after = github.requests.length
      const again = await report(service, github, '4951')
      expect(reported(again)).toEqual([])
      const index = indexOf(github)
      expect(index.records).toEqual([])
      const told = writesSince(github, after).filter(
        (r) =>
          !r.path.includes('/actions/workflows/') &&
          !r.path.endsWith(`/issues/${index.number}`) &&
          !r.path.endsWith(`/comments/${recordId}`)
      )
      expect(told).toEqual([])
    },
    SEVERAL_RUNS_MS
  )

  it(
    'a reporting run cancelled while it tells an ending leaves the record open and gives up its claim; a claim a killed run left lapses, and a later run tells it once',
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      // GitHub is slow to answer the reporting run's reads of a comment: the record's, before its claim,
      // and the reply's, after it.
      const github = await standInGitHub(test, { delays: { 'comment-get': { ms: 2000, times: 2 } } })
      const asked = await runAction({
        inputs: commentInputs(service, { wait: 'false' }),
        env: commentEnv(github, '/docs document the retry policy')
      })
      finish(service, asked.outputs.jobId)
      const reply = github.comments.find((c) => c.issueNumber === 12)
      const record = indexOf(github).records[0]
      // Cancelled once it has claimed the record, while it reads the reply.
      const from = github.requests.length
      const started = startAction({ inputs: reportInputs(service), env: reportEnv(github, '5100') })
      const readOfReply = () =>
        github.requests.slice(from).some((r) => r.method === 'GET' && r.path.endsWith(`/comments/${reply?.id}`))
      for (let waited = 0; !readOfReply() && waited < 20_000; waited += 100) await sleep(100)
      expect(github.requests.slice(from).some((r) => r.method === 'POST' && r.path.includes('/reactions'))).toBe(true)
      started.child.kill('SIGINT')
      const cancelled = await started.done
      expect(cancelled.code).toBe(1)
      expect(indexOf(github).records[0].body).toBe(record.body)
      expect(record.body).toContain('Working')
      // Its claim is given up within the cancel's grace.
      expect(
        github.requests.slice(from).some((r) => r.method === 'DELETE' && r.path.includes(`/${record.id}/reactions/`))
      ).toBe(true)

      // A run killed before it could give up its claim leaves one: the next run leaves the record to it,
      // and neither tells it nor calls it working.
      await claimAsAKilledRun(github, record.id)
      const next = await report(service, github, '5101')
      expect(reported(next)).toEqual([])
      expect(working(next)).toEqual([])
      expect(next.summary).toContain('claimed by another run: told by it, or by a run after its claim lapses')
      expect(indexOf(github).records[0].body).toContain('Working')

      // The claim lapses (a reporting run takes at most 10 minutes; a claim holds 20): told once.
      github.ageReactions(21 * 60_000)
      const before = github.requests.length
      const later = await report(service, github, '5102')
      expect(later.code).toBe(0)
      expect(firstRecord(github).body).toContain('Told')
      expect(indexOf(github).records).toEqual([])
      expect(reply?.body).toContain('/actions/runs/5102')
      const notes = github.comments.filter((c) => c.issueNumber === AGENT_PR && c.body.includes('docs-agent-job:'))
      expect(notes).toHaveLength(1)
      const again = await report(service, github, '5103')
      expect(reported(again)).toEqual([])
      // Marked final once, then deleted once.
      expect(
        writesSince(github, before)
          .filter((r) => r.path.endsWith(`/${record.id}`))
          .map((r) => r.method)
      ).toEqual(['PATCH', 'DELETE'])
    },
    SEVERAL_RUNS_MS
  )

  it(
    "a timed-out held run's job is reported by the next reporting run",
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      const github = await standInGitHub(test)
      const held = await runAction({
        inputs: commentInputs(service, { timeout: '5s', pollInterval: '1s' }),
        env: commentEnv(github, '/docs document the retry policy')
      })
      expect(held.code).toBe(1)
      expect(indexOf(github).records).toHaveLength(1)
      finish(service, held.outputs.jobId)
      const later = await report(service, github)
      expect(reported(later)).toEqual([
        { id: held.outputs.jobId, status: 'completed', prLink: AGENT_PR_LINK, thread: 12 }
      ])
      const reply = github.comments.find((c) => c.issueNumber === 12)
      expect(reply?.body).toContain(`${REPO}#${AGENT_PR}`)
    },
    SEVERAL_RUNS_MS
  )

  it(
    'a create the rate limit refused waits in a queued record; a later reporting run makes it, once',
    async (test) => {
      const rateLimited = { method: 'POST' as const, status: 429, body: 'Too Many Requests', contentType: 'text/plain' }
      const service = await standIn(test, {
        ...WORKS_ON,
        faults: [
          { ...rateLimited, headers: { 'retry-after': '0' }, times: 1 },
          { ...rateLimited, times: 1 }
        ]
      })
      const github = await standInGitHub(test)
      // The comment that asked is on the thread: a queued request whose comment is gone is withdrawn.
      const body = '/docs document the retry policy'
      const commentId = github.addComment({ issueNumber: 12, body, login: 'octo-maintainer' })
      const event = issueCommentEvent({ body, number: 12, commentId })
      const asked = await runAction({
        inputs: commentInputs(service, { wait: 'false' }),
        env: runnerEnvironment(github, 'issue_comment', event, { GITHUB_SERVER_URL: SERVER })
      })
      // Kept, so the step does not fail; with wait false the 429 is not waited out: one try.
      expect(asked.code).toBe(0)
      expect(asked.outputs).toMatchObject({ status: 'queued', jobCreated: 'false' })
      expect(service.requestsOf('POST').length).toBe(1)
      expect(service.created).toBe(0)
      const record = indexOf(github).records[0]
      expect(record.body).toContain('Queued')
      // The prompt is kept in the signed record only: the record's visible words do not show it.
      expect(record.body.replace(/<!--[^]*?-->/g, '')).not.toContain('retry policy')

      // Still refused: one try, and the record stays queued.
      const refused = await report(service, github, '5000')
      expect(refused.code).toBe(0)
      expect(service.requestsOf('POST').length).toBe(2)
      expect(service.created).toBe(0)

      const made = await report(service, github, '5001')
      expect(service.created).toBe(1)
      const jobId = [...service.jobs.keys()][0]
      expect(working(made)).toEqual([{ id: jobId, status: 'active', prLink: null, thread: 12 }])
      expect(reported(made)).toEqual([])
      expect(service.jobs.get(jobId)?.prompt).toContain('document the retry policy')

      finish(service, jobId)
      const told = await report(service, github, '5002')
      expect(reported(told)).toEqual([{ id: jobId, status: 'completed', prLink: AGENT_PR_LINK, thread: 12 }])
      expect(service.created).toBe(1)
      expect(service.requestsOf('POST').length).toBe(3)
    },
    SEVERAL_RUNS_MS
  )
})

describe.concurrent('records a reporting run does not trust', () => {
  it(
    "another project's index, and a forged record or a copy of a record in it, report nothing and are named once",
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      const github = await standInGitHub(test, { permissions: { 'octo-collaborator': 'write' } })
      // Another project's job, handed over in this repository: its index is its own.
      const other = await runAction({
        inputs: commentInputs(service, { wait: 'false', projectId: 'other' }),
        env: commentEnv(github, '/docs document the retry policy')
      })
      finish(service, other.outputs.jobId)
      const index = indexOf(github)
      const original = index.records[0]
      // A copy of its record re-posted by a collaborator (the index is locked to others), and a record
      // signed with another key, for this project.
      github.addComment({ issueNumber: index.number, body: original.body, login: 'octo-collaborator' })
      const forged = signRecord(
        {
          key: { apiKey: 'svc_not_the_key' },
          place: {
            host: 'github.example',
            thread: { owner: 'octo-org', repo: 'docs-site', number: index.number },
            projectId: 'docs'
          },
          kind: 'index',
          commentId: 9999
        },
        { job: other.outputs.jobId, state: 'open', created: new Date().toISOString() }
      )
      github.addComment({ issueNumber: index.number, body: forged, login: 'octo-collaborator' })
      const before = github.requests.length
      const gets = service.requestsOf('GET').length
      const run = await report(service, github)
      expect(run.code).toBe(0)
      expect(reported(run)).toEqual([])
      expect(service.requestsOf('GET').length).toBe(gets)
      // Nothing of the other project's index is read or written: its comments are not listed.
      const touched = github.requests.slice(before).filter((r) => r.path.includes(`/issues/${index.number}`))
      expect(touched).toEqual([])
      expect(run.summary.match(new RegExp(`#${index.number}\\b`, 'g'))).toHaveLength(1)
      expect(run.summary).toContain(
        `issue #${index.number} has the label docs-agent:jobs but is not the index this action made for this project`
      )
    },
    SEVERAL_RUNS_MS
  )

  it(
    'a reporting run reads at most 20 jobs; the rest wait for the next',
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      const github = await standInGitHub(test)
      await seedRecords(service, github, 21, () => ({ activeReads: 1_000_000 }))
      const run = await report(service, github)
      expect(run.code).toBe(0)
      expect(service.requestsOf('GET').length).toBe(20)
      expect(working(run)).toHaveLength(20)
      expect(reported(run)).toEqual([])
      expect(run.summary).toContain('1 more job left for the next reporting run: a run reads at most 20.')
    },
    SEVERAL_RUNS_MS
  )

  it(
    "a reporting run started by the agent's pull request tells that pull request's job at once, past its share of 20",
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      const github = await standInGitHub(test)
      // The 21st record's job has ended with its pull request: the one whose event starts the run.
      const ids = await seedRecords(service, github, 22, (n) =>
        n === 20 ? { activeReads: 0, prLink: AGENT_PR_LINK, repository: SOURCE } : { activeReads: 1_000_000 }
      )
      const event = pullRequestEvent({ number: AGENT_PR, login: 'docs-agent[bot]', action: 'synchronize' })
      event.pull_request.html_url = AGENT_PR_LINK
      const run = await runAction({
        inputs: reportInputs(service),
        env: runnerEnvironment(github, 'pull_request', event, { GITHUB_SERVER_URL: SERVER, GITHUB_RUN_ID: '5300' })
      })
      expect(run.code).toBe(0)
      // Its share, then that job: the 22nd record is not read.
      expect(service.requestsOf('GET').map((r) => r.path.split('/').pop())).toEqual(ids.slice(0, 21))
      expect(reported(run).at(-1)).toEqual({ id: ids[20], status: 'completed', prLink: AGENT_PR_LINK, thread: null })
      const notes = github.comments.filter((c) => c.issueNumber === AGENT_PR && c.body.includes('docs-agent-job:'))
      expect(notes).toHaveLength(1)
      expect(run.summary).toContain('1 more job left for the next reporting run: a run reads at most 20.')
    },
    SEVERAL_RUNS_MS
  )
})

describe.concurrent('the report input', () => {
  it('a value other than pending fails the step in a sentence, and nothing is read or sent', async (test) => {
    const service = await standIn(test, WORKS_ON)
    const github = await standInGitHub(test)
    const run = await report(service, github, '5200', { report: 'all' })
    expect(run.code).toBe(1)
    expect(run.stdout).toContain("Input report is 'all', which this action does not know: its one value is pending")
    expect(service.requests).toEqual([])
    expect(github.requests).toEqual([])
  })
})

/** A claim left by a reporting run that was killed before it could give it up: a 🚀 on the record, as the action gives it. */
async function claimAsAKilledRun(github: StandInGitHub, commentId: number): Promise<void> {
  await fetch(`${github.apiUrl}/repos/${REPO}/issues/comments/${commentId}/reactions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ content: 'rocket' })
  })
}
