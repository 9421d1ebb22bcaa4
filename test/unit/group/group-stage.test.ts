// A run with a group, around its send: which runs are held before their prompt (a re-run, a group
// GitHub could not show for a while, a code pull request closed) and what the held ending says, and
// which go on; the docs pull request told when its code pull request closed, on the stand-in GitHub.
import { describe, expect, it } from 'vitest'
import { ReadFailure } from '../../../src/github/read-failure.js'
import { readRunner } from '../../../src/github/runner.js'
import type { GroupRun } from '../../../src/kernel/group.js'
import type { Prepared } from '../../../src/prompt/assemble.js'
import type { Route } from '../../../src/kernel/route.js'
import { holdGroupRun, holdUnreadContext } from '../../../src/group/group-stage.js'
import { pullRequestEvent, writeEventFile } from '../../support/stand-in-github.js'
import { captureLog, cleanUpAfterEach, startUnitGitHub, type StandInGitHub } from '../../support/unit-github.js'

const REPO = 'octo-org/docs-site'
const MARK = 'a'.repeat(40)
const COVERS = 'b'.repeat(40)
const found = {
  pr: { owner: 'octo-org', repo: 'docs-site', number: 31 },
  url: 'https://github.com/octo-org/docs-site/pull/31',
  jobId: 'job_31',
  mark: MARK,
  commentId: 1,
  body: '',
  open: true
}
const group = (fields: Partial<GroupRun> = {}): GroupRun => ({
  settings: { name: 'api-docs', repository: REPO },
  lookup: { kind: 'found', found },
  open: found,
  mark: MARK,
  covers: COVERS,
  ancestry: 'ahead',
  ...fields
})
const toGroup = (g: GroupRun): Route => ({ kind: 'message', jobId: 'job_31', via: 'group', group: g, found })
const dispatch = () => readRunner({ GITHUB_REPOSITORY: REPO, GITHUB_EVENT_NAME: 'workflow_dispatch' })
const codeClosed = (merged: boolean) =>
  readRunner({
    GITHUB_REPOSITORY: REPO,
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: writeEventFile(pullRequestEvent({ action: 'closed', merged, number: 7 }))
  })

let gh: StandInGitHub | undefined
cleanUpAfterEach()

async function hold(route: Route, runner = dispatch()) {
  const started = await startUnitGitHub()
  gh = started.gh
  return holdGroupRun(route, new AbortController().signal, { runner, github: started.session })
}

describe('holding a run with a group before its prompt', () => {
  it('a run whose changes are ahead of the mark goes on to send, and writes nothing first', async () => {
    expect(await hold(toGroup(group()))).toBeNull()
    expect(gh?.requests).toEqual([])
  })

  it("a run without a group, or a create for a group's first job, is not held", async () => {
    expect(await hold({ kind: 'create' })).toBeNull()
    expect(await hold({ kind: 'create', group: group({ open: null, mark: '', ancestry: 'fresh' }) })).toBeNull()
  })

  it("a re-run whose commit the group's mark covers sends nothing, naming the group's job", async () => {
    expect(await hold(toGroup(group({ ancestry: 'covered', covers: MARK })))).toEqual({
      ending: 'held',
      job: null,
      jobId: 'job_31',
      hold: { why: 'covered', group: 'api-docs', mark: MARK, covers: MARK }
    })
  })

  it('a group GitHub could not show for now (a 502) holds the run; a lasting failure (no permission) does not', async () => {
    const failing = (kind: 'server' | 'forbidden') =>
      group({
        lookup: {
          kind: 'unreadable',
          failure: new ReadFailure(kind, 'the pull requests', 'pull-requests: read', {
            status: kind === 'server' ? 502 : 403
          })
        },
        open: null
      })
    expect(await hold({ kind: 'create', group: failing('server') })).toMatchObject({
      ending: 'held',
      hold: {
        why: 'unread',
        group: 'api-docs',
        problem: expect.stringMatching(/^the pull requests: GitHub's API answered HTTP 502/)
      }
    })
    await gh?.close()
    expect(await hold({ kind: 'create', group: failing('forbidden') })).toBeNull()
  })

  it('a code pull request closed without merging: the docs pull request is told, and nothing is sent', async () => {
    captureLog()
    const ending = await hold(toGroup(group()), codeClosed(false))
    expect(ending).toEqual({
      ending: 'held',
      job: null,
      jobId: '',
      hold: { why: 'code-closed', group: 'api-docs', code: 7, merged: false, docs: `#31 of ${REPO}`, untold: null }
    })
    expect(gh?.threadComments(31).map((c) => c.body)).toEqual([expect.stringContaining('was closed without merging')])
  })

  it('a code pull request merged with changes the docs have not seen: they are sent first (told at the end)', async () => {
    expect(await hold(toGroup(group()), codeClosed(true))).toBeNull()
    expect(gh?.requests).toEqual([])
  })

  it('a code pull request merged with nothing left to send: told at once, nothing sent', async () => {
    captureLog()
    const ending = await hold(toGroup(group({ ancestry: 'covered' })), codeClosed(true))
    expect(ending).toMatchObject({ ending: 'held', hold: { why: 'code-closed', merged: true } })
    expect(gh?.threadComments(31)).toHaveLength(1)
  })
})

describe('holding a run whose context could not read the changes since the mark', () => {
  const prepared = (since: Prepared['since']): Prepared =>
    ({ prompt: 'p', context: '', sent: 'p', leaving: null, since }) as Prepared

  it('holds it, so the mark never moves over changes never sent', () => {
    expect(holdUnreadContext(toGroup(group()), prepared('unread'))).toMatchObject({
      ending: 'held',
      hold: { why: 'unread', mark: MARK, problem: expect.stringContaining(`the changes since ${MARK.slice(0, 7)}`) }
    })
  })

  it('lets it go when the changes were read, or when there is no mark yet', () => {
    expect(holdUnreadContext(toGroup(group()), prepared(undefined))).toBeNull()
    expect(holdUnreadContext({ kind: 'create', group: group({ mark: '' }) }, prepared('unread'))).toBeNull()
  })
})
