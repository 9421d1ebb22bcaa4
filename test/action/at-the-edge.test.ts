// Where what the service or the repository gives is at the edge of what the action takes, through the
// bundled action: the summary stays within GitHub's 1 MiB whatever the lists of what left hold; a
// note's marker holds any job id the service may give, and an id that cannot be encoded is not a job
// record; a follow-up whose answer said the job took it never ends as "no sign".
import { describe, expect, it } from 'vitest'
import { credentialSamples } from '../../scripts/credential-samples.js'
import { expectCleanOutput } from '../support/expect-clean-output.js'
import { inputsFor, runAction, type ActionRun } from '../support/run-action.js'
import {
  changedFile,
  pushEvent,
  runnerEnvironment,
  standInCommit,
  workflowDispatchEvent
} from '../support/stand-in-github.js'
import {
  commentEnv,
  commentInputs,
  heading,
  LONG_TEST_MS,
  notes,
  OPENS_AGENT_PR,
  SERVER,
  standIn,
  standInGitHub,
  TOKEN
} from '../support/ending-runs.js'

describe.concurrent('the summary within GitHub’s 1 MiB', () => {
  it(
    'every kind of credential in five files with long paths: each list cut with a count, the summary kept',
    async (test) => {
      const samples = credentialSamples(1, 26).filter((s) => s.where === 'diff line')
      const lines = samples.flatMap((s) => s.text.split('\n').filter((line) => line.startsWith('+')))
      // Five files, each with every sample, under paths as long as a fixture's may be.
      const files = [1, 2, 3, 4, 5].map((n) =>
        changedFile(`test/fixtures/${`deeply-nested-fixture-directory-${n}/`.repeat(50)}samples-${n}.ts`, {
          additions: lines.length,
          deletions: 0,
          patch: [`@@ -0,0 +1,${lines.length} @@`, ...lines].join('\n')
        })
      )
      const history = [standInCommit('Start', [changedFile('src/start.ts')]), standInCommit('Add fixtures', files)]
      const service = await standIn(test, { plan: { activeReads: 1 } })
      const github = await standInGitHub(test, { repository: { history, workflowRuns: [] } })
      const run = await runAction({
        inputs: inputsFor(service, {
          prompt: 'Bring the docs up to date.',
          githubToken: TOKEN,
          context: 'diff',
          contextLimit: '1000000',
          timeout: '30s'
        }),
        env: runnerEnvironment(github, 'push', pushEvent({ before: history[0].sha, commits: history.slice(1) }), {
          GITHUB_SHA: history[1].sha
        })
      })

      expect(run.code).toBe(0)
      // Many kinds were blanked, in each of the five places.
      const kinds = new Set(samples.map((s) => s.family))
      expect(kinds.size).toBeGreaterThan(100)
      const size = Buffer.byteLength(run.summary)
      expect(size).toBeLessThan(256 * 1024)
      expect(heading(run.summary)).toMatch(/^✅ Completed: pull request #\d+ is ready$/)
      const credentials = /<li>(Credentials blanked before sending: [^<]*)<\/li>/.exec(run.summary)?.[1] ?? ''
      expect(credentials).toMatch(/more kinds? (of credential )?left out/)
      expect(run.summary).toContain('Context sent after the prompt')
    },
    LONG_TEST_MS
  )
})

describe.concurrent('a job id at the edge of what the contract allows', () => {
  it(
    'an id of 200 characters outside the BMP: the note names it, and /docs on its pull request goes to it',
    async (test) => {
      const id = '\u{1D4B3}'.repeat(200)
      const service = await standIn(test, { ...OPENS_AGENT_PR, jobIds: () => id })
      const github = await standInGitHub(test)
      const first = await runAction({
        inputs: commentInputs(service, { prompt: 'Document the --dry-run flag' }),
        env: runnerEnvironment(github, 'workflow_dispatch', workflowDispatchEvent(), { GITHUB_SERVER_URL: SERVER })
      })
      expect(first.code).toBe(0)
      expect(first.outputs.jobId).toBe(id)
      expect(notes(github)).toHaveLength(1)

      const run = await runAction({
        inputs: commentInputs(service),
        env: commentEnv(github, '/docs also mention that --force never asks', true)
      })

      expect(run.code).toBe(0)
      expect(service.requestsOf('POST').filter((r) => r.path.endsWith('/job'))).toHaveLength(1)
      const messages = service.requestsOf('POST', '/message')
      expect(messages).toHaveLength(1)
      expect(messages[0].path).toBe(`/v2/agent/docs/job/${encodeURIComponent(id)}/message`)
      expect(run.outputs.jobId).toBe(id)
      // The note is not left twice: the one there is found.
      expect(notes(github)).toHaveLength(1)
    },
    LONG_TEST_MS
  )

  it('an id with a lone surrogate is not a job record: the job may exist, its id unknown; no jobId output', async (test) => {
    const service = await standIn(test, { plan: { activeReads: 1 }, jobIds: (n) => `job_\uD800_${n}` })
    const run = await runAction({ inputs: inputsFor(service, { context: 'none' }) })

    expect(run.code).toBe(1)
    expect(service.created).toBe(1)
    expect(service.requestsOf('POST')).toHaveLength(1)
    expect(service.requestsOf('GET')).toHaveLength(0)
    expect(run.stdout).toMatch(
      /::error::The service created the job \(HTTP 201\), but its answer could not be read \(it is not a job record, as its `id` cannot be a job id: it holds half of a character/
    )
    expect(run.stdout).not.toContain('failed unexpectedly')
    expect(run.outputs.jobId).toBeUndefined()
    expect(heading(run.summary)).toBe('❌ Failed: a job was created, but its id is unknown')
    expectCleanOutput(run, service.apiKey)
  })
})

describe.concurrent('a follow-up whose answer said the job took it', () => {
  it(
    'answered active, then read completed as before: says what was seen, never "no sign"',
    async (test) => {
      const service = await standIn(test, { freshMessageAnswer: true, staleReadsAfterMessage: 1000 })
      const jobId = service.seedJob()
      const run: ActionRun = await runAction({
        inputs: inputsFor(service, { jobId, prompt: 'Also say --force never asks', context: 'none', timeout: '15s' })
      })

      expect(run.code).toBe(0)
      expect(service.requestsOf('POST', '/message')).toHaveLength(1)
      expect(run.all).not.toMatch(/no sign/i)
      expect(run.stdout).toMatch(
        new RegExp(
          `^::warning::The service took the follow-up message to job ${jobId}: its answer showed the job active\\. ` +
            `Every read in the [5-9]\\.\\ds after it showed it completed, with pull request https://github\\.com/example/docs/pull/901`,
          'm'
        )
      )
      expect(heading(run.summary)).toBe('⚠️ Took the message: the job still shows its earlier result')
      expect(run.summary).toContain(`<p>The service took the follow-up message to job <code>${jobId}</code>`)
      expectCleanOutput(run, service.apiKey)
    },
    LONG_TEST_MS
  )
})
