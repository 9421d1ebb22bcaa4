// What reading the context may cost the create, and what a failed read leaves: at most three
// requests, each with its own time limit and all within one, never past the step's deadline, the
// token sent to the API alone, and one warning that says what to do.
import http from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { gatherChangeContext } from '../../../src/context/change-context.js'
import type { ReadLimits } from '../../../src/github/reader.js'
import { contextRequest, TEST_LIMITS, TOKEN } from '../../support/context-request.js'
import {
  changedFile,
  pushEvent,
  standInCommit,
  startStandInGitHub,
  workflowRun,
  type StandInGitHub
} from '../../support/stand-in-github.js'

let github: StandInGitHub
let elsewhere: http.Server | undefined
afterEach(async () => {
  await github?.close()
  elsewhere?.closeAllConnections()
  await new Promise((resolve) => (elsewhere ? elsewhere.close(resolve) : resolve(undefined)))
  elsewhere = undefined
})

const history = [
  standInCommit('one', [changedFile('src/one.ts')]),
  standInCommit('two', [changedFile('src/two.ts')]),
  standInCommit('three', [changedFile('src/three.ts')])
]
const push = () => pushEvent({ before: history[1].sha, commits: history.slice(2) })
const runs = [workflowRun({ id: 4700, head_sha: history[0].sha })]

// Which limit ended the reading is told by the warning, and by time only with room: each test sets
// the limit under test at 0.3 s and every other at 10 s (TEST_LIMITS), and asks for under 3 s, ten
// times the one and a third of the others, so that a busy machine does not fail it and a limit that
// does not fire does.
const LIMIT_MS = 300
const OTHER_LIMIT_MS = 10_000
const BOUND_MS = 3_000

describe('time', () => {
  it('a request that never answers costs its per-request limit, then the event is what is told', async () => {
    github = await startStandInGitHub({ repository: { history, workflowRuns: runs }, faults: { compare: 'hang' } })
    const started = Date.now()
    const context = await gatherChangeContext(contextRequest(github, 'push', push()), {
      ...TEST_LIMITS,
      requestMs: LIMIT_MS,
      totalMs: OTHER_LIMIT_MS
    })
    expect(Date.now() - started).toBeLessThan(BOUND_MS)
    expect(context.warnings).toHaveLength(1)
    expect(context.warnings[0]).toContain('no answer within 0.3 s')
    expect(context.section).toContain('as the event tells it: 1 commit')
  })

  it('all the reading stops at the total limit, however the per-request limits add up', async () => {
    github = await startStandInGitHub({
      repository: { history, workflowRuns: runs },
      faults: { 'workflow-runs': 'hang' }
    })
    const started = Date.now()
    const context = await gatherChangeContext(contextRequest(github, 'push', push()), {
      ...TEST_LIMITS,
      requestMs: OTHER_LIMIT_MS,
      totalMs: LIMIT_MS
    })
    expect(Date.now() - started).toBeLessThan(BOUND_MS)
    expect(context.warnings[0]).toContain('no answer within 0.3 s, the most the context may hold up the create')
    // A GitHub that hangs once is not asked again.
    expect(github.reads).toHaveLength(1)
    expect(context.section).toContain('as the event tells it')
  })

  it("never outlives the step's deadline or a cancel, and does not warn about it", async () => {
    github = await startStandInGitHub({
      repository: { history, workflowRuns: runs },
      faults: { 'workflow-runs': 'hang' }
    })
    const step = new AbortController()
    setTimeout(() => step.abort(new Error('cancelled')), 300)
    const started = Date.now()
    const context = await gatherChangeContext(contextRequest(github, 'push', push(), { signal: step.signal }), {
      ...TEST_LIMITS,
      requestMs: OTHER_LIMIT_MS,
      totalMs: OTHER_LIMIT_MS
    })
    expect(Date.now() - started).toBeLessThan(BOUND_MS)
    expect(context.warnings).toEqual([])
    expect(github.reads).toHaveLength(1)
  })
})

