// The stand-in GitHub answers as GitHub does, and keeps its state across runs: every route it serves
// is one GitHub's REST description has (with a status it documents); a write can be made and answered
// 502; comments are deleted; issues are read, edited, closed and locked; workflows are turned on and
// off; commit statuses read back. A real server on 127.0.0.1, asked with fetch.
import { afterEach, describe, expect, it } from 'vitest'
import { GitHubRestDescription } from '../../support/github-rest-description.js'
import {
  ROUTE_NAMES,
  routeOf,
  startStandInGitHub,
  type Options,
  type RecordedRequest,
  type StandInGitHub
} from '../../support/stand-in-github.js'

const REPO = '/repos/octo-org/docs-site'
const SHA = 'a'.repeat(40)
const started: StandInGitHub[] = []
afterEach(async () => {
  for (const github of started.splice(0)) await github.close()
})

async function standIn(options: Options = {}): Promise<StandInGitHub> {
  const github = await startStandInGitHub(options)
  started.push(github)
  return github
}

interface Answered {
  status: number
  body: ReturnType<typeof JSON.parse>
  link: string | null
}

async function ask(github: StandInGitHub, method: string, path: string, body?: unknown): Promise<Answered> {
  const res = await fetch(`${github.apiUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : undefined, link: res.headers.get('link') }
}

describe("the stand-in GitHub's routes", () => {
  it('are each one of GitHub REST description, answered with a status it documents', async () => {
    const rest = new GitHubRestDescription()
    const github = await standIn({
      user: 'octo-user',
      workflows: [{ id: 77, path: '.github/workflows/report-later.yml' }],
      repository: {
        history: [
          { sha: SHA, message: 'one', author: { name: 'M' }, files: [] },
          { sha: 'b'.repeat(40), message: 'two', author: { name: 'M' }, files: [] }
        ],
        workflowRuns: [
          { id: 1, workflow_id: 161335, path: '.github/workflows/docs.yml', head_branch: 'main' } as never
        ],
        pullFiles: { 31: [] }
      },
      labels: { 31: ['docs'] }
    })
    const comment = (await ask(github, 'POST', `${REPO}/issues/12/comments`, { body: 'hi' })).body.id
    const issue = (await ask(github, 'POST', `${REPO}/issues`, { title: 'Index', labels: ['x'] })).body.number
    const answers: [string, string, number][] = []
    const samples: [string, string, unknown?][] = [
      ['POST', `${REPO}/issues/comments/${comment}/reactions`, { content: 'eyes' }],
      ['POST', `${REPO}/issues/12/reactions`, { content: 'eyes' }],
      ['GET', `${REPO}/collaborators/octo-user/permission`],
      ['POST', `${REPO}/issues/12/comments`, { body: 'two' }],
      ['PATCH', `${REPO}/issues/comments/${comment}`, { body: 'edited' }],
      ['GET', `${REPO}/issues/12/comments?per_page=100&page=1`],
      ['POST', `${REPO}/pulls/comments/5151/reactions`, { content: 'eyes' }],
      ['POST', `${REPO}/pulls/31/comments/5151/replies`, { body: 'reply' }],
      ['PATCH', `${REPO}/pulls/comments/5151`, { body: 'x' }],
      ['GET', '/user'],
      ['GET', `${REPO}/actions/runs/1`],
      ['GET', `${REPO}/actions/workflows/docs.yml/runs?branch=main`],
      ['GET', `${REPO}/compare/${SHA}...${'b'.repeat(40)}`],
      ['GET', `${REPO}/pulls/31/files?per_page=100`],
      ['GET', `${REPO}/releases`],
      ['GET', `${REPO}/pulls/31`],
      ['POST', `${REPO}/issues/31/labels`, { labels: ['docs'] }],
      ['GET', `${REPO}/issues?labels=docs&state=open`],
      ['POST', `${REPO}/issues`, { title: 't' }],
      ['GET', `${REPO}/issues/comments/${comment}`],
      ['POST', `${REPO}/statuses/${SHA}`, { state: 'pending', context: 'docs-agent' }],
      ['GET', `${REPO}/issues/${issue}`],
      ['PATCH', `${REPO}/issues/${issue}`, { body: 'dashboard' }],
      ['PUT', `${REPO}/issues/${issue}/lock`, { lock_reason: 'resolved' }],
      ['DELETE', `${REPO}/issues/${issue}/lock`],
      ['GET', `${REPO}/actions/workflows`],
      ['GET', `${REPO}/actions/workflows/report-later.yml`],
      ['PUT', `${REPO}/actions/workflows/77/disable`],
      ['PUT', `${REPO}/actions/workflows/report-later.yml/enable`],
      ['GET', `${REPO}/commits/${SHA}/statuses?per_page=100`],
      ['GET', `${REPO}/commits/${SHA}/status`],
      ['DELETE', `${REPO}/issues/comments/${comment}`],
      // And what the routes answer when what they name is not there.
      ['GET', `${REPO}/issues/comments/${comment}`],
      ['DELETE', `${REPO}/issues/comments/${comment}`],
      ['GET', `${REPO}/issues/4040`],
      ['GET', `${REPO}/actions/workflows/nothing.yml`]
    ]
    for (const [method, path, body] of samples) {
      answers.push([method, path, (await ask(github, method, path, body)).status])
    }
    const reactionId = (await ask(github, 'POST', `${REPO}/issues/comments/9999/reactions`, { content: '+1' })).body.id
    answers.push([
      'DELETE',
      `${REPO}/issues/comments/9999/reactions/${reactionId}`,
      (await ask(github, 'DELETE', `${REPO}/issues/comments/9999/reactions/${reactionId}`)).status
    ])

    const covered = new Set(github.requests.map((r) => routeOf(r)))
    expect(ROUTE_NAMES.filter((name) => !covered.has(name))).toEqual([])
    const problems = answers.flatMap(([method, path, status]) => {
      const operation = rest.operationOf(method, path.split('?')[0])
      if (!operation) return [`${method} ${path}: no operation of GitHub's REST description`]
      // GitHub answers 404 for anything not there, whether or not the operation lists it.
      return operation.statuses.has(status) || status === 404 ? [] : [`${method} ${path}: ${status} is not documented`]
    })
    expect(problems).toEqual([])
  })

  it('the description itself tells a path GitHub has from one it has not', () => {
    const rest = new GitHubRestDescription()
    expect(rest.operationOf('PUT', `${REPO}/actions/workflows/report-later.yml/enable`)?.operationId).toBe(
      'actions/enable-workflow'
    )
    expect(rest.operationOf('DELETE', `${REPO}/issues/comments/1`)?.statuses.has(204)).toBe(true)
    expect(rest.operationOf('POST', `${REPO}/issues/12/lock`)).toBeNull()
    expect(rest.operationOf('GET', `${REPO}/index-records`)).toBeNull()
  })
})

