// Finding a group's state on the stand-in GitHub, through the run's session: its open docs pull
// request (only a pull request, only one whose group marker verifies and was written by the action's
// account), paged on within a bound that is said, and how this run's commit stands to the group's mark.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { groupMarker } from '../../../src/group/group-marker.js'
import { findGroupPullRequest, lookUpGroup, readAncestry, GROUP_READS } from '../../../src/group/group-lookup.js'
import { readRunner } from '../../../src/github/runner.js'
import type { GitHubReader } from '../../../src/github/reader.js'
import { changedFile, standInCommit, type Options } from '../../support/stand-in-github.js'
import { captureLog, startUnitGitHub, type StandInGitHub } from '../../support/unit-github.js'

const KEYS = { githubToken: 'ghs_unit', apiKey: 'svc_unit_key', projectId: 'docs' }
const REPO = 'octo-org/docs-site'
const GROUP = { name: 'api-docs', repository: REPO }
const LABEL = 'docs-agent:api-docs'
const history = ['one', 'two', 'three'].map((n) => standInCommit(`Add ${n}`, [changedFile(`src/${n}.ts`)]))
const [ONE, TWO, THREE] = history.map((c) => c.sha)
const runner = (sha = THREE) =>
  readRunner({ GITHUB_REPOSITORY: REPO, GITHUB_SHA: sha, GITHUB_EVENT_NAME: 'workflow_dispatch' })

/** The group's note on pull request `number`, signed for it, by `login` (the action's account by default). */
const noteOn = (number: number, fields: { jobId?: string; mark?: string; login?: string } = {}) => ({
  issueNumber: number,
  login: fields.login ?? 'github-actions[bot]',
  body: `${groupMarker(KEYS, { host: 'github.com', pr: { owner: 'octo-org', repo: 'docs-site', number }, projectId: 'docs' }, { jobId: fields.jobId ?? `job_${number}`, group: GROUP.name, mark: fields.mark ?? ONE })}\n📝 note`
})

let gh: StandInGitHub | undefined
afterEach(async () => {
  await gh?.close()
  gh = undefined
  vi.restoreAllMocks()
})

async function world(options: Options = {}) {
  const started = await startUnitGitHub({ repository: { history }, ...options })
  gh = started.gh
  const reader = started.session.reader(
    { maxRequests: 100, totalMs: 20_000, requestMs: 10_000, maxBodyBytes: 8 << 20 },
    new AbortController().signal
  ) as GitHubReader
  return { ...started, reader }
}

/** `n` labelled issues numbered from `from`, as anyone with triage rights can label them. */
const labelledIssues = (n: number, from = 1000) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [from + i, [LABEL]]))