describe('a failed read', () => {
  it('on a rate limit says so, and asks nothing more', async () => {
    github = await startStandInGitHub({
      repository: { history, workflowRuns: runs },
      faults: {
        'workflow-runs': { status: 403, message: 'API rate limit exceeded', headers: { 'x-ratelimit-remaining': '0' } }
      }
    })
    const context = await gatherChangeContext(contextRequest(github, 'push', push()), TEST_LIMITS)
    expect(github.reads).toHaveLength(1)
    expect(context.warnings).toHaveLength(1)
    expect(context.warnings[0]).toContain("GitHub's API rate limit is used up (HTTP 403); the next run reads it again")
    expect(context.warnings[0]).toMatch(/The job is created all the same\.$/)
  })

  it('with a token GitHub rejects, says which input to fix', async () => {
    github = await startStandInGitHub({ failAll: { status: 401, message: 'Bad credentials' } })
    const context = await gatherChangeContext(contextRequest(github, 'push', push()), TEST_LIMITS)
    expect(github.reads).toHaveLength(1)
    expect(context.warnings[0]).toContain(
      'GitHub rejected githubToken (HTTP 401); leave it at its default, ${{ github.token }}'
    )
  })

  it('on a GitHub Enterprise Server without the Actions endpoint (404) says so, and still reads the range', async () => {
    github = await startStandInGitHub({
      basePath: '/api/v3',
      repository: { history },
      faults: { 'workflow-runs': { status: 404, message: 'Not Found' } }
    })
    const context = await gatherChangeContext(contextRequest(github, 'push', push()), TEST_LIMITS)
    expect(github.reads.map((r) => r.pathname)).toEqual([
      '/repos/octo-org/docs-site/actions/workflows/docs.yml/runs',
      `/repos/octo-org/docs-site/compare/${history[1].sha}...${history[2].sha}`
    ])
    expect(context.warnings[0]).toContain(
      'GitHub answered HTTP 404; the token may lack "actions: read" (a private repository then answers 404), or this GitHub Enterprise Server has no such endpoint'
    )
    expect(context.section).toContain('Commits (1, oldest first):')
  })

  it('with no token reads nothing, and says so once', async () => {
    github = await startStandInGitHub({ repository: { history, workflowRuns: runs } })
    const context = await gatherChangeContext(contextRequest(github, 'push', push(), { token: '' }), TEST_LIMITS)
    expect(github.requests).toHaveLength(0)
    expect(context.warnings).toHaveLength(1)
    expect(context.warnings[0]).toContain('not read, as githubToken is empty')
    expect(context.section).toContain('as the event tells it: 1 commit')
  })

  it('never takes the token anywhere but the API: a redirect is not followed', async () => {
    const seen: http.IncomingHttpHeaders[] = []
    elsewhere = http.createServer((req, res) => {
      seen.push(req.headers)
      res.end('{}')
    })
    await new Promise<void>((resolve) => elsewhere?.listen(0, '127.0.0.1', resolve))
    const port = (elsewhere.address() as { port: number }).port
    github = await startStandInGitHub({
      repository: { history },
      faults: {
        'workflow-runs': { status: 302, headers: { location: `http://127.0.0.1:${port}/steal` } },
        compare: { status: 301, headers: { location: `http://127.0.0.1:${port}/steal` } }
      }
    })
    const context = await gatherChangeContext(contextRequest(github, 'push', push()), TEST_LIMITS)
    expect(seen).toEqual([])
    expect(context.warnings[0]).toContain("GitHub's API answered HTTP 302")
    expect(JSON.stringify(context)).not.toContain(TOKEN)
  })

  it('with a GITHUB_API_URL that is not an http(s) address sends nothing', async () => {
    github = await startStandInGitHub()
    const context = await gatherChangeContext(
      contextRequest(github, 'push', push(), { apiUrl: 'file:///etc/passwd' }),
      TEST_LIMITS
    )
    expect(context.requests).toBe(0)
    expect(context.warnings[0]).toContain('GITHUB_API_URL is not an http(s) address')
  })
})