describe('a write made, then answered 502 (made: true)', () => {
  const MADE = { status: 502, message: 'Server Error', made: true }

  it('makes the comment, the edit, the deletion, the status, the reaction and the issue edit, and answers 502', async () => {
    const github = await standIn({
      faults: {
        'comment-create': { ...MADE, times: 1 },
        'comment-update': MADE,
        'status-create': MADE,
        reaction: MADE,
        'issue-update': MADE,
        'comment-delete': { ...MADE, when: (req: RecordedRequest) => req.pathname.endsWith('/9001') }
      }
    })
    const first = await ask(github, 'POST', `${REPO}/issues/12/comments`, { body: 'On it' })
    expect(first.status).toBe(502)
    expect(github.threadComments(12).map((c) => c.body)).toEqual(['On it'])
    // `times: 1`: the next is answered as usual.
    const second = await ask(github, 'POST', `${REPO}/issues/12/comments`, { body: 'Second' })
    expect(second.status).toBe(201)
    const [made] = github.comments
    expect((await ask(github, 'PATCH', `${REPO}/issues/comments/${made.id}`, { body: 'Ended' })).status).toBe(502)
    expect((await ask(github, 'GET', `${REPO}/issues/comments/${made.id}`)).body.body).toBe('Ended')
    expect((await ask(github, 'POST', `${REPO}/statuses/${SHA}`, { state: 'success', context: 'c' })).status).toBe(502)
    expect((await ask(github, 'GET', `${REPO}/commits/${SHA}/status`)).body.state).toBe('success')
    expect(
      (await ask(github, 'POST', `${REPO}/issues/comments/${made.id}/reactions`, { content: 'eyes' })).status
    ).toBe(502)
    // The reaction was given: the same again is GitHub's 200 with the one given before.
    expect(
      (await ask(github, 'POST', `${REPO}/issues/comments/${made.id}/reactions`, { content: 'eyes' })).status
    ).toBe(502)
    const issue = (await ask(github, 'POST', `${REPO}/issues`, { title: 'Index' })).body.number
    expect((await ask(github, 'PATCH', `${REPO}/issues/${issue}`, { body: 'dashboard' })).status).toBe(502)
    expect(github.issue(issue)?.body).toBe('dashboard')
    expect((await ask(github, 'DELETE', `${REPO}/issues/comments/${second.body.id}`)).status).toBe(502)
    expect(github.threadComments(12).map((c) => c.id)).toEqual([made.id])
    expect(github.madeDespiteFault.map((r) => `${r.method} ${r.pathname}`)).toEqual([
      `POST ${REPO}/issues/12/comments`,
      `PATCH ${REPO}/issues/comments/${made.id}`,
      `POST ${REPO}/statuses/${SHA}`,
      `POST ${REPO}/issues/comments/${made.id}/reactions`,
      `POST ${REPO}/issues/comments/${made.id}/reactions`,
      `PATCH ${REPO}/issues/${issue}`,
      `DELETE ${REPO}/issues/comments/${second.body.id}`
    ])
  })

  it('comes at random too: randomFaults draws a fault per request, now a plain 502, now one made', async () => {
    let draws = 0
    const github = await standIn({
      randomFaults: {
        rate: 1,
        random: () => 0,
        routes: ['comment-create'],
        fault: () => (draws++ % 2 === 0 ? { status: 502, message: 'Server Error' } : MADE)
      }
    })
    for (const body of ['lost', 'made']) {
      expect((await ask(github, 'POST', `${REPO}/issues/12/comments`, { body })).status).toBe(502)
    }
    expect(github.threadComments(12).map((c) => c.body)).toEqual(['made'])
    expect(github.randomlyFaulted).toHaveLength(2)
    expect(github.madeDespiteFault).toHaveLength(1)
  })
})

