// Where a request goes, decided once (decideRoute), and what the stages after it read from the route:
// each reader is a switch over every member, so a routing mistake fails here, in milliseconds, rather
// than only in a run of the bundle.
import { describe, expect, it, type TestContext } from 'vitest'
import { decideRoute } from '../../../src/follow/decide-route.js'
import {
  followsWhateverWait,
  groupMarkOf,
  messageSource,
  routedGroup,
  routedJobId,
  type Route
} from '../../../src/kernel/route.js'
import type { GroupRun } from '../../../src/kernel/group.js'
import type { Settings } from '../../../src/kernel/settings.js'
import { readRunner } from '../../../src/github/runner.js'
import { openGitHubSession } from '../../../src/github/session.js'
import type { TriggeringComment } from '../../../src/thread/trigger.js'
import type { ReadJob } from '../../../src/thread/thread-job.js'
import { signMarker } from '../../../src/thread/agent-note-record.js'
import { groupMarker } from '../../../src/group/group-marker.js'
import { groupStatusMarker, statusSignature } from '../../../src/group/group-status-marker.js'
import { startStandInGitHub, type SeededComment } from '../../support/stand-in-github.js'

const signal = new AbortController().signal
const runner = readRunner({})
const github = openGitHubSession('', runner)
const reads = { runner, github, signal, readJob: null }
const settingsWith = (values: Partial<Settings>): Settings =>
  ({ jobId: '', prompt: '', noteTrigger: '/docs', group: null, ...values }) as unknown as Settings
const GROUP = { settings: { name: 'docs-follow-code' }, lookup: { kind: 'none', unverified: [] }, mark: 'abc' }
const group = GROUP as unknown as GroupRun
const found = { jobId: 'job_g', mark: 'def' } as Extract<Route, { via: 'group' }>['found']

describe('deciding the route', () => {
  it('sends a prompt given with jobId to that job as a message, and follows jobId alone', async () => {
    expect(await decideRoute(settingsWith({ jobId: 'job_1', prompt: 'Also this' }), null, reads)).toEqual({
      kind: 'message',
      jobId: 'job_1',
      via: 'input'
    })
    expect(await decideRoute(settingsWith({ jobId: 'job_1' }), null, reads)).toEqual({
      kind: 'follow',
      jobId: 'job_1'
    })
  })

  it('creates a job for a comment that asks for a new one, whatever its thread keeps, without reading it', async () => {
    const readJob = () => Promise.reject(new Error('a --new comment reads no job'))
    const ask = { comment: {} as TriggeringComment, fresh: true }
    expect(
      await decideRoute(settingsWith({ prompt: 'Document it' }), ask, { runner, github, signal, readJob })
    ).toEqual({
      kind: 'create'
    })
  })

  it('creates a job when nothing names one and there is no group', async () => {
    expect(await decideRoute(settingsWith({ prompt: 'Document it' }), null, reads)).toEqual({ kind: 'create' })
  })
})

