// What a run with a group leaves on the stand-in GitHub once it has ended: the group's mark moved on
// its docs pull request's note only after a delivered message and only forward (another run's later
// mark stays), and the docs pull request told when its code pull request was merged or closed.
import { describe, expect, it, vi } from 'vitest'
import { groupMarker, markedGroups } from '../../../src/group/group-marker.js'
import type { GroupRun } from '../../../src/kernel/group.js'
import { moveGroupMark, recordGroupRun, tellDocsCodeClosed } from '../../../src/group/group-record.js'
import type { GroupEnding } from '../../../src/kernel/group.js'
import type { NotePlace } from '../../../src/github/note-place.js'
import { readRunner, type Runner } from '../../../src/github/runner.js'
import type { GitHubSession } from '../../../src/github/session.js'
import {
  changedFile,
  pullRequestEvent,
  standInCommit,
  writeEventFile,
  type Options
} from '../../support/stand-in-github.js'
import { captureLog, cleanUpAfterEach, startUnitGitHub, type StandInGitHub } from '../../support/unit-github.js'

const KEYS = { githubToken: 'ghs_unit', apiKey: 'svc_unit_key', projectId: 'docs' }
const REPO = 'octo-org/docs-site'
const NAME = 'api-docs'
const history = ['one', 'two', 'three'].map((n) => standInCommit(`Add ${n}`, [changedFile(`src/${n}.ts`)]))
const [ONE, TWO, THREE] = history.map((c) => c.sha)
const DOCS = { owner: 'octo-org', repo: 'docs-site', number: 31 }
const PLACE: NotePlace = { host: 'github.com', pr: DOCS, projectId: 'docs' }
const note = (mark: string) => `${groupMarker(KEYS, PLACE, { jobId: 'job_31', group: NAME, mark })}\n📝 note`
const dispatch = (sha: string) =>
  readRunner({ GITHUB_REPOSITORY: REPO, GITHUB_SHA: sha, GITHUB_EVENT_NAME: 'workflow_dispatch' })

let gh: StandInGitHub | undefined
cleanUpAfterEach()

/** The stand-in with the group's note on #31 at `mark`, and the group as this run's look-up found it. */
async function world(mark: string, covers: string, options: Options = {}) {
  const started = await startUnitGitHub({
    repository: { history },
    labels: { 31: [`docs-agent:${NAME}`] },
    threadComments: [{ issueNumber: 31, body: note(mark), login: 'github-actions[bot]' }],
    ...options
  })
  gh = started.gh
  const comment = gh.allComments[0]
  const found = {
    pr: DOCS,
    url: 'https://github.com/octo-org/docs-site/pull/31',
    jobId: 'job_31',
    mark,
    commentId: comment?.id ?? 0,
    body: note(mark),
    open: true
  }
  const group: GroupRun = {
    settings: { name: NAME, repository: REPO },
    lookup: { kind: 'found', found },
    open: found,
    mark,
    covers,
    ancestry: 'ahead'
  }
  return { group, session: started.session, commentId: found.commentId }
}

/** The marks the note on #31 holds now that verify. */
const marksNow = () =>
  markedGroups(gh?.threadComments(31)[0]?.body ?? '', KEYS, PLACE, NAME)
    .filter((m) => m.verified)
    .map((m) => m.mark)

const onGitHub = (runner: Runner, github: GitHubSession) => ({ runner, github })
const signal = () => new AbortController().signal

/** The group's note on the docs pull request edited meanwhile: by another run of the group, or by hand. */
async function editNote(session: GitHubSession, commentId: number, body: string) {
  const octokit = await session.client()
  await octokit.rest.issues.updateComment({
    owner: 'octo-org',
    repo: 'docs-site',
    comment_id: commentId,
    body
  })
}

describe("moving the group's mark", () => {
  it("moves it forward to this run's commit, signed, keeping the rest of the note", async () => {
    const log = captureLog()
    const { group, session } = await world(ONE, THREE)
    await moveGroupMark(group, KEYS, signal(), onGitHub(dispatch(THREE), session))
    expect(marksNow()).toEqual([THREE])
    expect(gh?.threadComments(31)[0]?.body).toContain('📝 note')
    expect(log.lines).toContain(
      `The note on pull request #31 of ${REPO} now says the group's docs cover the changes up to ${THREE.slice(0, 7)}.`
    )
  })

  it('never moves it back: a later mark another run left meanwhile stays', async () => {
    const log = captureLog()
    const { group, session, commentId } = await world(ONE, TWO)
    // Another run, for a later commit, moved the mark after this run's look-up.
    await editNote(session, commentId, note(THREE))
    await moveGroupMark(group, KEYS, signal(), onGitHub(dispatch(TWO), session))
    expect(marksNow()).toEqual([THREE])
    expect(gh?.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1)
    expect(log.lines).toContain(
      `The group's mark on pull request #31 of ${REPO} is at ${THREE.slice(0, 7)} already, after another run: left there.`
    )
  })

  it('moves past another run’s mark when this commit is after it', async () => {
    captureLog()
    const { group, session, commentId } = await world(ONE, THREE)
    await editNote(session, commentId, note(TWO))
    await moveGroupMark(group, KEYS, signal(), onGitHub(dispatch(THREE), session))
    expect(marksNow()).toEqual([THREE])
  })

  it("a note that lost the group's signed marker is left as it is, with a warning", async () => {
    const log = captureLog()
    const { group, session, commentId } = await world(ONE, THREE)
    await editNote(session, commentId, 'edited by hand')
    await moveGroupMark(group, KEYS, signal(), onGitHub(dispatch(THREE), session))
    expect(gh?.threadComments(31)[0]?.body).toBe('edited by hand')
    expect(log.warnings).toEqual([
      `The note of group ${NAME} on pull request #31 of ${REPO} no longer holds the group's signed marker, so its mark was not moved to ${THREE.slice(0, 7)}. The next run of the group does not find the pull request and creates a job of its own.`
    ])
  })

  it.each<[string, 'create' | 'message' | undefined, string[]]>([
    ['a message the service took moves it', 'message', [THREE]],
    ['a create leaves the open note as it was (the new job’s note carries its own mark)', 'create', [ONE]],
    ['a run that sent nothing leaves it, so the next run sends these changes', undefined, [ONE]]
  ])('%s', async (_name, delivered, marks) => {
    captureLog()
    const { group, session } = await world(ONE, THREE)
    const outcome: GroupEnding = { ending: 'final', jobId: 'job_31', job: { status: 'completed', prLink: null } }
    await recordGroupRun(
      { outcome, group, delivered, settings: KEYS, statusComment: null },
      signal(),
      onGitHub(dispatch(THREE), session)
    )
    expect(marksNow()).toEqual(marks)
  })
})

