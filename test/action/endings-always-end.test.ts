// The run's ending always ends, through the bundled action: a cancel while the ending is told is
// handled as any other (the summary, the final reply and the note are still written, within their
// bound), and GitHub silent after the job's end costs the ending one shared bound, not one per call.
import { afterAll, describe, expect, it, type TestContext } from 'vitest'
import { expectCleanOutput } from '../support/expect-clean-output.js'
import { inputsFor, runAction, startAction } from '../support/run-action.js'
import {
  apiPullRequest,
  changedFile,
  issueCommentEvent,
  pushEvent,
  removeEventFiles,
  runnerEnvironment,
  standInCommit,
  startStandInGitHub,
  type Options as GitHubOptions,
  type StandInGitHub
} from '../support/stand-in-github.js'
import { startStandInService, type Options, type StandInService } from '../support/stand-in-service.js'
import { msAfter, withinTimeout } from '../support/step-time.js'

const TOKEN = 'ghs_endings_edge_token_0123456789'
const SERVER = 'https://github.example'
const REPO = 'octo-org/docs-site'
const SOURCE = `${SERVER}/${REPO}`
const AGENT_PR = 31
const AGENT_PR_LINK = `${SERVER}/${REPO}/pull/${AGENT_PR}`
/** A job whose source is this repository, and which opens AGENT_PR there: its run reads the pull request and leaves a note. */
const OPENS_AGENT_PR: Options = {
  plan: { activeReads: 1, prLink: AGENT_PR_LINK, repository: SOURCE },
  messagePlan: { activeReads: 1, prLink: AGENT_PR_LINK, repository: SOURCE }
}
/** What the ending may take after the job's end: the documented 5 s for every GitHub call together. */
const ENDING_BOUND_MS = 5000
/** A test of several runs, or of a bound of a few seconds: more than the default 15 s on a loaded machine. */
const LONG_TEST_MS = 30_000

afterAll(removeEventFiles)

async function standIn(test: TestContext, options: Options = {}): Promise<StandInService> {
  const service = await startStandInService(options)
  test.onTestFinished(() => service.close())
  return service
}

async function standInGitHub(test: TestContext, options: GitHubOptions = {}): Promise<StandInGitHub> {
  const github = await startStandInGitHub({
    repository: { pulls: { [AGENT_PR]: apiPullRequest({ number: AGENT_PR, title: 'Retries, documented' }) } },
    ...options
  })
  test.onTestFinished(() => github.close())
  return github
}

function commentEnv(github: StandInGitHub, body: string, onPullRequest = false): Record<string, string> {
  const event = issueCommentEvent({ body, number: onPullRequest ? AGENT_PR : 12, onPullRequest })
  return runnerEnvironment(github, 'issue_comment', event, { GITHUB_SERVER_URL: SERVER })
}

function commentInputs(service: StandInService, extra: Record<string, string> = {}): Record<string, string> {
  return {
    projectId: 'docs',
    apiKey: service.apiKey,
    baseUrl: service.url,
    pollInterval: '1s',
    timeout: '30s',
    githubToken: TOKEN,
    ...extra
  }
}

const notes = (github: StandInGitHub) => github.comments.filter((c) => c.body.includes('<!-- docs-agent-job: '))
const replies = (github: StandInGitHub) => github.comments.filter((c) => !c.body.includes('<!-- docs-agent-job: '))
/** The summary's heading: the first <h3>, as text. */
const heading = (summary: string): string => /<h3>(.*?)<\/h3>/.exec(summary)?.[1] ?? ''

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
