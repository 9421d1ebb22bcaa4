// One docs pull request per stream, through the bundled action: runs with the same `group` share the
// docs pull request the first one's job opened, found on GitHub by its label and the action's signed
// note, and send their changes to its job as follow-up messages; each message carries only what the
// job was not told yet (since the mark in the note), a busy job is waited for, a timed-out wait sends
// nothing and loses nothing, and a code pull request shows its docs in one comment. Every write to the
// service is counted: no run makes two that the service took.
import { afterAll, describe, expect, it, type TestContext } from 'vitest'
import { signMarker } from '../../src/thread/agent-note-record.js'
import { groupMarker } from '../../src/group/group-marker.js'
import { expectCleanOutput } from '../support/expect-clean-output.js'
import { inputsFor, runAction, type ActionRun } from '../support/run-action.js'
import {
  changedFile,
  pullRequestEvent,
  pushEvent,
  removeEventFiles,
  runnerEnvironment,
  standInCommit,
  startStandInGitHub,
  type Options as GitHubOptions,
  type StandInCommit,
  type StandInGitHub
} from '../support/stand-in-github.js'
import {
  startStandInService,
  type Options as ServiceOptions,
  type StandInService
} from '../support/stand-in-service.js'

const TOKEN = 'ghs_stand_in_token_0123456789'
const SERVER = 'https://github.example'
const REPO = 'octo-org/docs-site'
const SOURCE = `${SERVER}/${REPO}`
const GROUP = 'docs-follow-code'
const LABEL = `docs-agent:${GROUP}`
/** Job n opens pull request 30 + n in this repository; a message keeps the job's pull request. */
const pullOf = (n: number): string => `${SOURCE}/pull/${30 + n}`
/** Several runs in a row: more than the default 15 s on a loaded machine. */
const SEVERAL_RUNS_MS = 60_000

afterAll(removeEventFiles)

const base = standInCommit('Start the CLI', [changedFile('src/cli.ts')])
const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) =>
  standInCommit(`Add the ${name} flag`, [changedFile(`src/flag-${name}.ts`)])
)
const HISTORY = [base, a, b, c, d]

interface World {
  service: StandInService
  github: StandInGitHub
}

async function world(test: TestContext, service: ServiceOptions = {}, github: GitHubOptions = {}): Promise<World> {
  const w = {
    service: await startStandInService({
      plan: (n) => ({ activeReads: 1, prLink: pullOf(n), repository: SOURCE }),
      messagePlan: { activeReads: 1, prLink: pullOf(1), repository: SOURCE },
      ...service
    }),
    github: await startStandInGitHub({ repository: { history: HISTORY, workflowRuns: [] }, ...github })
  }
  test.onTestFinished(async () => {
    await w.service.close()
    await w.github.close()
  })
  return w
}

/** A push of `commits` (after `before`) to main, run with the group. */
function push(
  w: World,
  before: StandInCommit,
  commits: StandInCommit[],
  extra: Record<string, string> = {}
): Promise<ActionRun> {
  return runAction({
    inputs: inputsFor(w.service, { prompt: 'Keep the docs in step', githubToken: TOKEN, group: GROUP, ...extra }),
    env: runnerEnvironment(w.github, 'push', pushEvent({ before: before.sha, commits }))
  })
}

/** The service's writes: creates (POST …/job) and messages (POST …/message), with their prompts. */
const creates = (w: World) => w.service.requestsOf('POST').filter((r) => r.path.endsWith('/job'))
const messages = (w: World) => w.service.requestsOf('POST', '/message')
const promptOf = (request: { body: string }): string => JSON.parse(request.body).prompt
const notes = (w: World, pr = 31) =>
  w.github.comments.filter((c) => c.issueNumber === pr && c.body.includes('<!-- docs-agent-group: '))
/** The mark the group's note holds now. */
const markOn = (body: string): string => /<!-- docs-agent-group: \S+ \S+ ([0-9a-f]+|-) g1\./.exec(body)?.[1] ?? ''

/** Runs `run` and returns it with the service writes it made. */
async function counted(w: World, run: () => Promise<ActionRun>): Promise<ActionRun & { writes: number }> {
  const before = w.service.requestsOf('POST').length
  const result = await run()
  return { ...result, writes: w.service.requestsOf('POST').length - before }
}

