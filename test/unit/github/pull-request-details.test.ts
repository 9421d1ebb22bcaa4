// The agent's pull request as GitHub shows it (src/github/pull-request-details.ts): one bounded read
// from the stand-in for GitHub's API on 127.0.0.1, its answer checked and its title neutralised; a
// pull request the token may not read is one debug line, never a warning.
import { openGitHubSession } from '../../../src/github/session.js'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  changeLine,
  pullRequestDetails,
  readPullRequestDetails,
  type PullRequestRef
} from '../../../src/github/pull-request-details.js'
import { apiPullRequest, startStandInGitHub, type StandInGitHub } from '../../support/stand-in-github.js'

const TOKEN = 'ghs_pull_request_details_token_0123456789'
const PR: PullRequestRef = { owner: 'octo-org', repo: 'docs-site', number: 7 }

let github: StandInGitHub | undefined
let written: string[]
beforeEach(() => {
  written = []
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    written.push(String(chunk))
    return true
  })
})
afterEach(async () => {
  vi.restoreAllMocks()
  await github?.close()
  github = undefined
})

/** The workflow commands the run wrote: `debug`, `warning`, `notice`, or `info` for a plain line. */
function lines(): { level: string; text: string }[] {
  return written
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const command = /^::(\w+)::(.*)$/.exec(line)
      return command ? { level: command[1], text: command[2] } : { level: 'info', text: line }
    })
}

function read(options: { token?: string; signal?: AbortSignal; requestMs?: number } = {}) {
  const apiUrl = github?.apiUrl ?? 'http://127.0.0.1:9'
  const limits = options.requestMs
    ? { maxRequests: 1, totalMs: options.requestMs, requestMs: options.requestMs, maxBodyBytes: 1024 * 1024 }
    : undefined
  const signal = options.signal ?? new AbortController().signal
  const session = openGitHubSession(options.token ?? TOKEN, { serverUrl: 'https://github.com', apiUrl })
  return readPullRequestDetails(PR, session, signal, { tokenInput: 'githubToken', limits })
}

describe('readPullRequestDetails', () => {
  it('reads the title, state, files changed and lines of the pull request, once, with the run token', async () => {
    github = await startStandInGitHub({
      repository: { pulls: { 7: apiPullRequest({ number: 7, changedFiles: 3, additions: 42, deletions: 7 }) } }
    })
    const details = await read()

    expect(details).toEqual({
      number: 7,
      title: 'Document the --dry-run flag',
      state: 'open',
      changedFiles: 3,
      additions: 42,
      deletions: 7
    })
    expect(details && changeLine(details)).toBe('open · 3 files changed, +42 −7')
    expect(github.pullReads.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([
      ['GET', '/repos/octo-org/docs-site/pulls/7', `Bearer ${TOKEN}`]
    ])
    expect(lines().filter((line) => line.level !== 'debug')).toEqual([])
  })

  it.each(['draft', 'merged', 'closed'] as const)('says a %s pull request is one', async (state) => {
    github = await startStandInGitHub({ repository: { pulls: { 7: apiPullRequest({ number: 7, state }) } } })
    expect((await read())?.state).toBe(state)
  })

  it.each([
    [403, 'the token lacks "pull-requests: read" (HTTP 403)'],
    [404, 'GitHub answered HTTP 404']
  ])('a %i is one debug line and no details, never a warning', async (status, words) => {
    github = await startStandInGitHub({ faults: { pull: { status, message: 'Resource not accessible' } } })

    expect(await read()).toBeNull()
    expect(github.pullReads).toHaveLength(1)
    expect(lines()).toEqual([
      {
        level: 'debug',
        text: expect.stringMatching(
          new RegExp(
            `^Could not read pull request #7 of octo-org/docs-site: .*${words.replace(/[()]/g, '\\$&')}.*The summary shows its link only\\.$`
          )
        )
      }
    ])
  })

  it('a server error is a plain line, neither a warning nor a failure', async () => {
    github = await startStandInGitHub({ faults: { pull: { status: 502, message: 'Bad gateway' } } })

    expect(await read()).toBeNull()
    expect(lines().map((line) => line.level)).toEqual(['info'])
    expect(lines()[0].text).toContain("GitHub's API answered HTTP 502")
  })

  it('gives up on an answer that never comes within its bound', async () => {
    github = await startStandInGitHub({ faults: { pull: 'hang' } })

    expect(await read({ requestMs: 300 })).toBeNull()
    expect(lines().map((line) => line.level)).toEqual(['info'])
    expect(lines()[0].text).toMatch(/no answer within 0\.3 s/)
  })

  it.each([
    ['another number', apiPullRequest({ number: 8 })],
    ['no counts', { ...apiPullRequest({ number: 7 }), additions: '42' }],
    ['a state GitHub does not give', { ...apiPullRequest({ number: 7 }), state: 'reopened' }],
    ['no title', { ...apiPullRequest({ number: 7 }), title: '' }],
    ['a list', [apiPullRequest({ number: 7 })]]
  ])('an answer of another shape (%s) gives no details', async (_, body) => {
    github = await startStandInGitHub({ faults: { pull: { status: 200, body: JSON.stringify(body) } } })

    expect(await read()).toBeNull()
    expect(lines().map((line) => line.level)).toEqual(['info'])
    expect(lines()[0].text).toContain("GitHub's answer could not be read (not a pull request of that number)")
  })

  it('sends nothing without a token, or once the run is ending', async () => {
    github = await startStandInGitHub({ repository: { pulls: { 7: apiPullRequest({ number: 7 }) } } })
    const cancelled = new AbortController()
    cancelled.abort()

    expect(await read({ token: '' })).toBeNull()
    expect(await read({ signal: cancelled.signal })).toBeNull()
    expect(github.requests).toEqual([])
    expect(lines().map((line) => line.level)).toEqual(['debug', 'debug'])
  })
})

describe('pullRequestDetails', () => {
  it('neutralises the title: one line, no workflow command, cut to 200 characters', () => {
    const title = `Docs\n::error::pwned ##[warning]x\u202e${'long '.repeat(100)}`
    const details = pullRequestDetails({ ...apiPullRequest({ number: 7 }), title }, 7)

    expect(details?.title).not.toMatch(/[\n\u202e]/)
    expect(details?.title).toContain('\\n::error::pwned ## [warning]x\\u202e')
    expect([...(details?.title ?? '')].length).toBeLessThanOrEqual(200)
    expect(details?.title.endsWith('…')).toBe(true)
  })

  it('says one file in the singular', () => {
    const details = pullRequestDetails(apiPullRequest({ number: 7, changedFiles: 1, additions: 0, deletions: 2 }), 7)
    expect(details && changeLine(details)).toBe('open · 1 file changed, +0 −2')
  })
})