describe('the docs pull request told its code pull request closed', () => {
  const closedCode = (merged: boolean) =>
    readRunner({
      GITHUB_REPOSITORY: REPO,
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: writeEventFile(pullRequestEvent({ action: 'closed', merged, number: 7, headSha: THREE }))
    })

  it('a merge with changes left unsent: the docs pull request says so, with their range, once', async () => {
    captureLog()
    const { group, session } = await world(ONE, THREE)
    const outcome: GroupEnding = { ending: 'held', hold: { why: 'waited-out' }, jobId: '', job: null }
    await recordGroupRun(
      { outcome, group, delivered: undefined, settings: KEYS, statusComment: null },
      signal(),
      onGitHub(closedCode(true), session)
    )
    const told = gh?.threadComments(31).slice(1) ?? []
    expect(told).toHaveLength(1)
    expect(told[0]?.body).toBe(
      `📝 The code pull request [octo-org/docs-site#7](https://github.com/octo-org/docs-site/pull/7) that this docs pull request documents was merged. ` +
        `Its last changes, [${ONE.slice(0, 7)}...${THREE.slice(0, 7)}](https://github.com/octo-org/docs-site/compare/${ONE}...${THREE}), were not sent to the job (it was still working on the ones before): ask for them here before merging. ` +
        'Review and merge this pull request to publish its docs.'
    )
  })

  it('a word that could not be left is a warning that names how the code pull request ended', async () => {
    for (const merged of [true, false]) {
      const log = captureLog()
      const { group, session } = await world(ONE, THREE, {
        faults: { 'comment-create': { status: 403, message: 'Resource not accessible by integration' } }
      })
      const outcome: GroupEnding = { ending: 'final', jobId: 'job_31', job: { status: 'completed', prLink: null } }
      await recordGroupRun(
        { outcome, group, delivered: 'message', settings: KEYS, statusComment: null },
        signal(),
        onGitHub(closedCode(merged), session)
      )
      expect(log.warnings.filter((w) => w.startsWith('Could not tell'))).toEqual([
        expect.stringMatching(
          new RegExp(
            `^Could not tell group ${NAME}'s docs pull request #31 of ${REPO} that the code pull request #7 ${merged ? 'was merged' : 'was closed without merging'}: HTTP 403`
          )
        )
      ])
      await gh?.close()
      vi.restoreAllMocks()
    }
  })

  it('closed without merging: its changes may not land', async () => {
    const { group, session } = await world(ONE, THREE)
    const code = { pr: { owner: 'octo-org', repo: 'docs-site', number: 7 }, closed: true, merged: false }
    const told = await tellDocsCodeClosed({ code, group }, signal(), onGitHub(dispatch(THREE), session))
    expect(told).toEqual({ docs: `#31 of ${REPO}`, untold: null })
    expect(gh?.threadComments(31)[1]?.body).toMatch(
      /documents was closed without merging\. Its changes may not land: review this pull request, or close it\.$/
    )
  })

  it('a word GitHub refused is returned as a sentence, and never sent twice', async () => {
    const { group, session } = await world(ONE, THREE, {
      faults: { 'comment-create': { status: 403, message: 'Resource not accessible by integration' } }
    })
    const code = { pr: { owner: 'octo-org', repo: 'docs-site', number: 7 }, closed: true, merged: true }
    const told = await tellDocsCodeClosed({ code, group }, signal(), onGitHub(dispatch(THREE), session))
    expect(told.untold).toMatch(
      /^HTTP 403 \(Resource not accessible by integration[^)]*\)\. Check that githubToken may write there/
    )
    expect(gh?.requests.filter((r) => r.method === 'POST')).toHaveLength(1)
  })

  it('a server error is tried once more', async () => {
    const { group, session } = await world(ONE, THREE, {
      faults: { 'comment-create': { status: 502, message: 'Bad Gateway', times: 1 } }
    })
    const code = { pr: { owner: 'octo-org', repo: 'docs-site', number: 7 }, closed: true, merged: true }
    const told = await tellDocsCodeClosed({ code, group }, signal(), onGitHub(dispatch(THREE), session))
    expect(told.untold).toBeNull()
    expect(gh?.threadComments(31)).toHaveLength(2)
  })
})
