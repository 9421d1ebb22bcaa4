// A group's job handed over before it opened its docs pull request (its run's timeout ran out): the
// group's look-up finds no docs pull request, so the next push would create a second job beside the
// working one. It reads the index's open record of the group instead, sees the job still working at
// the service, and sends nothing (held, the mark kept); once the job has ended, a push goes on as
// before. Every write to the service is counted.
import { afterAll, describe, expect, it, type TestContext } from 'vitest'
import { inputsFor, runAction, type ActionRun } from '../support/run-action.js'
import {
  changedFile,
  pushEvent,
  removeEventFiles,
  runnerEnvironment,
  standInCommit,
  startStandInGitHub,
  type Options as GitHubOptions,
  type StandInCommit
} from '../support/stand-in-github.js'
import { startStandInService, type StandInService } from '../support/stand-in-service.js'

const TOKEN = 'ghs_stand_in_token_0123456789'
const REPO = 'octo-org/docs-site'
const SOURCE = `https://github.example/${REPO}`
const GROUP = 'docs-follow-code'
const SEVERAL_RUNS_MS = 90_000

afterAll(removeEventFiles)

const base = standInCommit('Start the CLI', [changedFile('src/cli.ts')])
const [a, b, c] = ['a', 'b', 'c'].map((name) =>
  standInCommit(`Add the ${name} flag`, [changedFile(`src/flag-${name}.ts`)])
)

const creates = (service: StandInService) => service.requestsOf('POST').filter((r) => r.path.endsWith('/job'))
const writes = (service: StandInService) => service.requestsOf('POST').length

/** The stand-ins, and a push to main with the group; `options` are the stand-in GitHub's, read live (its faults). */
async function world(test: TestContext) {
  const service = await startStandInService({
    // The first job works until the test ends it; a later one ends at its second read.
    plan: (n) => ({ activeReads: n === 1 ? 1_000_000 : 1, prLink: `${SOURCE}/pull/${30 + n}`, repository: SOURCE })
  })
  const options: GitHubOptions = { repository: { history: [base, a, b, c], workflowRuns: [] } }
  const github = await startStandInGitHub(options)
  test.onTestFinished(async () => {
    await service.close()
    await github.close()
  })
  const push = (before: StandInCommit, commits: StandInCommit[], extra: Record<string, string> = {}) =>
    runAction({
      inputs: inputsFor(service, { prompt: 'Keep the docs in step', githubToken: TOKEN, group: GROUP, ...extra }),
      env: runnerEnvironment(github, 'push', pushEvent({ before: before.sha, commits }))
    })
  return { service, github, options, push }
}

describe.concurrent('a group whose job was handed over', () => {
  it(
    'a push while the handed-over job works creates no second job and says why; once it has ended, a push goes on',
    async (test) => {
      const { service, github, push } = await world(test)
      const first: ActionRun = await push(base, [a], { timeout: '5s' })
      expect(first.code).toBe(1)
      const jobId = first.outputs.jobId
      expect(creates(service)).toHaveLength(1)
      const index = github.issues.find((i) => i.labels.includes('docs-agent:jobs'))
      expect(index).toBeDefined()

      const second = await push(a, [b])
      expect(second.code).toBe(0)
      expect(creates(service)).toHaveLength(1)
      expect(second.outputs).toMatchObject({ jobId })
      expect(second.stdout).toContain(
        `Group ${GROUP}'s job ${jobId} was handed over by an earlier run and is still working, with no docs pull request yet, so this run created no second job beside it.`
      )
      expect(second.stdout).toContain(`The group's mark stays at ${a.sha.slice(0, 7)}`)
      expect(second.summary).toContain('Held: the group&#39;s handed-over job is still working')

      const job = service.jobs.get(jobId)
      if (!job) throw new Error(`no job ${jobId}`)
      job.plan = { ...job.plan, activeReads: 0, final: 'completed' }
      const before = writes(service)
      const third = await push(b, [c])
      expect(third.code).toBe(0)
      expect(writes(service) - before).toBe(1)
      expect(creates(service)).toHaveLength(2)
    },
    SEVERAL_RUNS_MS
  )

  it(
    'an index GitHub cannot read never holds the group: the run warns and creates as before',
    async (test) => {
      const { service, github, options, push } = await world(test)
      const first = await push(base, [a], { timeout: '5s' })
      expect(first.code).toBe(1)
      const index = github.issues.find((i) => i.labels.includes('docs-agent:jobs'))
      if (!index) throw new Error('no index issue')
      options.faults = {
        'comment-list': { status: 502, when: (req) => req.path.includes(`/issues/${index.number}/comments`) }
      }
      const second = await push(a, [b], { timeout: '5s' })
      expect(second.stdout).toContain(
        `::warning::Could not see whether group ${GROUP}'s job handed over by an earlier run is still working: ` +
          "the index's comments: GitHub's API answered HTTP 502. This run goes on to create the group's job; if " +
          'that one is still working, the group now has two.'
      )
      expect(creates(service)).toHaveLength(2)
    },
    SEVERAL_RUNS_MS
  )
})