describe("deciding the route of a comment on a group's code pull request", () => {
  const KEY = 'svc_route_test_key'
  const SERVER = 'https://github.example'
  const [OWNER, REPO] = ['octo-org', 'docs-site']
  const MARK = 'a'.repeat(40)
  const BOT = 'github-actions[bot]'
  const settings = settingsWith({
    apiKey: KEY,
    projectId: 'docs',
    githubToken: 'ghs_route_test',
    timeoutMs: 60_000,
    docsRepository: `${OWNER}/${REPO}`
  })
  const status = (key = KEY, number = 7): string =>
    groupStatusMarker(
      'code-pr-7',
      statusSignature({ apiKey: key, projectId: 'docs' }, { owner: OWNER, repo: REPO, number }, 'code-pr-7', {
        serverUrl: SERVER
      })
    )
  const groupNote = (): string => {
    const place = { host: 'github.example', pr: { owner: OWNER, repo: REPO, number: 31 }, projectId: 'docs' }
    return `${signMarker({ apiKey: KEY }, place, 'job_g')}\n${groupMarker({ apiKey: KEY }, place, { jobId: 'job_g', group: 'code-pr-7', mark: MARK })}`
  }
  const ask = {
    fresh: false,
    comment: {
      id: 9001,
      kind: 'issue comment',
      author: 'octo-maintainer',
      repository: `${OWNER}/${REPO}`,
      thread: { kind: 'pull request', number: 7, title: 'Add --force', url: `${SERVER}/${OWNER}/${REPO}/pull/7` }
    } as TriggeringComment
  }

  /** A stand-in GitHub whose code pull request #7 holds `onCode`, with the group's docs pull request #31 (`state`). */
  async function decide(
    test: TestContext,
    onCode: SeededComment[],
    state: 'open' | 'merged' = 'open',
    readJob: ReadJob | null = null
  ) {
    const github = await startStandInGitHub({
      threadComments: [...onCode, { issueNumber: 31, body: groupNote(), login: BOT }],
      labels: { 31: ['docs-agent:code-pr-7'] },
      pullStates: { 31: state }
    })
    test.onTestFinished(() => github.close())
    const runner = readRunner({ GITHUB_SERVER_URL: SERVER, GITHUB_API_URL: github.apiUrl })
    const session = openGitHubSession('ghs_route_test', runner)
    const route = await decideRoute(settings, ask, { runner, github: session, signal, readJob })
    return { route, github }
  }

  it("sends the comment to the job of the group's open docs pull request, named by the action's status comment", async (test) => {
    const { route } = await decide(test, [{ issueNumber: 7, body: `${status()}\n📝 Docs`, login: BOT }])
    expect(route).toMatchObject({
      kind: 'message',
      jobId: 'job_g',
      via: 'status',
      trigger: '/docs',
      group: 'code-pr-7',
      docs: { pr: { owner: OWNER, repo: REPO, number: 31 }, jobId: 'job_g', mark: MARK }
    })
    expect(messageSource(route)).toBe('place')
    expect(routedGroup(route)).toBeNull()
  })

  it("starts the group's next job from its mark when the group's docs pull request is closed", async (test) => {
    const { route } = await decide(test, [{ issueNumber: 7, body: status(), login: BOT }], 'merged')
    expect(route).toMatchObject({
      kind: 'create',
      group: { settings: { name: 'code-pr-7', repository: `${OWNER}/${REPO}` }, open: null, mark: MARK, covers: MARK }
    })
    expect(routedGroup(route)?.ancestry).toBe('asked')
  })

  it("starts the group's next job when the job of its open docs pull request has ended, and sends it no message", async (test) => {
    const readJob = (jobId: string) =>
      Promise.resolve({ status: jobId === 'job_g' ? 'archived' : 'active', prLink: null })
    const { route } = await decide(test, [{ issueNumber: 7, body: status(), login: BOT }], 'open', readJob)
    expect(route).toMatchObject({ kind: 'create', group: { open: { jobId: 'job_g' }, mark: MARK, covers: MARK } })
    expect(routedGroup(route)?.ancestry).toBe('asked')
  })

  it.for<[string, { body: string; login: string }]>([
    ["a copy in another author's comment", { body: status(), login: 'mallory' }],
    ['a marker signed with another key', { body: status('svc_other'), login: BOT }],
    ['a marker signed for another pull request', { body: status(KEY, 8), login: BOT }],
    ['no status comment', { body: 'Looks good', login: 'mallory' }]
  ])(
    "creates a job of the comment's own for %s, reading nothing of the group, where the action's own status comment routes",
    async ([, comment], test) => {
      const { route, github } = await decide(test, [{ issueNumber: 7, ...comment }])
      expect(route).toEqual({ kind: 'create' })
      expect(github.requests.filter((r) => r.pathname.endsWith('/issues'))).toHaveLength(0)
      // The same pull request with the action's own status comment: the group's job.
      const genuine = await decide(test, [{ issueNumber: 7, body: status(), login: BOT }])
      expect(genuine.route).toMatchObject({ kind: 'message', via: 'status', jobId: 'job_g' })
    }
  )
})

describe('what the stages read from a route', () => {
  const routes: [string, Route][] = [
    ['a create', { kind: 'create' }],
    ["a group's create", { kind: 'create', group }],
    ['a follow', { kind: 'follow', jobId: 'job_f' }],
    ['a message by jobId', { kind: 'message', jobId: 'job_i', via: 'input' }],
    ["a message by the agent's note", { kind: 'message', jobId: 'job_n', via: 'note', trigger: '/docs' }],
    ["a message by the thread's note", { kind: 'message', jobId: 'job_t', via: 'thread', trigger: '/docs' }],
    ["a message to the group's job", { kind: 'message', jobId: 'job_g', via: 'group', group, found }],
    [
      "a message from the group's code pull request",
      { kind: 'message', jobId: 'job_g', via: 'status', trigger: '/docs', group: 'docs-follow-code', docs: found }
    ]
  ]
  const read = (route: Route) => ({
    jobId: routedJobId(route),
    source: messageSource(route),
    group: routedGroup(route) !== null,
    mark: groupMarkOf(route),
    followsAlways: followsWhateverWait(route)
  })

  it.each(routes)('%s', (name, route) => {
    const expected: Record<string, ReturnType<typeof read>> = {
      'a create': { jobId: '', source: null, group: false, mark: '', followsAlways: false },
      // A new job of the group starts from the group's mark too (its last docs pull request's).
      "a group's create": { jobId: '', source: null, group: true, mark: 'abc', followsAlways: false },
      'a follow': { jobId: 'job_f', source: null, group: false, mark: '', followsAlways: true },
      'a message by jobId': { jobId: 'job_i', source: 'input', group: false, mark: '', followsAlways: false },
      "a message by the agent's note": {
        jobId: 'job_n',
        source: 'place',
        group: false,
        mark: '',
        followsAlways: false
      },
      "a message by the thread's note": {
        jobId: 'job_t',
        source: 'place',
        group: false,
        mark: '',
        followsAlways: false
      },
      "a message to the group's job": {
        jobId: 'job_g',
        source: 'group',
        group: true,
        mark: 'abc',
        followsAlways: false
      },
      // The comment's instruction alone, as on a thread; the group's mark is not the comment's to move.
      "a message from the group's code pull request": {
        jobId: 'job_g',
        source: 'place',
        group: false,
        mark: '',
        followsAlways: false
      }
    }
    expect(read(route)).toEqual(expected[name])
  })
})
