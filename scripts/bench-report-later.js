// @ts-check
// What report later costs a team, held against handed over, as a day of jobs (playDay below): each
// job takes 10 minutes on the service. A held run costs the job's time plus what the action adds around
// it (start-up, the last poll, the ending), measured on a 3 s job and added to 10 minutes; the 10
// minutes are not waited for. Handed over, every run of the day is a real run of the bundle against the
// stand-ins, in the day's order.
import { startAction } from '../test/support/run-action.js'
import {
  apiPullRequest,
  commitId,
  pullRequestEvent,
  pushEvent,
  runnerEnvironment,
  startStandInGitHub,
  workflowDispatchEvent
} from '../test/support/stand-in-github.js'
import { startStandInService } from '../test/support/stand-in-service.js'

export const JOB_MS = 10 * 60_000
/** The short job a held run's overhead is measured on. */
const SHORT_JOB_MS = 3000
const TOKEN = 'ghs_bench_token_0123456789'
const SERVER = 'https://github.example'

/** What a held run adds to its job's time: its wall time on a 3 s job, less the 3 s. */
export async function heldOverheadMs(/** @type {string} */ entry, /** @type {string} */ node) {
  const service = await startStandInService({ plan: { activeMs: SHORT_JOB_MS } })
  try {
    const inputs = { projectId: 'docs', prompt: 'Document the flag.', apiKey: service.apiKey, baseUrl: service.url }
    const done = await startAction({ entry, node, inputs: { ...inputs, context: 'none' } }).done
    if (done.code !== 0) throw new Error(`The held run failed: ${done.stdout.slice(-500)}`)
    return done.endedAt - done.startedAt - SHORT_JOB_MS
  } finally {
    await service.close()
  }
}

// --- A day of jobs ----------------------------------------------------------------------------------
// What a team pays in a day, held against handed over, with the example workflows as written: on-push
// (or any creating workflow) holding its runner for each job; or handing each job over (wait: false),
// with report-later.yml telling the endings: its schedule (every 15 minutes, a run only while the
// workflow is on: the action turns it off when nothing is open, and a hand-over turns it on), and its
// run for the agent's pull request (opened when the job ends). The day is played in order, compressed:
// each creating run, each pull request's run and each scheduled run the stand-in GitHub's workflow
// state lets start is a real run of the bundle against the stand-ins, nothing injected; the clock is
// the list of events, never slept through. A scheduled run with nothing new since the last one, which
// found the same, is counted at that run's seconds instead of being run again (it would read the same).

export const DAY_MS = 24 * 60 * 60_000
/** report-later.yml's cron: every 15 minutes. */
export const SCHEDULE_MS = 15 * 60_000
const REPORT_WORKFLOW = '.github/workflows/report-later.yml'
const REPO = 'octo-org/docs-site'
const AGENT_PR = 31

/**
 * @typedef {object} DayRow
 * @property {number} jobs Jobs a day.
 * @property {number} scale The day's share played (1: all of it): the counts below are for the whole day.
 * @property {number[]} heldRunMs Held: the runner time of each workflow job (the job's 10 minutes and the action's own).
 * @property {number[]} createMs Handed over: each creating run.
 * @property {number[]} pullRequestMs Each run of report-later.yml for the agent's pull request.
 * @property {number[]} scheduleMs Each scheduled run of report-later.yml.
 * @property {number} realRuns Runs of the bundle this row took.
 */

/**
 * Plays a day of `jobs` 10-minute jobs, evenly spread, each way (see the section's comment), over the
 * first `window` of the day (the rest is the same pattern: counted by scaling).
 * @param {{ entry: string, node: string, jobs: number, window: number, heldMs: number }} options
 * @returns {Promise<DayRow>}
 */
