// The index issue and the reporting workflow, through the bundled action against the stand-ins, GitHub's
// state kept across runs: the reporting workflow runs only while a job is open (a reporting run that
// leaves nothing open turns it off, a hand-over turns it on; without actions: write it keeps its
// schedule and says so once); the index is the one issue the action made and signed, locked, and
// another labelled issue or a copy of a record hides nothing; told records leave it, so a run's reads
// do not grow with the jobs told before; the share rotates, so no job starves behind older ones that
// still work; the body is a dashboard of the open jobs and the endings told lately.
import { describe, expect, it } from 'vitest'
import { readIndexMarker } from '../../src/hand-over/index-marker.js'
import { runAction, startAction, type ActionRun } from '../support/run-action.js'
import {
  issueCommentEvent,
  runnerEnvironment,
  workflowDispatchEvent,
  type StandInGitHub
} from '../support/stand-in-github.js'
import type { StandInService } from '../support/stand-in-service.js'
import {
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
import { seedRecords } from '../support/job-index-world.js'

const INDEX_LABEL = 'docs-agent:jobs'
const WORKFLOW = '.github/workflows/report-later.yml'
const WORKFLOWS = { workflows: [{ id: 7001, path: WORKFLOW }] }
const WORKS_ON = { plan: { activeReads: 1_000_000, prLink: AGENT_PR_LINK, repository: SOURCE } }
const SEVERAL_RUNS_MS = 2 * LONG_TEST_MS

type Listed = { id: string; status: string; prLink: string | null; thread: number | null }
const reported = (run: ActionRun): Listed[] => JSON.parse(run.outputs.reported ?? 'null')
const working = (run: ActionRun): Listed[] => JSON.parse(run.outputs.working ?? 'null')

function finish(service: StandInService, jobId: string): void {
  const job = service.jobs.get(jobId)
  if (!job) throw new Error(`no job ${jobId}`)
  job.plan = { ...job.plan, activeReads: 0, final: 'completed' }
}

/** A run of the reporting workflow (report-later.yml), on its schedule. */
const report = (service: StandInService, github: StandInGitHub, runId = '6000') =>
  runAction({
    inputs: { report: 'pending', ...commentInputs(service) },
    env: runnerEnvironment(github, 'schedule', workflowDispatchEvent(), {
      GITHUB_SERVER_URL: SERVER,
      GITHUB_RUN_ID: runId,
      GITHUB_WORKFLOW_REF: `${REPO}/${WORKFLOW}@refs/heads/main`
    })
  })

/** A /docs comment on #12 (or `thread`) whose run hands its job over (wait false). */
const handOver = (service: StandInService, github: StandInGitHub, thread = 12) =>
  runAction({
    inputs: commentInputs(service, { wait: 'false' }),
    env:
      thread === 12
        ? commentEnv(github, '/docs document the retries')
        : runnerEnvironment(
            github,
            'issue_comment',
            issueCommentEvent({ body: '/docs document the retries', number: thread }),
            {
              GITHUB_SERVER_URL: SERVER
            }
          )
  })

/** The index issue: the labelled one the action made. */
function indexIssue(github: StandInGitHub) {
  const made = github.issues.find((i) => i.labels.includes(INDEX_LABEL))
  if (!made) throw new Error('no index issue')
  const issue = github.issue(made.number)
  if (!issue) throw new Error('no index issue')
  const records = github.allComments.filter((c) => c.issueNumber === made.number)
  return { number: made.number, body: String(issue.body), locked: issue.locked, records }
}

const workflowState = (github: StandInGitHub) => github.workflow('report-later.yml')?.state

/** The GitHub requests from `from` on, as `METHOD path`. */
const requestsSince = (github: StandInGitHub, from: number) =>
  github.requests.slice(from).map((r) => `${r.method} ${r.path.split('?')[0]}`)

describe.concurrent('the reporting workflow runs only while a job is open', () => {
  it(
    'a new reporting workflow runs once, records itself and turns itself off; a hand-over turns it on; telling the last job turns it off',
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      const github = await standInGitHub(test, WORKFLOWS)
      const first = await report(service, github, '6001')
      expect(first.code).toBe(0)
      const index = indexIssue(github)
      // The index is made to record the workflow, locked, and the workflow is off: nothing is open.
      expect(index.locked).toBe(true)
      expect(workflowState(github)).toBe('disabled_manually')
      expect(index.body).toContain('**Reporting workflow:** [`report-later.yml`]')
      expect(index.body).toContain('⏸️ off: nothing is open')
      expect(first.summary).toContain('Nothing is open: the reporting workflow report-later.yml is turned off')

      const from = github.requests.length
      const asked = await handOver(service, github)
      expect(asked.code).toBe(0)
      expect(requestsSince(github, from)).toContain(`PUT /repos/${REPO}/actions/workflows/report-later.yml/enable`)
      expect(workflowState(github)).toBe('active')
      expect(asked.stdout).toContain('Turned on the reporting workflow report-later.yml')
      expect(indexIssue(github).body).toContain('🟢 on: a job is open')

      // Still working: it stays on.
      const early = await report(service, github, '6002')
      expect(working(early).map((j) => j.id)).toEqual([asked.outputs.jobId])
      expect(workflowState(github)).toBe('active')

      finish(service, asked.outputs.jobId)
      const later = await report(service, github, '6003')
      expect(reported(later).map((j) => j.id)).toEqual([asked.outputs.jobId])
      expect(workflowState(github)).toBe('disabled_manually')
      expect(indexIssue(github).records).toEqual([])
    },
    SEVERAL_RUNS_MS
  )

  it(
    'a hand-over while a reporting run turns the workflow off leaves it on, and its job is told',
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      // GitHub turns the workflow off at once but answers late: a hand-over comes in between.
      const github = await standInGitHub(test, { ...WORKFLOWS, delays: { 'workflow-disable': { ms: 1000, times: 2 } } })
      await report(service, github, '6101')
      const from = github.requests.length
      const [reporter, asked] = await Promise.all([
        startAction({
          inputs: { report: 'pending', ...commentInputs(service) },
          env: runnerEnvironment(github, 'schedule', workflowDispatchEvent(), {
            GITHUB_SERVER_URL: SERVER,
            GITHUB_RUN_ID: '6102',
            GITHUB_WORKFLOW_REF: `${REPO}/${WORKFLOW}@refs/heads/main`
          })
        }).done,
        handOver(service, github)
      ])
      expect([reporter.code, asked.code]).toEqual([0, 0])
      // Whichever saw the other, the workflow is on while the job is open.
      expect(requestsSince(github, from).filter((r) => r.endsWith('/enable')).length).toBeGreaterThan(0)
      expect(workflowState(github)).toBe('active')
      finish(service, asked.outputs.jobId)
      const later = await report(service, github, '6103')
      expect(reported(later).map((j) => j.id)).toEqual([asked.outputs.jobId])
      expect(workflowState(github)).toBe('disabled_manually')
    },
    SEVERAL_RUNS_MS
  )

  it(
    'a token without actions: write keeps the schedule, still hands over, and the summary says once what would turn it off',
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      const github = await standInGitHub(test, { ...WORKFLOWS, actionsWrite: false })
      const first = await report(service, github, '6201')
      expect(first.code).toBe(0)
      expect(workflowState(github)).toBe('active')
      expect(first.summary.match(/actions: write/g)).toHaveLength(1)
      expect(first.summary).toContain('keeps running on its schedule: its token may not turn it off')
      expect(first.stdout).not.toContain('::warning::')

      const from = github.requests.length
      const asked = await handOver(service, github)
      expect(asked.code).toBe(0)
      expect(indexIssue(github).records).toHaveLength(1)
      // The index says the workflow is on: the hand-over does not try to turn it on.
      expect(requestsSince(github, from).filter((r) => r.includes('/actions/workflows/'))).toEqual([])
      expect(asked.stdout).not.toContain('actions: write')

      finish(service, asked.outputs.jobId)
      const later = await report(service, github, '6202')
      expect(reported(later).map((j) => j.id)).toEqual([asked.outputs.jobId])
      expect(later.summary.match(/actions: write/g)).toHaveLength(1)
    },
    SEVERAL_RUNS_MS
  )
})

