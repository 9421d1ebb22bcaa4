// The index issue as it is made, through the bundled action against the stand-ins, GitHub's state
// kept across runs: an issue GitHub made despite its 502 is found again and used, not made twice; two
// hand-overs that make an index at once, the older's marker written last, both record in the one
// index reporting runs read. Each job handed over is then told by a reporting run.
import { describe, expect, it } from 'vitest'
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
  commentInputs,
  LONG_TEST_MS,
  REPO,
  SERVER,
  SOURCE,
  standIn,
  standInGitHub
} from '../support/ending-runs.js'

const INDEX_LABEL = 'docs-agent:jobs'
const WORKFLOW = '.github/workflows/report-later.yml'
const WORKFLOWS = { workflows: [{ id: 7001, path: WORKFLOW }] }
const ENDS = { plan: { activeReads: 1, prLink: AGENT_PR_LINK, repository: SOURCE } }
const SEVERAL_RUNS_MS = 2 * LONG_TEST_MS

const reported = (run: ActionRun): { id: string; status: string }[] => JSON.parse(run.outputs.reported ?? 'null')

/** A run of the reporting workflow, on its schedule. */
const report = (service: StandInService, github: StandInGitHub, runId: string) =>
  runAction({
    inputs: { report: 'pending', ...commentInputs(service) },
    env: runnerEnvironment(github, 'schedule', workflowDispatchEvent(), {
      GITHUB_SERVER_URL: SERVER,
      GITHUB_RUN_ID: runId,
      GITHUB_WORKFLOW_REF: `${REPO}/${WORKFLOW}@refs/heads/main`
    })
  })

/** A /docs comment on `thread` whose run hands its job over (wait false). */
const handOver = (service: StandInService, github: StandInGitHub, thread: number) =>
  startAction({
    inputs: commentInputs(service, { wait: 'false' }),
    env: runnerEnvironment(
      github,
      'issue_comment',
      issueCommentEvent({ body: `/docs document the retries of #${thread}`, number: thread }),
      { GITHUB_SERVER_URL: SERVER }
    )
  })

/** The open labelled issues, and the records on each. */
function labelled(github: StandInGitHub) {
  return github.issues
    .filter((i) => i.labels.includes(INDEX_LABEL) && github.issue(i.number)?.state === 'open')
    .map((i) => ({
      number: i.number,
      records: github.allComments.filter((c) => c.issueNumber === i.number && c.body.includes('docs-agent-record:'))
    }))
}

/** Reporting runs until each of `jobs` is told (at most three). */
async function tellAll(service: StandInService, github: StandInGitHub, jobs: string[]): Promise<string[]> {
  const told: string[] = []
  for (let run = 0; run < 3 && !jobs.every((j) => told.includes(j)); run++) {
    const done = await report(service, github, String(6800 + run))
    expect(done.code).toBe(0)
    told.push(...reported(done).map((j) => j.id))
  }
  return told.sort()
}

describe.concurrent('the index issue as it is made', () => {
  it(
    'an index issue GitHub made despite its 502 is found again and used: one index, the job recorded and told',
    async (test) => {
      const service = await standIn(test, ENDS)
      const github = await standInGitHub(test, {
        ...WORKFLOWS,
        faults: { 'issue-create': { status: 502, message: 'Server Error', made: true, times: 1 } }
      })
      const asked = await handOver(service, github, 12).done
      expect(asked.code).toBe(0)
      expect(github.madeDespiteFault.map((r) => r.method)).toEqual(['POST'])
      expect(asked.stdout).not.toContain('Could not leave the record')
      expect(asked.stdout).toContain(`Handed job ${asked.outputs.jobId} over: its record is in issue #500`)
      // One issue made, marked and locked, holding the record.
      expect(github.issues.map((i) => i.number)).toEqual([500])
      expect(github.issue(500)?.locked).toBe(true)
      expect(labelled(github).map((i) => [i.number, i.records.length])).toEqual([[500, 1]])
      // A second hand-over uses it, makes none; it lists the labelled issues once, and reads the index's
      // body twice: for the reporting workflow (whose words it promises), and just before its dashboard edit.
      const from = github.requests.length
      const again = await handOver(service, github, 14).done
      expect(again.code).toBe(0)
      expect(github.issues.map((i) => i.number)).toEqual([500])
      const reads = github.requests.slice(from).filter((r) => r.method === 'GET')
      expect(reads.filter((r) => r.path.includes('/issues?labels='))).toHaveLength(1)
      expect(reads.filter((r) => r.pathname === `/repos/${REPO}/issues/500`)).toHaveLength(2)
      expect(await tellAll(service, github, [asked.outputs.jobId, again.outputs.jobId])).toEqual(
        [asked.outputs.jobId, again.outputs.jobId].sort()
      )
    },
    SEVERAL_RUNS_MS
  )

  it(
    "two hand-overs make an index at once, the older's marker written last: both records are in the index reporting runs read, and both are told",
    async (test) => {
      const service = await standIn(test, ENDS)
      let release = (): void => {}
      const held = new Promise<void>((resolve) => (release = resolve))
      // The first issue is made at once, but its maker hears of it only once the second run has ended.
      const github = await standInGitHub(test, {
        ...WORKFLOWS,
        delays: { 'issue-create': { ms: 0, times: 1, until: held } }
      })
      const first = handOver(service, github, 12)
      for (let i = 0; i < 400 && !github.issues.length; i++) await new Promise((resolve) => setTimeout(resolve, 25))
      expect(github.issues.map((i) => i.number)).toEqual([500])
      const second = await handOver(service, github, 14).done
      release()
      const one = await first.done
      expect([one.code, second.code]).toEqual([0, 0])
      for (const run of [one, second]) expect(run.stdout).not.toContain('Could not leave the record')
      // One index open, #500 (the older), with both records; the newer is closed.
      expect(labelled(github).map((i) => [i.number, i.records.length])).toEqual([[500, 2]])
      expect(github.issue(501)?.state).toBe('closed')
      expect(await tellAll(service, github, [one.outputs.jobId, second.outputs.jobId])).toEqual(
        [one.outputs.jobId, second.outputs.jobId].sort()
      )
    },
    SEVERAL_RUNS_MS
  )
})
