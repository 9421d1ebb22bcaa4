// The run's ending always ends, through the bundled action: a cancel while the ending is told is
// handled as any other (the summary, the final reply and the note are still written, within their
// bound), and GitHub silent after the job's end costs the ending one shared bound, not one per call.
import { describe, expect, it } from 'vitest'
import { expectCleanOutput } from '../support/expect-clean-output.js'
import { inputsFor, runAction, startAction } from '../support/run-action.js'
import { changedFile, pushEvent, runnerEnvironment, standInCommit } from '../support/stand-in-github.js'
import {
  AGENT_PR,
  commentEnv,
  commentInputs,
  heading,
  LONG_TEST_MS,
  notes,
  OPENS_AGENT_PR,
  replies,
  SERVER,
  standIn,
  standInGitHub,
  TOKEN
} from '../support/ending-runs.js'
import { msAfter, withinTimeout } from '../support/step-time.js'

/** What the ending may take after the job's end: the documented 5 s for every GitHub call together. */
const ENDING_BOUND_MS = 5000

/** Resolves once `ready()` holds, checked every 5 ms; rejects if the run ends first. */
function until(action: ReturnType<typeof startAction>, ready: () => boolean): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const poll = setInterval(() => {
      if (!ready()) return
      clearInterval(poll)
      resolve()
    }, 5)
    void action.done.then((run) => {
      clearInterval(poll)
      reject(new Error(`The run ended first:\n${run.stdout}`))
    })
  })
}

describe.concurrent('a cancel while the ending is told', () => {
  it(
    'GitHub slow on the pull request: the summary, the final reply and the note are written, within the bound',
    async (test) => {
      const service = await standIn(test, OPENS_AGENT_PR)
      const github = await standInGitHub(test, { faults: { pull: 'hang' } })
      const action = startAction({
        inputs: commentInputs(service),
        env: commentEnv(github, '/docs document the retries')
      })
      // The job has ended and the ending reads its pull request, which GitHub never answers: the runner cancels.
      await until(action, () => github.pullReads.length > 0)
      const sentAt = Date.now()
      action.child.kill('SIGINT')
      const run = await action.done
      const job = run.outputs.jobId

      // The process ended by itself (a signal's default would kill it: code null), as the run ended.
      expect(run.code).toBe(0)
      expect(run.endedAt - sentAt).toBeLessThan(withinTimeout(ENDING_BOUND_MS))
      expect(run.outputs.status).toBe('completed')
      expect(heading(run.summary)).toBe(`✅ Completed: pull request #${AGENT_PR} is ready`)
      expect(run.summary).toContain(job)
      const [reply] = replies(github)
      expect(reply.body).toMatch(/^✅ /)
      expect(reply.body).not.toContain('updated as it goes')
      // The note on the job's pull request (the thread that asked gets one of its own).
      expect(notes(github).filter((note) => note.issueNumber === AGENT_PR)).toHaveLength(1)
      expectCleanOutput(run, service.apiKey)
    },
    LONG_TEST_MS
  )
})

describe.concurrent('GitHub silent after the job ends', () => {
  it(
    'every GitHub call of the ending (reply, details, note) shares one 5 s bound, side by side',
    async (test) => {
      const service = await standIn(test, OPENS_AGENT_PR)
      const github = await standInGitHub(test)
      const action = startAction({
        inputs: commentInputs(service),
        env: commentEnv(github, '/docs document the retries')
      })
      // From the create on, GitHub answers nothing.
      await until(action, () => service.requestsOf('POST').length > 0)
      github.hangFromNow()
      const run = await action.done
      const lastRead = service.requestsOf('GET').at(-1)

      expect(run.code).toBe(0)
      expect(run.outputs.status).toBe('completed')
      expect(service.record(run.outputs.jobId)?.status).toBe('completed')
      // The details and the note's read started side by side, not one after the other's limit.
      expect(github.pullReads).toHaveLength(1)
      const noteRead = github.threadReads.find((r) => r.pathname.endsWith(`/issues/${AGENT_PR}/comments`))
      expect(noteRead).toBeDefined()
      expect(Math.abs(noteRead!.at - github.pullReads[0].at)).toBeLessThan(ENDING_BOUND_MS)
      // The step ended within the bound after the read that saw the job's end.
      expect(msAfter(lastRead, run)).toBeLessThan(withinTimeout(ENDING_BOUND_MS))
      // The summary is there, without the pull request's details.
      expect(heading(run.summary)).toBe(`✅ Completed: pull request #${AGENT_PR} is ready`)
      expectCleanOutput(run, service.apiKey)
    },
    LONG_TEST_MS
  )
})

describe.concurrent('GitHub that left a request of the run unanswered', () => {
  it(
    'is not waited for again at the end: no request after the job ends, and the log says why',
    async (test) => {
      const history = [standInCommit('Start', [changedFile('src/start.ts')]), standInCommit('Add --dry-run', [])]
      const service = await standIn(test, OPENS_AGENT_PR)
      // GitHub never answers: the context's read gets no answer within its share of the step.
      const github = await standInGitHub(test, { hang: true })
      const run = await runAction({
        inputs: inputsFor(service, { githubToken: TOKEN, timeout: '10s' }),
        env: runnerEnvironment(github, 'push', pushEvent({ before: history[0].sha, commits: history.slice(1) }), {
          GITHUB_SERVER_URL: SERVER
        })
      })
      const lastRead = service.requestsOf('GET').at(-1)

      expect(run.code).toBe(0)
      expect(run.outputs.status).toBe('completed')
      expect(github.requests.length).toBeGreaterThan(0)
      // Nothing asked of GitHub once the job had ended: no details, no note.
      expect(github.requests.filter((r) => r.at >= lastRead!.at)).toEqual([])
      expect(run.stdout).toMatch(/GitHub left a request of this run unanswered/)
      expect(run.stdout).not.toMatch(/Left a note/)
      expectCleanOutput(run, service.apiKey)
    },
    LONG_TEST_MS
  )
})