describe.concurrent('the index a reporting run reads', () => {
  it(
    "a reporting run's reads of the index with 250 jobs told before equal those with none",
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      const told = await standInGitHub(test, WORKFLOWS)
      // 250 jobs handed over and ended; reporting runs tell them, 20 a run.
      await seedRecords(service, told, 250, () => ({ activeReads: 0, final: 'completed' }))
      for (let run = 0; indexIssue(told).records.length > 0 && run < 20; run++) {
        expect((await report(service, told, String(6300 + run))).code).toBe(0)
      }
      expect(indexIssue(told).records).toEqual([])
      const fresh = await standInGitHub(test, WORKFLOWS)
      await report(service, fresh, '6400')

      const indexReads = async (github: StandInGitHub) => {
        await handOver(service, github)
        const from = github.requests.length
        const run = await report(service, github, '6500')
        expect(working(run)).toHaveLength(1)
        return github.requests.slice(from).filter((r) => r.method === 'GET')
      }
      const after250 = await indexReads(told)
      const afterNone = await indexReads(fresh)
      expect(after250.length).toBe(afterNone.length)
      expect(after250.map((r) => r.path.replace(/\d+/g, 'N'))).toEqual(
        afterNone.map((r) => r.path.replace(/\d+/g, 'N'))
      )
    },
    4 * SEVERAL_RUNS_MS
  )

  it(
    'another labelled issue is not the index; copies of a record beside it hide nothing; an outsider cannot comment',
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      const github = await standInGitHub(test, { ...WORKFLOWS, permissions: { 'octo-collaborator': 'write' } })
      // A triager put the label on an older issue (a roadmap).
      const roadmap = github.addIssue({ title: 'Roadmap', labels: [INDEX_LABEL], login: 'octo-triager' })
      const one = await handOver(service, github)
      const two = await handOver(service, github, 14)
      const index = indexIssue(github)
      expect(index.number).not.toBe(roadmap)
      expect(index.records).toHaveLength(2)
      expect(github.allComments.filter((c) => c.issueNumber === roadmap)).toEqual([])
      // Copies of the first record, and a swapped one (the second's record line in a new comment),
      // posted beside them by a collaborator: the index is locked to anyone else.
      const [first, second] = index.records
      github.addComment({ issueNumber: index.number, body: first.body, login: 'octo-collaborator' })
      github.addComment({ issueNumber: index.number, body: second.body, login: 'octo-collaborator' })
      github.addComment({ issueNumber: index.number, body: first.body, login: 'octo-collaborator' })
      expect(() => github.addComment({ issueNumber: index.number, body: first.body, login: 'mallory' })).toThrow(
        /locked/
      )
      finish(service, one.outputs.jobId)
      finish(service, two.outputs.jobId)
      const [a, b] = await Promise.all([
        startAction({
          inputs: { report: 'pending', ...commentInputs(service) },
          env: runnerEnvironment(github, 'schedule', workflowDispatchEvent(), {
            GITHUB_SERVER_URL: SERVER,
            GITHUB_RUN_ID: '6601',
            GITHUB_WORKFLOW_REF: `${REPO}/${WORKFLOW}@refs/heads/main`
          })
        }).done,
        report(service, github, '6602')
      ])
      // Each ending in exactly one run's reported.
      const all = [...reported(a), ...reported(b)].map((j) => j.id).sort()
      expect(all).toEqual([one.outputs.jobId, two.outputs.jobId].sort())
      for (const run of [a, b]) {
        expect(run.summary).toContain('3 records ignored')
        expect(run.summary.match(new RegExp(`#${roadmap}\\b`, 'g'))).toHaveLength(1)
      }
      // The roadmap's comments are never listed.
      expect(github.requests.filter((r) => r.path.includes(`/issues/${roadmap}/`))).toEqual([])
    },
    SEVERAL_RUNS_MS
  )

  it(
    'a newer job that ended is told within two runs behind 22 older jobs still working, and the counts are true',
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      const github = await standInGitHub(test, WORKFLOWS)
      const ids = await seedRecords(service, github, 23, (n) =>
        n === 22 ? { activeReads: 0, final: 'completed' } : { activeReads: 1_000_000 }
      )
      const newest = ids[22]
      const first = await report(service, github, '6701')
      expect(working(first)).toHaveLength(20)
      expect(reported(first)).toEqual([])
      expect(first.summary).toContain('3 more jobs left for the next reporting run: a run reads at most 20.')
      const second = await report(service, github, '6702')
      expect(reported(second).map((j) => j.id)).toEqual([newest])
      // The three the first left, then from the oldest again.
      expect(working(second).map((j) => j.id)).toEqual([...ids.slice(20, 22), ...ids.slice(0, 17)])
      expect(second.summary).toContain('3 more jobs left for the next reporting run')
    },
    SEVERAL_RUNS_MS
  )
})

