// A note posted as one comment through the run's session (on the stand-in GitHub), and the sentence
// a failed write is told with: what GitHub said, and the permission a 403 or 404 usually means.
import { afterEach, describe, expect, it } from 'vitest'
import { EndingOver } from '../../../src/github/ending-bound.js'
import { noteCutBy, postNote, wordWriteFailure } from '../../../src/github/post-note.js'
import { ReadFailure } from '../../../src/github/read-failure.js'
import { startUnitGitHub, type StandInGitHub } from '../../support/unit-github.js'

const PR = { owner: 'octo-org', repo: 'docs-site', number: 31 }
let gh: StandInGitHub | undefined
afterEach(async () => {
  await gh?.close()
  gh = undefined
})

describe('postNote', () => {
  it("posts one comment on the pull request, written for this GitHub's address", async () => {
    const started = await startUnitGitHub()
    gh = started.gh
    await postNote(
      started.session,
      PR,
      (server) => `See ${server}/octo-org/docs-site/actions`,
      new AbortController().signal
    )
    expect(gh.threadComments(31).map((c) => c.body)).toEqual(['See https://github.com/octo-org/docs-site/actions'])
    expect(gh.requests.map((r) => `${r.method} ${r.pathname}`)).toEqual([
      'POST /repos/octo-org/docs-site/issues/31/comments'
    ])
  })

  it('stops waiting when the run’s time for GitHub is over, and says that is why', async () => {
    const started = await startUnitGitHub({ faults: { 'comment-create': 'hang' } })
    gh = started.gh
    const bound = new AbortController()
    const posting = postNote(started.session, PR, () => 'note', bound.signal)
    for (let i = 0; i < 1000 && gh.requests.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5))
    bound.abort(new EndingOver("The run's time for GitHub after its end (5s) ran out"))
    await expect(posting).rejects.toThrow()
    expect(noteCutBy(bound.signal)).toBe("The run's time for GitHub after its end (5s) ran out")
    expect(gh.requests).toHaveLength(1)
  })

  it('a cancel is not taken for the ending’s bound', () => {
    const cancelled = new AbortController()
    cancelled.abort(new Error('cancelled'))
    expect(noteCutBy(cancelled.signal)).toBeNull()
  })
})

describe('wordWriteFailure', () => {
  const http = (status: number, message: string) => Object.assign(new Error(message), { status })

  it.each([
    [
      http(403, 'Resource not accessible by integration'),
      /^HTTP 403 \(Resource not accessible by integration\); the token may not write there: the workflow needs "pull-requests: write" on that repository\.$/
    ],
    [http(404, 'Not Found'), /^HTTP 404 \(Not Found\); the token may not write there/],
    [http(502, 'Bad Gateway'), /^HTTP 502 \(Bad Gateway\)\.$/],
    [new Error('socket hang up'), /^socket hang up\.$/],
    [
      new ReadFailure('forbidden', "the pull request's comments", 'pull-requests: read', { status: 403 }),
      /^the pull request's comments: the token lacks "pull-requests: read" \(HTTP 403\)/
    ]
  ])('words %s', (error, sentence) => {
    expect(wordWriteFailure(error, 'githubToken')).toMatch(sentence)
  })

  it("never carries GitHub's text as a workflow command or over many lines", () => {
    const said = wordWriteFailure(http(500, 'oops\n::error::injected\r\nmore'), 'githubToken')
    expect(said).not.toMatch(/[\r\n]/)
    expect(said.startsWith('HTTP 500 (')).toBe(true)
  })
})