describe('bodies GitHub refuses', () => {
  it('a comment or an issue body past 65,536 characters is a 422, and nothing is written', async () => {
    const github = await standIn()
    const long = '説'.repeat(65_537)
    expect((await ask(github, 'POST', `${REPO}/issues/12/comments`, { body: long })).status).toBe(422)
    const id = (await ask(github, 'POST', `${REPO}/issues/12/comments`, { body: 'short' })).body.id
    expect((await ask(github, 'PATCH', `${REPO}/issues/comments/${id}`, { body: long })).status).toBe(422)
    expect((await ask(github, 'POST', `${REPO}/issues`, { title: 't', body: long })).status).toBe(422)
    expect(github.threadComments(12).map((c) => c.body)).toEqual(['short'])
    expect((await ask(github, 'POST', `${REPO}/issues/12/comments`, { body: '説'.repeat(65_536) })).status).toBe(201)
  })
})

describe('comments deleted', () => {
  it('through the API or by someone: gone from lists and reads, a 404 to edit, delete or react to', async () => {
    const github = await standIn()
    const asked = github.addComment({ issueNumber: 12, body: '/docs retries', login: 'octo-maintainer' })
    const reply = (await ask(github, 'POST', `${REPO}/issues/12/comments`, { body: 'On it' })).body.id
    expect(github.deleteComment(asked)).toBe(true)
    expect(github.deleteComment(asked)).toBe(false)
    expect((await ask(github, 'GET', `${REPO}/issues/comments/${asked}`)).status).toBe(404)
    expect((await ask(github, 'PATCH', `${REPO}/issues/comments/${asked}`, { body: 'x' })).status).toBe(404)
    expect((await ask(github, 'POST', `${REPO}/issues/comments/${asked}/reactions`, { content: 'eyes' })).status).toBe(
      404
    )
    expect((await ask(github, 'DELETE', `${REPO}/issues/comments/${reply}`)).status).toBe(204)
    expect((await ask(github, 'DELETE', `${REPO}/issues/comments/${reply}`)).status).toBe(404)
    expect((await ask(github, 'GET', `${REPO}/issues/12/comments`)).body).toEqual([])
    expect(github.comments).toEqual([])
    expect(github.deletedComments.map((c) => [c.id, c.login])).toEqual([
      [asked, 'octo-maintainer'],
      [reply, 'github-actions[bot]']
    ])
  })

  it('the list is oldest first, 100 a page at most, with Link headers, and who wrote each', async () => {
    const github = await standIn()
    for (let i = 0; i < 130; i++) github.addComment({ issueNumber: 12, body: `c${i}`, login: 'someone' })
    await ask(github, 'POST', `${REPO}/issues/12/comments`, { body: 'mine' })
    const first = await ask(github, 'GET', `${REPO}/issues/12/comments?per_page=200`)
    expect(first.body).toHaveLength(100)
    expect(first.body[0]).toMatchObject({ body: 'c0', user: { login: 'someone', type: 'User' } })
    expect(first.link).toContain('rel="next"')
    const second = await ask(github, 'GET', `${REPO}/issues/12/comments?per_page=100&page=2`)
    expect(second.body.map((c: { body: string }) => c.body).slice(-2)).toEqual(['c129', 'mine'])
    expect(second.body.at(-1).user).toEqual({ login: 'github-actions[bot]', type: 'Bot' })
    expect(second.link).toContain('rel="prev"')
    expect(second.link).not.toContain('rel="next"')
  })
})

