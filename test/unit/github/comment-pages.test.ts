// A thread's comments listed oldest first (listCommentsOldestFirst), page after page, against the
// stand-in GitHub (100 a page, as GitHub lists them): what is visited, in which order, and the requests
// it costs; a page GitHub failed once is read once more only when the caller asks.
import { afterEach, describe, expect, it } from 'vitest'
import { listCommentsOldestFirst } from '../../../src/github/comment-pages.js'
import { ReadFailure } from '../../../src/github/read-failure.js'
import { readRunner } from '../../../src/github/runner.js'
import { openGitHubSession } from '../../../src/github/session.js'
import { startStandInGitHub, type Options, type StandInGitHub } from '../../support/stand-in-github.js'

const TOKEN = 'ghs_stand_in_token_0123456789'
const LIMITS = { maxRequests: 10, totalMs: 10_000, requestMs: 5_000, maxBodyBytes: 8 * 1024 * 1024 }
const thread = { owner: 'octo-org', repo: 'docs-site', number: 31 }
const pages = { what: "the pull request's comments", permission: 'pull-requests: read' as const }

let github: StandInGitHub | null = null
afterEach(async () => {
  await github?.close()
  github = null
})

/** The stand-in with `count` comments on #31, `comment 1` the oldest. */
async function threadOf(count: number, options: Options = {}): Promise<StandInGitHub> {
  const threadComments = Array.from({ length: count }, (_, i) => ({
    issueNumber: 31,
    body: `comment ${i + 1}`,
    login: 'octo-reviewer'
  }))
  github = await startStandInGitHub({ threadComments, ...options })
  return github
}

/** The bodies visited, in order, with at most `maxPages` pages; the reader is the session's. */
async function list(world: StandInGitHub, maxPages: number, readAgain = false): Promise<string[]> {
  const runner = readRunner({ GITHUB_API_URL: world.apiUrl, GITHUB_SERVER_URL: 'https://github.example' })
  const reader = openGitHubSession(TOKEN, runner).reader(LIMITS)
  if (!reader) throw new Error('The stand-in should be readable.')
  const visited: string[] = []
  try {
    await listCommentsOldestFirst(reader, thread, { ...pages, maxPages, readAgain }, (c) => visited.push(c.body))
  } finally {
    await reader.close()
  }
  return visited
}

const listings = (world: StandInGitHub) => world.requests.filter((r) => r.pathname.endsWith('/issues/31/comments'))

describe("a thread's comments, oldest first", () => {
  it('visits every comment in order, page after page, and stops at the first page that is not full', async () => {
    const world = await threadOf(250)
    const visited = await list(world, 5)
    expect(visited).toHaveLength(250)
    expect(visited.slice(0, 2)).toEqual(['comment 1', 'comment 2'])
    expect(visited.at(-1)).toBe('comment 250')
    expect(listings(world).map((r) => r.query.page)).toEqual(['1', '2', '3'])
  })

  it('reads no more than its pages: the oldest comments only', async () => {
    const world = await threadOf(250)
    const visited = await list(world, 2)
    expect(visited).toHaveLength(200)
    expect(visited.at(-1)).toBe('comment 200')
    expect(listings(world)).toHaveLength(2)
  })

  it('reads a page GitHub failed once (a 502) once more when asked, and otherwise throws what failed', async () => {
    const fault = { 'comment-list': { status: 502, message: 'Bad gateway', times: 1 } } as const
    const again = await threadOf(3, { faults: fault })
    expect(await list(again, 5, true)).toEqual(['comment 1', 'comment 2', 'comment 3'])
    expect(listings(again)).toHaveLength(2)
    await again.close()

    const once = await threadOf(3, { faults: fault })
    const failed = await list(once, 5).catch((error: unknown) => error)
    expect(failed).toBeInstanceOf(ReadFailure)
    expect((failed as ReadFailure).kind).toBe('server')
    expect(listings(once)).toHaveLength(1)
  })
})