/** A note the action would have left on `pr` for `jobId`, signed with `key` (the job's marker and the group's). */
function signedNote(
  key: string,
  jobId: string,
  options: { pr?: number; group?: string; mark?: string; projectId?: string; repository?: string } = {}
): string {
  const [owner, repo] = (options.repository ?? REPO).split('/')
  const place = {
    host: 'github.example',
    pr: { owner, repo, number: options.pr ?? 31 },
    projectId: options.projectId ?? 'docs'
  }
  return (
    `${signMarker({ apiKey: key }, place, jobId)}\n` +
    `${groupMarker({ apiKey: key }, place, { jobId, group: options.group ?? GROUP, mark: options.mark ?? base.sha })}\n📝 note`
  )
}

describe.concurrent('a group of runs', () => {
  it(
    'three pushes make one job and two messages, each message carrying only the commits since the one before',
    async (test) => {
      const w = await world(test)
      const first = await counted(w, () => push(w, base, [a]))
      expect(first.code).toBe(0)
      expect(first.writes).toBe(1)
      expect(first.outputs.jobCreated).toBe('true')
      const jobId = first.outputs.jobId
      expect(first.stdout).toContain(`Group ${GROUP} has no open docs pull request in ${REPO}`)
      expect(w.github.labelsOf(31)).toEqual([LABEL])
      expect(notes(w)).toHaveLength(1)
      expect(markOn(notes(w)[0].body)).toBe(a.sha)
      expect(promptOf(creates(w)[0])).toContain('Add the a flag')

      const second = await counted(w, () => push(w, a, [b]))
      expect(second.code).toBe(0)
      expect(second.writes).toBe(1)
      expect(second.outputs).toMatchObject({ jobId, jobCreated: 'false', prLink: pullOf(1) })
      expect(second.stdout).toContain(`Group ${GROUP}'s docs pull request is #31 of ${REPO}, opened by job ${jobId}`)

      const third = await counted(w, () => push(w, b, [c]))
      expect(third.code).toBe(0)
      expect(third.writes).toBe(1)
      expect(third.outputs).toMatchObject({ jobId, jobCreated: 'false' })

      expect(creates(w)).toHaveLength(1)
      expect(messages(w)).toHaveLength(2)
      expect(w.service.messages).toBe(2)
      expect(messages(w).map((m) => m.path)).toEqual([
        `/v2/agent/docs/job/${jobId}/message`,
        `/v2/agent/docs/job/${jobId}/message`
      ])
      const [toSecond, toThird] = messages(w).map(promptOf)
      expect(toSecond).toContain('Add the b flag')
      expect(toSecond).toContain("since the last commit the group's docs pull request was told of")
      expect(toSecond).not.toContain('Add the a flag')
      expect(toThird).toContain('Add the c flag')
      expect(toThird).not.toMatch(/Add the [ab] flag/)
      // One note, its mark moved by editing it after each delivered message; one label, put on once.
      expect(notes(w)).toHaveLength(1)
      expect(notes(w)[0].bodies.map(markOn)).toEqual([a.sha, b.sha, c.sha])
      expect(w.github.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/labels'))).toHaveLength(1)
      // One listing by the group's label per later run, never the search API (a run that followed a
      // job to its end also lists the index of handed-over jobs, by its own label).
      const groupReads = w.github.labelReads.filter((r) => r.query.labels !== 'docs-agent:jobs')
      expect(groupReads).toHaveLength(3)
      expect(groupReads[0].query).toMatchObject({ labels: LABEL, state: 'all' })
      expect(w.github.requests.some((r) => r.path.startsWith('/search'))).toBe(false)
      for (const run of [first, second, third]) expectCleanOutput(run, w.service.apiKey)
    },
    SEVERAL_RUNS_MS
  )

  it(
    "makes a new job once the group's pull request is merged, and that job's pull request becomes the group's",
    async (test) => {
      const w = await world(test)
      const first = await push(w, base, [a])
      expect(first.code).toBe(0)
      w.github.setPullState(31, 'merged')

      const second = await counted(w, () => push(w, a, [b]))
      expect(second.code).toBe(0)
      expect(second.writes).toBe(1)
      expect(second.outputs.jobCreated).toBe('true')
      expect(second.outputs.jobId).not.toBe(first.outputs.jobId)
      expect(creates(w)).toHaveLength(2)
      expect(messages(w)).toHaveLength(0)
      expect(w.github.labelsOf(32)).toEqual([LABEL])
      expect(markOn(notes(w, 32)[0].body)).toBe(b.sha)

      // The next push goes to the new job.
      const third = await counted(w, () => push(w, b, [c]))
      expect(third.writes).toBe(1)
      expect(third.outputs).toMatchObject({ jobId: second.outputs.jobId, jobCreated: 'false' })
      expect(messages(w).map((m) => m.path)).toEqual([`/v2/agent/docs/job/${second.outputs.jobId}/message`])
    },
    SEVERAL_RUNS_MS
  )

  it(
    "makes a new job when the group's job refuses the message (archived), having sent it once",
    async (test) => {
      const w = await world(test)
      const first = await push(w, base, [a])
      expect(first.code).toBe(0)
      // The job reads completed, then refuses the message: it was archived in between.
      w.service.addFault({ method: 'POST', path: '/message', status: 400, body: { error: 'Job is archived' } })

      const second = await counted(w, () => push(w, a, [b]))
      expect(second.code).toBe(0)
      expect(messages(w)).toHaveLength(1)
      expect(w.service.messages).toBe(0)
      expect(creates(w)).toHaveLength(2)
      expect(w.service.created).toBe(2)
      // The refused message was not taken: one write the service took.
      expect(second.writes).toBe(2)
      expect(second.outputs.jobCreated).toBe('true')
      expect(second.stdout).toContain(
        `Group ${GROUP}'s job ${first.outputs.jobId} refused the follow-up message, so the service did not take it: this run creates a job`
      )
      // The new job was told of everything since the mark.
      expect(promptOf(creates(w)[1])).toContain('Add the b flag')
      expect(w.github.labelsOf(32)).toEqual([LABEL])
    },
    SEVERAL_RUNS_MS
  )

  it('makes a new job without a message when the group’s job reads archived', async (test) => {
    const w = await world(test)
    const jobId = w.service.seedJob({ plan: { activeMs: 0, final: 'archived', repository: SOURCE } })
    w.github = await restart(w, test, { labels: { 31: [LABEL] }, notes: { 31: signedNote(w.service.apiKey, jobId) } })
    const run = await counted(w, () => push(w, a, [b]))
    expect(run.code).toBe(0)
    expect(run.writes).toBe(1)
    expect(messages(w)).toHaveLength(0)
    expect(creates(w)).toHaveLength(1)
    expect(run.stdout).toContain(`Group ${GROUP}'s job ${jobId} ended archived and takes no more messages`)
  })

  it("routes nothing on a forged or copied note, another group's, or another project's", async (test) => {
    const w = await world(test)
    const key = w.service.apiKey
    const jobId = w.service.seedJob({ plan: { activeMs: 0, prLink: pullOf(0), repository: SOURCE } })
    const forged = signedNote('svc_not_the_key', jobId)
    const copied = signedNote(key, jobId, { pr: 30 })
    const otherGroup = signedNote(key, jobId, { group: 'another-group' })
    const otherProject = signedNote(key, jobId, { projectId: 'other' })
    w.github = await restart(w, test, {
      labels: { 31: [LABEL], 33: [LABEL] },
      notes: { 31: `${forged}\n${copied}`, 33: `${otherGroup}\n${otherProject}` }
    })
    const run = await counted(w, () => push(w, a, [b]))
    expect(run.code).toBe(0)
    expect(run.writes).toBe(1)
    expect(messages(w)).toHaveLength(0)
    expect(creates(w)).toHaveLength(1)
    expect(run.outputs.jobCreated).toBe('true')
    expect(run.stdout).toContain(
      `::notice::#33, #31 of ${REPO} carry the label ${LABEL} but no note of group ${GROUP} that verifies`
    )
    // The job the forged notes name was never read.
    expect(w.service.requestsOf('GET', jobId)).toHaveLength(0)
  })

  it('waits for a busy job to finish, then sends the message', async (test) => {
    const w = await world(test)
    const jobId = w.service.seedJob({
      plan: { readStatuses: ['active', 'active', 'completed'], prLink: pullOf(1), repository: SOURCE }
    })
    w.github = await restart(w, test, { labels: { 31: [LABEL] }, notes: { 31: signedNote(w.service.apiKey, jobId) } })
    const run = await counted(w, () => push(w, base, [a, b], { pollInterval: '1s' }))
    expect(run.code).toBe(0)
    expect(run.writes).toBe(1)
    expect(run.stdout).toContain(`Job ${jobId}, group ${GROUP}'s, is still working on the group's last message`)
    // The message went after the reads that saw it working, and the one that saw it done.
    const order = w.service.requests.filter((r) => r.path.includes(jobId)).map((r) => r.method)
    expect(order.slice(0, 4)).toEqual(['GET', 'GET', 'GET', 'POST'])
    expect(run.outputs).toMatchObject({ jobId, jobCreated: 'false' })
  })

  it(
    "sends nothing when the busy job outlasts the timeout, and the next run sends both runs' changes",
    async (test) => {
      const w = await world(test)
      const jobId = w.service.seedJob({ plan: { activeReads: 1_000, prLink: pullOf(1), repository: SOURCE } })
      w.github = await restart(w, test, {
        labels: { 31: [LABEL] },
        notes: { 31: signedNote(w.service.apiKey, jobId, { mark: a.sha }) }
      })
      const waited = await counted(w, () => push(w, a, [b], { timeout: '3s' }))
      expect(waited.code).toBe(0)
      expect(waited.writes).toBe(0)
      expect(waited.outputs.jobCreated ?? '').toBe('')
      expect(waited.stdout).toMatch(
        new RegExp(
          `::notice::Group ${GROUP}'s job ${jobId} was still working .* so this run sent nothing\\. The group's mark stays at ${a.sha.slice(0, 7)}, so the group's next run sends this run's changes`
        )
      )
      // The mark stays where it was.
      expect(w.github.requests.filter((r) => r.method === 'PATCH')).toHaveLength(0)

      w.service.jobs.get(jobId)!.plan = { activeMs: 0, prLink: pullOf(1), repository: SOURCE }
      const next = await counted(w, () => push(w, b, [c]))
      expect(next.code).toBe(0)
      expect(next.writes).toBe(1)
      const [sent] = messages(w).map(promptOf)
      expect(sent).toContain('Add the b flag')
      expect(sent).toContain('Add the c flag')
      expect(sent).not.toContain('Add the a flag')
      expect(markOn(w.github.requests.find((r) => r.method === 'PATCH')?.body.body ?? '')).toBe(c.sha)
    },
    SEVERAL_RUNS_MS
  )

  it(
    'three pushes to a code pull request make one job, two messages and one comment on it, edited',
    async (test) => {
      const w = await world(
        test,
        {},
        { repository: { history: HISTORY, pullFiles: { 7: [changedFile('src/flag-a.ts')] } } }
      )
      const group = 'code-pr-7'
      const onCode = (action: string, head: StandInCommit): Promise<ActionRun> =>
        runAction({
          inputs: inputsFor(w.service, { prompt: 'Document this pull request', githubToken: TOKEN, group }),
          env: runnerEnvironment(w.github, 'pull_request', pullRequestEvent({ number: 7, action, headSha: head.sha }))
        })
      const runs = []
      for (const [action, head] of [
        ['opened', a],
        ['synchronize', b],
        ['synchronize', c]
      ] as const) {
        const run = await counted(w, () => onCode(action, head))
        expect(run.code).toBe(0)
        expect(run.writes).toBe(1)
        runs.push(run)
      }
      expect(runs.map((r) => r.outputs.jobCreated)).toEqual(['true', 'false', 'false'])
      expect(creates(w)).toHaveLength(1)
      expect(messages(w)).toHaveLength(2)
      expect(promptOf(messages(w)[1])).toContain('Add the c flag')
      expect(promptOf(messages(w)[1])).not.toContain('Add the b flag')
      const onCodePr = w.github.comments.filter((c) => c.issueNumber === 7)
      expect(onCodePr).toHaveLength(1)
      // Each run shows where it sends at once, then how it ended: one comment, edited, never a second.
      expect(onCodePr[0].bodies).toHaveLength(6)
      expect(onCodePr[0].bodies[0]).toContain('Docs pull request: none open yet')
      expect(onCodePr[0].bodies[2]).toContain(`Job: \`${runs[0].outputs.jobId}\`, status not read`)
      expect(onCodePr[0].bodies[2]).toContain("This push's changes are on their way to the job.")
      expect(onCodePr[0].body).not.toContain('on their way')
      expect(onCodePr[0].body).toContain(`[#31](${pullOf(1)}), open`)
      expect(onCodePr[0].body).toContain(`Job: \`${runs[0].outputs.jobId}\`, \`completed\``)
      expect(onCodePr[0].body).toContain(`The docs cover the changes up to ${c.sha.slice(0, 7)}.`)
      expect(w.github.labelsOf(31)).toEqual([`docs-agent:${group}`])

      // The code pull request merged: the docs pull request is told, nothing is sent.
      const closed = await counted(w, () =>
        runAction({
          inputs: inputsFor(w.service, { prompt: 'Document this pull request', githubToken: TOKEN, group }),
          env: runnerEnvironment(
            w.github,
            'pull_request',
            pullRequestEvent({ number: 7, action: 'closed', merged: true, headSha: c.sha })
          )
        })
      )
      expect(closed.code).toBe(0)
      expect(closed.writes).toBe(0)
      expect(closed.outputs.jobCreated ?? '').toBe('')
      const told = w.github.comments.filter((c) => c.issueNumber === 31 && !c.body.includes('docs-agent-job'))
      expect(told).toHaveLength(1)
      expect(told[0].body).toContain(
        `The code pull request [${REPO}#7](${SOURCE}/pull/7) that this docs pull request documents was merged.`
      )
      expect(closed.stdout).toContain(
        `The code pull request #7 was merged: said so on group ${group}'s docs pull request #31`
      )
    },
    SEVERAL_RUNS_MS
  )

  it('without a group, runs behave as today: a job each, no label read or written', async (test) => {
    const w = await world(test)
    const runs = [
      await counted(w, () => push(w, base, [a], { group: '' })),
      await counted(w, () => push(w, a, [b], { group: '' }))
    ]
    expect(runs.map((r) => [r.code, r.writes, r.outputs.jobCreated])).toEqual([
      [0, 1, 'true'],
      [0, 1, 'true']
    ])
    expect(creates(w)).toHaveLength(2)
    expect(messages(w)).toHaveLength(0)
    expect(w.github.labelReads).toHaveLength(0)
    expect(w.github.labelsOf(31)).toEqual([])
    expect(notes(w)).toHaveLength(0)
  })

  it('without the permission to read the labels, says so once and creates a job as without a group', async (test) => {
    const w = await world(
      test,
      {},
      { faults: { 'issue-list': { status: 403, message: 'Resource not accessible by integration' } } }
    )
    const run = await counted(w, () => push(w, base, [a]))
    expect(run.code).toBe(0)
    expect(run.writes).toBe(1)
    expect(run.outputs.jobCreated).toBe('true')
    const notices = run.stdout.split('\n').filter((l) => l.startsWith('::notice::') && l.includes(GROUP))
    expect(notices).toEqual([
      expect.stringContaining(`::notice::Could not look for group ${GROUP}'s docs pull request`)
    ])
    expect(notices[0]).toContain('This run creates a job, as without group')
    expect(w.github.labelsOf(31)).toEqual([])
  })

  it('in a dry run, says it would send to the group’s job, and sends nothing', async (test) => {
    const w = await world(test)
    const jobId = w.service.seedJob({ plan: { activeMs: 0, prLink: pullOf(1), repository: SOURCE } })
    w.github = await restart(w, test, { labels: { 31: [LABEL] }, notes: { 31: signedNote(w.service.apiKey, jobId) } })
    const run = await counted(w, () => push(w, base, [a], { dryRun: 'true' }))
    expect(run.code).toBe(0)
    expect(w.service.requests).toHaveLength(0)
    expect(run.stdout).toContain(
      `Dry run: group ${GROUP}'s job ${jobId} (docs pull request #31 of ${REPO}) would get this prompt as a follow-up message.`
    )
    expect(run.outputs.jobCreated ?? '').toBe('')
  })

  it('looks for the group’s pull request in docsRepository', async (test) => {
    const w = await world(test)
    const run = await push(w, base, [a], { docsRepository: 'octo-org/handbook', dryRun: 'true' })
    expect(run.code).toBe(0)
    expect(w.github.labelReads.map((r) => r.pathname)).toEqual(['/repos/octo-org/handbook/issues'])
    expect(run.stdout).toContain(`Group ${GROUP} has no open docs pull request in octo-org/handbook`)
  })
})

/** The stand-in GitHub again, with labels and the action's notes on pull requests before the run. */
async function restart(
  w: World,
  test: TestContext,
  seed: { labels: Record<number, string[]>; notes: Record<number, string> }
): Promise<StandInGitHub> {
  await w.github.close()
  const github = await startStandInGitHub({
    repository: { history: HISTORY, workflowRuns: [] },
    labels: seed.labels,
    threadComments: Object.entries(seed.notes).map(([n, body]) => ({
      issueNumber: Number(n),
      body,
      login: 'github-actions[bot]'
    }))
  })
  test.onTestFinished(() => github.close())
  return github
}
