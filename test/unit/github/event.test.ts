// What the runner sets for a step, read once (readRunner): the event keyed by its name, each with its
// payload read into its own shape, the repository, the addresses, the run.
import { afterAll, describe, expect, it } from 'vitest'
import { readRunner } from '../../../src/github/runner.js'
import {
  commitId,
  issueCommentEvent,
  issuesEvent,
  pullRequestEvent,
  pushEvent,
  releaseEvent,
  removeEventFiles,
  reviewCommentEvent,
  reviewEvent,
  standInCommit,
  workflowDispatchEvent,
  writeEventFile
} from '../../support/stand-in-github.js'

afterAll(removeEventFiles)

/** The runner of a run started by `eventName`, its payload in the event file. */
function runnerOf(eventName: string, payload: object, env: NodeJS.ProcessEnv = {}) {
  return readRunner({
    GITHUB_EVENT_NAME: eventName,
    GITHUB_EVENT_PATH: writeEventFile(payload),
    GITHUB_REPOSITORY: 'octo-org/docs-site',
    ...env
  })
}

describe('readRunner', () => {
  it('reads the event, the repository, the addresses and the run as the runner sets them', () => {
    const path = writeEventFile(pushEvent({ branch: 'main' }))
    const runner = readRunner({
      GITHUB_EVENT_NAME: 'push',
      GITHUB_EVENT_PATH: path,
      GITHUB_REPOSITORY: 'octo-org/docs-site',
      GITHUB_SERVER_URL: 'https://ghe.example.com/',
      GITHUB_API_URL: 'https://ghe.example.com/api/v3',
      GITHUB_RUN_ID: '4711',
      GITHUB_WORKFLOW_REF: 'octo-org/docs-site/.github/workflows/docs.yml@refs/heads/main',
      GITHUB_REF: 'refs/heads/main',
      GITHUB_SHA: 'a'.repeat(40)
    })
    expect(runner).toEqual({
      event: expect.objectContaining({ name: 'push', ref: 'refs/heads/main' }),
      eventFile: { path, problem: null },
      repository: 'octo-org/docs-site',
      serverUrl: 'https://ghe.example.com',
      apiUrl: 'https://ghe.example.com/api/v3',
      runId: '4711',
      workflowRef: 'octo-org/docs-site/.github/workflows/docs.yml@refs/heads/main',
      refName: 'main',
      sha: 'a'.repeat(40)
    })
  })

  it("falls back to github.com's addresses, and to an empty payload when the event file cannot be read", () => {
    const runner = readRunner({ GITHUB_EVENT_NAME: 'push', GITHUB_EVENT_PATH: '/nonexistent/event.json' })
    expect(runner).toMatchObject({ serverUrl: 'https://github.com', apiUrl: 'https://api.github.com' })
    expect(runner.event).toMatchObject({ name: 'push', ref: '', before: '', after: '', commits: [] })
    expect(runner.eventFile).toMatchObject({ problem: 'unreadable', path: '/nonexistent/event.json' })
    expect(readRunner({}).eventFile).toMatchObject({ problem: 'no path' })
    expect(readRunner({}).event).toEqual({ name: 'other', eventName: '' })
  })

  it("takes the payload's repository when the runner names none", () => {
    const payload = issueCommentEvent({ body: '/docs x', repository: 'other/repo' })
    expect(runnerOf('issue_comment', payload, { GITHUB_REPOSITORY: '' }).repository).toBe('other/repo')
    expect(runnerOf('issue_comment', payload).repository).toBe('octo-org/docs-site')
  })
})

