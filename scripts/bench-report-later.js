// @ts-check
// Runner time per job for a job that takes 10 minutes, held (the step follows it to its end) against
// handed over (the creating step with `wait: false`, plus the reporting runs that read it), measured
// in one run of `npm run bench` against the stand-ins. The 10 minutes are not waited for: a held run
// costs the job's time plus what the action adds around it (start-up, the last poll, the ending), and
// that is measured on a 3 s job and added to 10 minutes. Handed over, each step is run for real: the
// create (a push, so the pending commit status is set too), a reporting run that finds the job still
// working, and the reporting run that tells its ending (reply, note, commit status, record final).
// Counted as if the job were alone in the index (a reporting run shared by several jobs costs each
// less): a schedule of 15 minutes reads a 10-minute job at most once while it works, and one more
// run (the schedule's next, or the agent's pull request's event) tells its ending.
import { startAction } from '../test/support/run-action.js'
import { commitId, pushEvent, runnerEnvironment, startStandInGitHub } from '../test/support/stand-in-github.js'
import { startStandInService } from '../test/support/stand-in-service.js'

export const JOB_MS = 10 * 60_000
/** The short job a held run's overhead is measured on. */
const SHORT_JOB_MS = 3000
/** Reporting runs a job alone in the index costs: one while it works, one that tells its ending. */
export const REPORTING_RUNS_PER_JOB = 2
const TOKEN = 'ghs_bench_token_0123456789'
const SERVER = 'https://github.example'

/**
 * @param {{ entry: string, node: string, runs: number }} options
 * @returns {Promise<{ heldMs: number[], createMs: number[], workingMs: number[], tellMs: number[] }>}
 */
export async function measureReportLater({ entry, node, runs }) {
  /** @type {{ heldMs: number[], createMs: number[], workingMs: number[], tellMs: number[] }} */
  const measured = { heldMs: [], createMs: [], workingMs: [], tellMs: [] }
  for (let run = 0; run < runs; run++) {
    measured.heldMs.push(JOB_MS + (await heldOverheadMs(entry, node)))
    const handed = await handedOverMs(entry, node)
    measured.createMs.push(handed.createMs)
    measured.workingMs.push(handed.workingMs)
    measured.tellMs.push(handed.tellMs)
  }
  return measured
}

/** What a held run adds to its job's time: its wall time on a 3 s job, less the 3 s. */
async function heldOverheadMs(/** @type {string} */ entry, /** @type {string} */ node) {
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

/** The wall time of each step of a handed-over job: the create, a reporting run while it works, the one that tells it. */
async function handedOverMs(/** @type {string} */ entry, /** @type {string} */ node) {
  const service = await startStandInService({ plan: { activeReads: 1_000_000 } })
  const github = await startStandInGitHub()
  try {
    const base = { projectId: 'docs', apiKey: service.apiKey, baseUrl: service.url, githubToken: TOKEN }
    const push = runnerEnvironment(github, 'push', pushEvent({ after: commitId('bench-push') }), {
      GITHUB_SERVER_URL: SERVER
    })
    const created = await startAction({
      entry,
      node,
      inputs: { ...base, prompt: 'Document the flag.', wait: 'false', context: 'none' },
      env: push
    }).done
    if (created.code !== 0) throw new Error(`The creating run failed: ${created.stdout.slice(-500)}`)
    const report = () =>
      startAction({
        entry,
        node,
        inputs: { ...base, report: 'pending' },
        env: runnerEnvironment(github, 'schedule', {}, { GITHUB_SERVER_URL: SERVER })
      }).done
    const working = await report()
    const job = service.jobs.get(created.outputs.jobId)
    if (!job) throw new Error('The creating run made no job.')
    job.plan = { ...job.plan, activeReads: 0 }
    const told = await report()
    if (!told.outputs.reported?.includes('"completed"'))
      throw new Error(`The reporting run told nothing: ${told.stdout.slice(-500)}`)
    const wall = (/** @type {{startedAt: number, endedAt: number}} */ r) => r.endedAt - r.startedAt
    return { createMs: wall(created), workingMs: wall(working), tellMs: wall(told) }
  } finally {
    await service.close()
    await github.close()
  }
}