describe("finding the group's docs pull request", () => {
  it('finds the open pull request whose group marker verifies, with its job and mark; labelled issues are skipped', async () => {
    const { reader } = await world({
      labels: { 31: [LABEL], 40: [LABEL] },
      issues: [40],
      threadComments: [noteOn(31, { mark: TWO }), noteOn(40)]
    })
    const lookup = await findGroupPullRequest(GROUP, KEYS, reader, runner())
    expect(lookup).toMatchObject({
      kind: 'found',
      found: { pr: { number: 31 }, jobId: 'job_31', mark: TWO, open: true }
    })
    // The issue was never read as a candidate.
    expect(gh?.requests.some((r) => r.pathname.endsWith('/issues/40/comments'))).toBe(false)
  })

  it("never takes a marker another account posted, even one copied whole from the group's note", async () => {
    const { reader } = await world({ labels: { 31: [LABEL] }, threadComments: [noteOn(31, { login: 'mallory' })] })
    expect(await findGroupPullRequest(GROUP, KEYS, reader, runner())).toEqual({
      kind: 'none',
      previous: null,
      unverified: [31],
      bound: null
    })
  })

  it("takes a closed newest pull request's mark as where a new job starts", async () => {
    const { reader } = await world({
      labels: { 31: [LABEL] },
      pullStates: { 31: 'merged' },
      threadComments: [noteOn(31, { mark: TWO })]
    })
    expect(await findGroupPullRequest(GROUP, KEYS, reader, runner())).toMatchObject({
      kind: 'none',
      previous: { pr: { number: 31 }, mark: TWO, open: false }
    })
  })

  it('pages on past a page of labelled issues to the pull request beyond them', async () => {
    const { reader } = await world({
      labels: { 31: [LABEL], ...labelledIssues(100) },
      issues: Object.keys(labelledIssues(100)).map(Number),
      threadComments: [noteOn(31)]
    })
    expect(await findGroupPullRequest(GROUP, KEYS, reader, runner())).toMatchObject({
      kind: 'found',
      found: { pr: { number: 31 } }
    })
    expect(gh?.labelReads.map((r) => r.query.page)).toEqual(['1', '2'])
  })

  it('stops at its bound of pages, and the look-up says so in a warning', async () => {
    const many = labelledIssues(GROUP_READS.listPages * 100)
    const started = await world({ labels: { 31: [LABEL], ...many }, issues: Object.keys(many).map(Number) })
    const log = captureLog()
    const group = await lookUpGroup(GROUP, KEYS, new AbortController().signal, {
      runner: runner(),
      github: started.session
    })
    expect(group.lookup).toEqual({
      kind: 'none',
      previous: null,
      unverified: [],
      bound: '300 labelled issues and pull requests read'
    })
    expect(gh?.labelReads).toHaveLength(GROUP_READS.listPages)
    expect(log.warnings).toEqual([
      `Stopped looking for group api-docs's docs pull request after 300 labelled issues and pull requests read of ${REPO} with the label ${LABEL}: an open one further down is not seen, so this run creates a job. Remove the label from the issues and pull requests that are not the group's.`
    ])
  })

  it('reads at most its bound of labelled pull requests without a verified note, and says which were ignored', async () => {
    const pulls = Object.fromEntries(Array.from({ length: GROUP_READS.maxPulls + 2 }, (_, i) => [50 + i, [LABEL]]))
    const started = await world({ labels: pulls })
    const log = captureLog()
    const group = await lookUpGroup(GROUP, KEYS, new AbortController().signal, {
      runner: runner(),
      github: started.session
    })
    expect(group.lookup).toMatchObject({
      kind: 'none',
      unverified: [56, 55, 54, 53, 52],
      bound: '5 pull requests read'
    })
    expect(log.text).toMatch(
      /::notice::#56, #55, #54, #53, #52 of octo-org\/docs-site carry the label docs-agent:api-docs but no note of group api-docs that verifies/
    )
    expect(log.warnings[0]).toMatch(
      /^Stopped looking for group api-docs's docs pull request after 5 pull requests read/
    )
  })
})

describe("how this run's commit stands to the group's mark", () => {
  it.each([
    ['a commit after the mark', 'ahead', ONE, THREE],
    ['the mark itself (a re-run)', 'covered', TWO, TWO],
    ['a commit before the mark (an older run run again)', 'covered', THREE, ONE],
    ['no mark yet', 'fresh', '', THREE]
  ])('%s: %s', async (_name, ancestry, mark, covers) => {
    const { reader } = await world()
    expect(await readAncestry(reader, mark, covers, { repository: REPO })).toEqual({ ancestry })
  })

  it('a mark force-pushed away is gone; a comparison GitHub could not give is unread, with why', async () => {
    const gone = 'f'.repeat(40)
    const { reader } = await world({ repository: { history, forcePushed: [gone] } })
    expect(await readAncestry(reader, gone, THREE, { repository: REPO })).toEqual({ ancestry: 'gone' })
    await gh?.close()
    const broken = await world({ faults: { compare: { status: 502, message: 'Bad Gateway' } } })
    const unread = await readAncestry(broken.reader, ONE, THREE, { repository: REPO })
    expect(unread).toMatchObject({ ancestry: 'unread', failure: { kind: 'server', status: 502 } })
  })

  it('the look-up says which job the changes since the mark go to', async () => {
    const started = await world({ labels: { 31: [LABEL] }, threadComments: [noteOn(31, { mark: ONE })] })
    const log = captureLog()
    const group = await lookUpGroup(GROUP, KEYS, new AbortController().signal, {
      runner: runner(THREE),
      github: started.session
    })
    expect(group).toMatchObject({ mark: ONE, covers: THREE, ancestry: 'ahead', open: { jobId: 'job_31' } })
    expect(log.lines).toContain(
      `Group api-docs's docs pull request is #31 of ${REPO}, opened by job job_31 (from the action's signed note there): this run's changes since ${ONE.slice(0, 7)}, the last commit the group's job was told of, go to that job as a follow-up message.`
    )
  })
})
