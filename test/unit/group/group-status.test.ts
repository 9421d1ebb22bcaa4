// The one comment a group keeps on its code pull request, on the stand-in GitHub: posted once, found
// again by later runs by its signed marker among the action's own comments only, and edited; and the
// reading of which group's comment is there (for /docs on the code pull request), signature verified.
import { describe, expect, it } from 'vitest'
import type { GroupRun } from '../../../src/kernel/group.js'
import { startGroupStatusComment, type GroupStatus } from '../../../src/group/group-status.js'
import { findStatusGroup, groupStatusMarker, statusSignature } from '../../../src/group/group-status-marker.js'
import type { Author } from '../../../src/github/author.js'
import { readRunner } from '../../../src/github/runner.js'
import { pullRequestEvent, writeEventFile } from '../../support/stand-in-github.js'
import { captureLog, cleanUpAfterEach, startUnitGitHub, type StandInGitHub } from '../../support/unit-github.js'

const KEYS = { githubToken: 'ghs_unit', apiKey: 'svc_unit_key', projectId: 'docs' }
const REPO = 'octo-org/docs-site'
const CODE = { owner: 'octo-org', repo: 'docs-site', number: 7 }
const MARK = 'a'.repeat(40)
const group: GroupRun = {
  settings: { name: 'api-docs', repository: REPO },
  lookup: { kind: 'none', previous: null, unverified: [], bound: null },
  open: null,
  mark: MARK,
  covers: 'b'.repeat(40),
  ancestry: 'ahead'
}
const status = (fields: Partial<GroupStatus> = {}): GroupStatus => ({
  group: 'api-docs',
  docs: null,
  jobId: 'job_1',
  status: 'active',
  coveredUpTo: MARK,
  waiting: false,
  ...fields
})
const codeRunner = () =>
  readRunner({
    GITHUB_REPOSITORY: REPO,
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: writeEventFile(pullRequestEvent({ action: 'synchronize', number: 7 }))
  })
const signedMarker = groupStatusMarker(
  'api-docs',
  statusSignature(KEYS, CODE, 'api-docs', { serverUrl: 'https://github.com' })
)

let gh: StandInGitHub | undefined
cleanUpAfterEach()

/** One run's comment: shown at once, then finished with `final`. */
async function oneRun(session: Parameters<typeof startGroupStatusComment>[2]['github'], final: GroupStatus) {
  const comment = startGroupStatusComment(group, KEYS, { runner: codeRunner(), github: session })
  expect(comment).not.toBeNull()
  comment?.show(status({ status: '', sending: true }))
  await comment?.finish(final, new AbortController().signal)
}

describe("the code pull request's status comment for a group", () => {
  it('is posted once with its signed marker, and a later run edits that comment rather than posting another', async () => {
    captureLog()
    const started = await startUnitGitHub()
    gh = started.gh
    await oneRun(started.session, status({ status: 'completed' }))
    await oneRun(
      started.session,
      status({
        jobId: 'job_2',
        status: 'completed',
        docs: { number: 31, url: 'https://github.com/octo-org/docs-site/pull/31' }
      })
    )
    const comments = gh.threadComments(7)
    expect(comments).toHaveLength(1)
    expect(
      comments[0]?.body.startsWith(`${signedMarker}\n📝 **Docs for this pull request** (group \`api-docs\`)`)
    ).toBe(true)
    expect(comments[0]?.body).toContain(
      '- Docs pull request: [#31](https://github.com/octo-org/docs-site/pull/31), open'
    )
    expect(comments[0]?.body).toContain('- Job: `job_2`, `completed`')
    expect(gh.requests.filter((r) => r.method === 'POST')).toHaveLength(1)
  })

  it("never edits another author's comment that holds the marker, even one copied whole: it posts its own", async () => {
    captureLog()
    const outsider = `${signedMarker}\nnot the action's`
    const started = await startUnitGitHub({ threadComments: [{ issueNumber: 7, body: outsider, login: 'mallory' }] })
    gh = started.gh
    await oneRun(started.session, status({ status: 'completed' }))
    const comments = gh.threadComments(7)
    expect(comments.map((c) => [c.login, c.body === outsider])).toEqual([
      ['mallory', true],
      ['github-actions[bot]', false]
    ])
  })

  it('is not started for a run whose group could not be looked for, or without a token', async () => {
    const started = await startUnitGitHub()
    gh = started.gh
    const unread: GroupRun = { ...group, lookup: { kind: 'unreadable', failure: new Error('x') as never } }
    const onGitHub = { runner: codeRunner(), github: started.session }
    expect(startGroupStatusComment(unread, KEYS, onGitHub)).toBeNull()
    expect(startGroupStatusComment(group, { ...KEYS, githubToken: '' }, onGitHub)).toBeNull()
    expect(gh.requests).toEqual([])
  })
})

describe("which group's status comment a code pull request holds", () => {
  const bot = { login: 'github-actions[bot]', type: 'Bot' }
  const listed = (body: string, by: { login: string; type: string } = bot, id = 1) => ({ id, body, ...by })
  const read = (comments: ReturnType<typeof listed>[]) => {
    const authorReads: number[] = []
    const readAuthor = async (): Promise<Author> => (authorReads.push(1), 'an app')
    return findStatusGroup(comments, CODE, KEYS, { runner: { serverUrl: 'https://github.com' }, readAuthor }).then(
      (found) => ({ ...found, authorReads: authorReads.length })
    )
  }

  it("names the group of the action's own comment whose marker verifies", async () => {
    expect(await read([listed('hello'), listed(`${signedMarker}\nstatus`, bot, 2)])).toEqual({
      group: 'api-docs',
      unverified: 0,
      copies: 0,
      authorReads: 1
    })
  })

  it('counts a verified marker in a person’s comment as a copy, and names no group', async () => {
    expect(await read([listed(`${signedMarker}`, { login: 'mallory', type: 'User' })])).toMatchObject({
      group: '',
      copies: 1
    })
  })

  it('names no group for a marker signed for another pull request or key, and reads no author for it', async () => {
    const otherPull = groupStatusMarker(
      'api-docs',
      statusSignature(KEYS, { ...CODE, number: 8 }, 'api-docs', { serverUrl: 'https://github.com' })
    )
    const otherKey = groupStatusMarker(
      'api-docs',
      statusSignature({ ...KEYS, apiKey: 'svc_other' }, CODE, 'api-docs', { serverUrl: 'https://github.com' })
    )
    expect(
      await read([listed(otherPull), listed(otherKey, bot, 2), listed(groupStatusMarker('api-docs'), bot, 3)])
    ).toEqual({
      group: '',
      // An unsigned marker is no status marker at all: not even counted.
      unverified: 2,
      copies: 0,
      authorReads: 0
    })
  })
})