describe('issues read, edited, closed and locked', () => {
  it('an issue the action opens is by the token; one a triager labelled is by the triager; an unknown one is a 404', async () => {
    const github = await standIn()
    const made = (await ask(github, 'POST', `${REPO}/issues`, { title: 'Jobs', labels: ['docs-agent:jobs'] })).body
    expect(made.user).toEqual({ login: 'github-actions[bot]', type: 'Bot' })
    const older = github.addIssue({ title: 'Roadmap', labels: ['docs-agent:jobs'], login: 'octo-triager' })
    expect(older).toBeLessThan(made.number)
    const listed = (await ask(github, 'GET', `${REPO}/issues?labels=docs-agent:jobs&state=open`)).body
    expect(listed.map((i: { number: number; user: { login: string } }) => [i.number, i.user.login])).toEqual([
      [made.number, 'github-actions[bot]'],
      [older, 'octo-triager']
    ])
    const read = (await ask(github, 'GET', `${REPO}/issues/${older}`)).body
    expect(read).toMatchObject({ number: older, state: 'open', state_reason: null, locked: false, title: 'Roadmap' })
    expect(read).not.toHaveProperty('pull_request')
    expect((await ask(github, 'GET', `${REPO}/issues/4040`)).status).toBe(404)
    const edited = await ask(github, 'PATCH', `${REPO}/issues/${made.number}`, {
      body: 'Open jobs: none',
      title: 'Jobs!'
    })
    expect(edited.body).toMatchObject({ body: 'Open jobs: none', title: 'Jobs!' })
    expect(github.issues.find((i) => i.number === made.number)?.body).toBe('Open jobs: none')
    const closed = await ask(github, 'PATCH', `${REPO}/issues/${made.number}`, {
      state: 'closed',
      state_reason: 'not_planned'
    })
    expect(closed.body).toMatchObject({ state: 'closed', state_reason: 'not_planned' })
    expect((await ask(github, 'GET', `${REPO}/issues?labels=docs-agent:jobs&state=open`)).body).toHaveLength(1)
  })

  it('a pull request read as an issue has its pull_request key', async () => {
    const github = await standIn({ labels: { 31: ['docs'] } })
    expect((await ask(github, 'GET', `${REPO}/issues/31`)).body).toHaveProperty('pull_request')
  })

  it('a request withdrawn: the thread closed as not planned and locked; a locked thread takes the token, not outsiders', async () => {
    const github = await standIn()
    github.addComment({ issueNumber: 12, body: '/docs retries', login: 'octo-maintainer' })
    github.closeIssue(12, { reason: 'not_planned', lock: true })
    expect((await ask(github, 'GET', `${REPO}/issues/12`)).body).toMatchObject({
      state: 'closed',
      state_reason: 'not_planned',
      locked: true,
      user: { login: 'someone-else', type: 'User' }
    })
    expect(() => github.addComment({ issueNumber: 12, body: 'me too', login: 'passer-by' })).toThrow(/locked/)
    expect((await ask(github, 'POST', `${REPO}/issues/12/comments`, { body: 'Withdrawn' })).status).toBe(201)
    expect((await ask(github, 'DELETE', `${REPO}/issues/12/lock`)).status).toBe(204)
    github.addComment({ issueNumber: 12, body: 'me too', login: 'passer-by' })
    expect((await ask(github, 'PUT', `${REPO}/issues/12/lock`)).status).toBe(204)
    expect(github.issue(12)?.locked).toBe(true)
  })

  it('lockedIssues still refuses the action itself, as a token without write is refused', async () => {
    const github = await standIn({ lockedIssues: [12] })
    expect((await ask(github, 'POST', `${REPO}/issues/12/comments`, { body: 'x' })).status).toBe(403)
    expect(github.issue(12)).toBeUndefined()
  })
})