describe.concurrent('the index issue is a dashboard', () => {
  it(
    'lists the open jobs with where each was asked, and the endings told lately with their pull requests',
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      const github = await standInGitHub(test, WORKFLOWS)
      await report(service, github, '6801')
      const one = await handOver(service, github)
      const two = await handOver(service, github, 14)
      let body = indexIssue(github).body
      // Each hand-over lists its job at once.
      expect(body).toContain('### ⏳ Open (2)')
      const reply = github.comments.find((c) => c.issueNumber === 12 && !c.body.includes('docs-agent-record: index'))
      expect(body).toContain(`| \`${one.outputs.jobId}\` | [#12](${SERVER}/${REPO}/issues/12#issuecomment-`)
      expect(body).toContain(`| \`${two.outputs.jobId}\` | [#14](${SERVER}/${REPO}/issues/14#issuecomment-`)
      expect(reply).toBeDefined()

      finish(service, one.outputs.jobId)
      await report(service, github, '6802')
      body = indexIssue(github).body
      expect(body).toContain('### ⏳ Open (1)')
      expect(body).toMatch(
        new RegExp(
          `\\| \`${two.outputs.jobId}\` \\| \\[#14\\]\\([^)]+\\) \\| \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC \\| \`active\` \\|`
        )
      )
      expect(body).toContain(
        `| \`${one.outputs.jobId}\` | ✅ \`completed\` | [octo-org/docs-site#31](${AGENT_PR_LINK}) | [#12](${SERVER}/${REPO}/issues/12#issuecomment-`
      )
      // The state the dashboard shows is the signed marker's.
      expect(
        readIndexMarker(body, {
          key: { apiKey: service.apiKey },
          host: 'github.example',
          repository: REPO,
          issue: indexIssue(github).number,
          projectId: 'docs'
        })?.recent.map((e) => e.job)
      ).toEqual([one.outputs.jobId])
    },
    SEVERAL_RUNS_MS
  )

  it(
    'a hand-over turns the workflow on when the index says on but a failed switch left it off, and its job is told',
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      let armed = false
      const when = () => armed
      const github = await standInGitHub(test, {
        ...WORKFLOWS,
        faults: {
          // "off" not written, and turning it on again answered 502 twice: the body says on, the workflow is off.
          'issue-update': { status: 502, message: 'Server Error', when, times: 1 },
          'workflow-enable': { status: 502, message: 'Server Error', when, times: 2 }
        }
      })
      await report(service, github, '6a01')
      const first = await handOver(service, github)
      finish(service, first.outputs.jobId)
      armed = true
      const told = await report(service, github, '6a02')
      armed = false
      expect(told.code).toBe(0)

      expect(reported(told).map((j) => j.id)).toEqual([first.outputs.jobId])
      expect(told.stdout).not.toContain('failed unexpectedly')
      expect(workflowState(github)).toBe('disabled_manually')
      expect(indexIssue(github).body).toContain('🟢 on')

      const from = github.requests.length
      // Another thread: #12 keeps the first job, and a request there is its follow-up.
      const asked = await handOver(service, github, 14)
      expect(asked.code).toBe(0)
      expect(requestsSince(github, from)).toContain(`PUT /repos/${REPO}/actions/workflows/report-later.yml/enable`)
      expect(workflowState(github)).toBe('active')
      finish(service, asked.outputs.jobId)
      const later = await report(service, github, '6a03')
      expect(reported(later).map((j) => j.id)).toEqual([asked.outputs.jobId])
    },
    SEVERAL_RUNS_MS
  )

  it(
    "a record's final edit GitHub made despite its 502 is read back: the run that told it lists it, the next lists it not",
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      let armed = false
      const github = await standInGitHub(test, {
        ...WORKFLOWS,
        faults: {
          'comment-update': {
            status: 502,
            message: 'Server Error',
            made: true,
            times: 1,
            when: (req) => armed && String(req.body?.body).includes('Told')
          }
        }
      })
      await report(service, github, '6b01')
      const asked = await handOver(service, github)
      finish(service, asked.outputs.jobId)
      armed = true
      const told = await report(service, github, '6b02')
      expect(told.code).toBe(0)
      expect(github.madeDespiteFault).toHaveLength(1)
      expect(reported(told).map((j) => j.id)).toEqual([asked.outputs.jobId])
      expect(told.stdout).not.toContain('Could not tell all of the ending')
      expect(indexIssue(github).records).toEqual([])
      const next = await report(service, github, '6b03')
      expect(reported(next)).toEqual([])
    },
    SEVERAL_RUNS_MS
  )

  it(
    'a told record whose dashboard edit failed stays final, and the next run lists its ending once and deletes it',
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      let armed = false
      const github = await standInGitHub(test, {
        ...WORKFLOWS,
        faults: { 'issue-update': { status: 502, message: 'Server Error', when: () => armed, times: 1 } }
      })
      await report(service, github, '6901')
      const asked = await handOver(service, github)
      finish(service, asked.outputs.jobId)
      armed = true
      const failed = await report(service, github, '6902')
      expect(failed.code).toBe(0)
      expect(reported(failed).map((j) => j.id)).toEqual([asked.outputs.jobId])
      expect(failed.stdout).toContain('Could not keep the index issue')
      expect(indexIssue(github).records).toHaveLength(1)
      expect(indexIssue(github).records[0].body).toContain('Told')

      const next = await report(service, github, '6903')
      expect(reported(next)).toEqual([])
      expect(indexIssue(github).records).toEqual([])
      const body = indexIssue(github).body
      expect(body.split(`\`${asked.outputs.jobId}\``)).toHaveLength(2)
      expect(body).toContain('No ending told yet.'.slice(0, 0) + '### 📬 Ended lately')
    },
    SEVERAL_RUNS_MS
  )
})