export async function playDay({ entry, node, jobs, window, heldMs }) {
  const service = await startStandInService({
    plan: { activeReads: 1_000_000, prLink: `${SERVER}/${REPO}/pull/${AGENT_PR}`, repository: `${SERVER}/${REPO}` }
  })
  const github = await startStandInGitHub({
    workflows: [{ id: 7001, path: REPORT_WORKFLOW }],
    repository: { pulls: { [AGENT_PR]: apiPullRequest({ number: AGENT_PR, title: 'Docs, updated' }) } }
  })
  let runId = 9000
  const env = (/** @type {string} */ name, /** @type {object} */ payload, /** @type {string} */ workflow) =>
    runnerEnvironment(github, name, payload, {
      GITHUB_SERVER_URL: SERVER,
      GITHUB_RUN_ID: String(++runId),
      GITHUB_WORKFLOW_REF: `${REPO}/${workflow}@refs/heads/main`
    })
  const base = { projectId: 'docs', apiKey: service.apiKey, baseUrl: service.url, githubToken: TOKEN }
  const run = async (
    /** @type {Record<string, string>} */ inputs,
    /** @type {Record<string, string>} */ environment
  ) => {
    const done = await startAction({ entry, node, inputs: { ...base, ...inputs }, env: environment }).done
    if (done.code !== 0) throw new Error(`A run of the day failed: ${done.stdout.slice(-800)}`)
    return { ms: done.endedAt - done.startedAt, told: JSON.parse(done.outputs.reported ?? '[]').length > 0 }
  }
  const report = (/** @type {string} */ event, /** @type {object} */ payload) =>
    run({ report: 'pending' }, env(event, payload, REPORT_WORKFLOW))
  /** @type {DayRow} */
  const row = { jobs, scale: 1 / window, heldRunMs: [], createMs: [], pullRequestMs: [], scheduleMs: [], realRuns: 0 }
  try {
    // A new reporting workflow's first run, before the day: it records itself in the index and turns
    // itself off with nothing open. Not counted: it runs once, not each day.
    await report('workflow_dispatch', workflowDispatchEvent())
    const end = window * DAY_MS
    /** @type {{ at: number, kind: 'create' | 'end' | 'tick', job?: number }[]} */
    const events = []
    for (let i = 0; i < jobs; i++) {
      const at = ((i + 0.5) * DAY_MS) / jobs
      if (at >= end) break
      events.push({ at, kind: 'create', job: i }, { at: at + JOB_MS, kind: 'end', job: i })
    }
    for (let at = 0; at < end; at += SCHEDULE_MS) events.push({ at, kind: 'tick' })
    events.sort((a, b) => a.at - b.at || (a.kind === 'tick' ? 1 : -1))
    /** @type {Map<number, string>} */
    const jobIds = new Map()
    // The last scheduled run's time, while nothing happened since it and it told nothing (else null).
    /** @type {number | null} */
    let unchanged = null
    for (const event of events) {
      if (event.kind === 'create') {
        unchanged = null
        row.heldRunMs.push(JOB_MS + heldMs)
        const push = pushEvent({ after: commitId(`day-${jobs}-${event.job}`) })
        const before = service.jobs.size
        const created = await run(
          { prompt: 'Bring the docs up to date.', wait: 'false', context: 'none' },
          env('push', push, '.github/workflows/docs.yml')
        )
        row.createMs.push(created.ms)
        row.realRuns++
        const made = [...service.jobs.keys()][before]
        if (made) jobIds.set(event.job ?? 0, made)
      } else if (event.kind === 'end') {
        unchanged = null
        const job = service.jobs.get(jobIds.get(event.job ?? 0) ?? '')
        if (job) job.plan = { ...job.plan, activeReads: 0, final: 'completed' }
        // The agent's pull request opened: report-later.yml runs for it, if it is on.
        if (github.isWorkflowActive('report-later.yml')) {
          row.pullRequestMs.push((await report('pull_request', pullRequestEvent({ number: AGENT_PR }))).ms)
          row.realRuns++
        }
      } else if (github.isWorkflowActive('report-later.yml')) {
        if (unchanged === null) {
          const scheduled = await report('schedule', {})
          row.realRuns++
          row.scheduleMs.push(scheduled.ms)
          // A run that told nothing leaves the state as it found it: the next, with nothing new, reads the same.
          if (!scheduled.told) unchanged = scheduled.ms
        } else row.scheduleMs.push(unchanged)
      }
    }
    return row
  } finally {
    await service.close()
    await github.close()
  }
}

/**
 * A row's day as a team pays it: runs, runner seconds, and billed minutes (each workflow job rounded
 * up to a whole minute, after `setupMs` of set-up added to it).
 * @param {number[]} runs @param {number} scale @param {number} setupMs
 */
export function dayCost(runs, scale, setupMs) {
  const runnerMs = runs.reduce((sum, ms) => sum + ms + setupMs, 0) * scale
  const billed = runs.reduce((sum, ms) => sum + Math.ceil((ms + setupMs) / 60_000), 0) * scale
  return { runs: runs.length * scale, runnerMs, billed }
}