describe('the event, keyed by its name', () => {
  it('a push: its ref, its commit ids, who pushed, and the commits it lists with their paths', () => {
    const commit = standInCommit('Add the dry-run page', [
      { filename: 'docs/dry-run.md', status: 'added', additions: 3, deletions: 0 }
    ])
    const { event } = runnerOf('push', pushEvent({ branch: 'main', forced: true, commits: [commit] }))
    expect(event).toEqual({
      name: 'push',
      ref: 'refs/heads/main',
      before: commitId('before'),
      after: commit.sha,
      created: false,
      deleted: false,
      forced: true,
      sender: { login: 'octo-pusher', type: 'User' },
      pusherName: 'octo-pusher',
      defaultBranch: 'main',
      commits: [
        {
          id: commit.sha,
          message: 'Add the dry-run page',
          author: { username: commit.author.login, name: commit.author.name },
          added: ['docs/dry-run.md'],
          removed: [],
          modified: []
        }
      ]
    })
  })

  it.each(['pull_request', 'pull_request_target'])('a %s event: the pull request, its branches and counts', (name) => {
    const payload = pullRequestEvent({ number: 9, fork: 'stranger/docs-site', action: 'synchronize', draft: true })
    const { event } = runnerOf(name, payload)
    expect(event).toMatchObject({ name, action: 'synchronize', sender: { login: 'octo-contributor', type: 'User' } })
    expect(event.name === name && 'pullRequest' in event && event.pullRequest).toEqual({
      number: 9,
      isPull: true,
      title: 'Add a --dry-run flag',
      body: 'Adds `--dry-run`, which prints what would change.',
      user: { login: 'octo-contributor', type: 'User' },
      authorAssociation: 'CONTRIBUTOR',
      locked: false,
      htmlUrl: 'https://github.com/octo-org/docs-site/pull/9',
      state: 'open',
      merged: false,
      draft: true,
      commits: 1,
      changedFiles: 2,
      additions: 6,
      deletions: 2,
      head: { sha: commitId('pr-head'), ref: 'feature/dry-run', repository: 'stranger/docs-site', fork: false },
      base: { ref: 'main', repository: 'octo-org/docs-site' }
    })
  })

  it('an issue comment: the comment, and its thread (an issue, or a pull request)', () => {
    const { event } = runnerOf('issue_comment', issueCommentEvent({ body: '/docs x', number: 12, onPullRequest: true }))
    expect(event).toMatchObject({
      name: 'issue_comment',
      action: 'created',
      comment: {
        id: 4242,
        body: '/docs x',
        user: { login: 'octo-maintainer', type: 'User' },
        authorAssociation: 'OWNER',
        inReplyTo: undefined
      },
      thread: { number: 12, isPull: true, title: 'Retries are not documented' }
    })
    const onIssue = runnerOf('issue_comment', issueCommentEvent({ body: '/docs x' })).event
    expect(onIssue).toMatchObject({ thread: { isPull: false } })
  })

  it('a review comment: its place in the diff and the comment it replies under', () => {
    const payload = reviewCommentEvent({ body: '/docs this', commentId: 77, inReplyTo: 70, line: 3, startLine: 1 })
    const { event } = runnerOf('pull_request_review_comment', payload)
    expect(event).toMatchObject({
      name: 'pull_request_review_comment',
      comment: { id: 77, inReplyTo: 70, location: { path: 'docs/cli.md', startLine: 1, line: 3, side: 'RIGHT' } },
      thread: { number: 31, isPull: true }
    })
  })

  it('a review: its body as the comment, on the pull request', () => {
    const { event } = runnerOf('pull_request_review', reviewEvent({ body: '/docs add examples', reviewId: 6 }))
    expect(event).toMatchObject({
      name: 'pull_request_review',
      action: 'submitted',
      comment: { id: 6, body: '/docs add examples' },
      thread: { number: 31, isPull: true }
    })
  })

  it('an issues event: the issue, and who labelled it', () => {
    const payload = issuesEvent({ number: 5, locked: true, authorAssociation: 'MEMBER', labeller: 'octo-lead' })
    const { event } = runnerOf('issues', payload)
    expect(event).toMatchObject({
      name: 'issues',
      action: 'labeled',
      sender: { login: 'octo-lead', type: 'User' },
      issue: { number: 5, isPull: false, locked: true, authorAssociation: 'MEMBER', user: { login: 'someone-else' } }
    })
  })

  it('a release: its tag, name, notes and dates', () => {
    const { event } = runnerOf('release', releaseEvent({ tag: 'v2.0.0', prerelease: true, id: 11 }))
    expect(event).toEqual({
      name: 'release',
      action: 'published',
      release: {
        id: 11,
        tagName: 'v2.0.0',
        name: 'Version 2.0.0',
        body: 'Adds the --dry-run flag.',
        prerelease: true,
        publishedAt: '2026-11-02T10:00:00Z',
        createdAt: '2026-11-02T10:00:00Z'
      }
    })
  })

  it.each([
    ['workflow_dispatch', workflowDispatchEvent()],
    ['schedule', {}],
    ['deployment', { deployment: { id: 1 } }]
  ])('any other event (%s): its name alone', (name, payload) => {
    expect(runnerOf(name, payload).event).toEqual({ name: 'other', eventName: name })
  })

  it('a malformed payload reads as empty fields, never an error, and never as another shape', () => {
    const malformed = {
      action: 7,
      ref: ['refs/heads/main'],
      before: 'not a commit',
      after: '<script>',
      commits: [{ id: 'nope', message: 'x' }, 'text', null],
      comment: { id: '4242', body: 3, user: 'octo' },
      issue: { number: -1 },
      pull_request: { number: 1.5, head: 'x' },
      release: { tag_name: null },
      sender: ['octo']
    }
    expect(runnerOf('push', malformed).event).toMatchObject({ ref: '', before: '', after: '', commits: [] })
    expect(runnerOf('issue_comment', malformed).event).toEqual({
      name: 'issue_comment',
      action: '',
      comment: null,
      thread: null
    })
    expect(runnerOf('pull_request', malformed).event).toEqual({
      name: 'pull_request',
      action: '',
      pullRequest: null,
      sender: { login: '', type: '' }
    })
    expect(runnerOf('issues', malformed).event).toMatchObject({ issue: null })
    expect(runnerOf('release', malformed).event).toMatchObject({ release: null })
    // A payload that is no object at all (an array) reads as the empty one.
    expect(runnerOf('push', ['x']).event).toMatchObject({ name: 'push', ref: '', commits: [] })
  })
})