describe('the limit', () => {
  it('a 300-file push with diff fits contextLimit, names what it left out, and costs at most three requests', async () => {
    const files = Array.from({ length: 300 }, (_, i) =>
      i === 150
        ? changedFile('package-lock.json', { additions: 900, deletions: 700 })
        : changedFile(i % 10 === 0 ? `test/module-${i}.test.ts` : `src/module-${i}.ts`, {
            additions: 12,
            deletions: 3,
            patch:
              `@@ -1,3 +1,12 @@\n${'+ a line of the new code\n'.repeat(12)}${'- an old line\n'.repeat(3)}`.trimEnd()
          })
    )
    const big = [
      standInCommit('before'),
      ...Array.from({ length: 75 }, (_, i) => standInCommit(`change ${i}`, files.slice(i * 4, i * 4 + 4)))
    ]
    github = await startStandInGitHub({
      repository: { history: big, workflowRuns: [workflowRun({ id: 1, head_sha: big[0].sha })] }
    })
    for (const limit of [1_000, 5_000, 20_000, 100_000]) {
      github.requests.length = 0
      const context = await gatherChangeContext(
        contextRequest(github, 'push', pushEvent({ before: big[70].sha, commits: big.slice(71) }), {
          detail: 'diff',
          limit
        }),
        TEST_LIMITS
      )
      expect(context.requests).toBeLessThanOrEqual(3)
      expect(github.requests.length).toBeLessThanOrEqual(3)
      expect(context.section.length).toBeLessThanOrEqual(limit)
      expect(context.section).toContain('75 commits, 300 files changed (+4,488 -1,597).')
      expect(context.section).toContain('GitHub lists at most 300 files of a comparison: there may be more.')
      // What does not fit is named by count, never dropped silently.
      if (limit < 100_000) {
        expect(context.section).toMatch(
          /\n\d+ changed files, [\d,]+ lines, not listed\.|…and \d+ more files, [\d,]+ lines, not listed\./
        )
      } else {
        expect(context.section).toContain('Changed files (300, most telling first):')
      }
      if (limit === 1_000) continue
      // The newest commits are kept; the count of those left out is said.
      expect(context.section).toMatch(/Commits \(75, oldest first; the \d+ earlier ones are not listed\):/)
      expect(context.section).toContain('"change 74" (@mona)')
      expect(context.section).toMatch(/Diffs not shown for lack of room: \d+ files, [\d,]+ lines\./)
      expect(context.section).toContain('```diff\n@@ -1,3 +1,12 @@')
      // The lockfile is named, never shown.
      if (context.section.includes('`package-lock.json`')) {
        expect(context.section).toContain('- `package-lock.json` modified, +900 -700 (lockfile: diff not shown)')
      }
    }
  })
})

describe("the run's GitHub session", () => {
  it("the reads go through the one reader the session opens, with the context's limits cut to its time", async () => {
    github = await startStandInGitHub({ repository: { history, workflowRuns: runs } })
    const step = new AbortController()
    const request = contextRequest(github, 'push', push(), { signal: step.signal, maxMs: 2_000 })
    const opened: { limits: ReadLimits; signal: AbortSignal | undefined }[] = []
    const session = {
      token: request.github.token,
      reader: (limits: ReadLimits, signal?: AbortSignal) => {
        opened.push({ limits, signal })
        return request.github.reader(limits, signal)
      }
    }
    const context = await gatherChangeContext({ ...request, github: session }, TEST_LIMITS)
    expect(opened).toEqual([{ limits: { ...TEST_LIMITS, totalMs: 2_000, requestMs: 2_000 }, signal: step.signal }])
    expect(context.requests).toBe(github.requests.length)
    expect(github.requests.length).toBeGreaterThan(0)
  })
})