describe('workflows turned on and off', () => {
  it('read by id or file name; enable and disable answer 204 and change its state; a test asks whether it is active', async () => {
    const github = await standIn({
      workflows: [{ id: 77, path: '.github/workflows/report-later.yml', state: 'disabled_manually' }]
    })
    expect(github.isWorkflowActive('report-later.yml')).toBe(false)
    expect((await ask(github, 'GET', `${REPO}/actions/workflows/77`)).body).toMatchObject({
      id: 77,
      path: '.github/workflows/report-later.yml',
      state: 'disabled_manually'
    })
    expect((await ask(github, 'PUT', `${REPO}/actions/workflows/report-later.yml/enable`)).status).toBe(204)
    expect(github.isWorkflowActive(77)).toBe(true)
    expect((await ask(github, 'PUT', `${REPO}/actions/workflows/77/disable`)).status).toBe(204)
    expect(github.workflow('report-later.yml')?.state).toBe('disabled_manually')
    expect(github.isWorkflowActive('docs.yml')).toBe(true)
    expect((await ask(github, 'PUT', `${REPO}/actions/workflows/nothing.yml/enable`)).status).toBe(404)
  })

  it('without actions: write, enable and disable are refused as GitHub refuses an integration', async () => {
    const github = await standIn({ actionsWrite: false, workflows: [{ id: 77, path: '.github/workflows/r.yml' }] })
    const refused = await ask(github, 'PUT', `${REPO}/actions/workflows/77/disable`)
    expect(refused.status).toBe(403)
    expect(refused.body.message).toBe('Resource not accessible by integration')
    expect(github.isWorkflowActive(77)).toBe(true)
    expect((await ask(github, 'GET', `${REPO}/actions/workflows/77`)).status).toBe(200)
  })
})

describe('commit statuses read back', () => {
  it('listed newest first, paged; combined, the newest per context', async () => {
    const github = await standIn()
    for (let i = 0; i < 35; i++)
      await ask(github, 'POST', `${REPO}/statuses/${SHA}`, { state: 'pending', context: 'a' })
    await ask(github, 'POST', `${REPO}/statuses/${SHA}`, { state: 'success', context: 'a', description: 'done' })
    const listed = await ask(github, 'GET', `${REPO}/commits/${SHA}/statuses`)
    expect(listed.body).toHaveLength(30)
    expect(listed.body[0]).toMatchObject({ state: 'success', description: 'done' })
    expect(listed.link).toContain('rel="next"')
    expect((await ask(github, 'GET', `${REPO}/commits/${SHA}/status`)).body).toMatchObject({
      state: 'success',
      total_count: 1,
      statuses: [{ state: 'success', context: 'a' }]
    })
    await ask(github, 'POST', `${REPO}/statuses/${SHA}`, { state: 'pending', context: 'b' })
    expect((await ask(github, 'GET', `${REPO}/commits/${SHA}/status`)).body.state).toBe('pending')
    expect((await ask(github, 'GET', `${REPO}/commits/${'c'.repeat(40)}/status`)).body).toMatchObject({
      state: 'pending',
      total_count: 0
    })
  })
})
