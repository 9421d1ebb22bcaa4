// A note posted as one comment through the run's session (on the stand-in GitHub), and where the
// end of the run's time for GitHub cut it.
import { afterEach, describe, expect, it } from 'vitest'
import { EndingOver } from '../../../src/github/ending-bound.js'
import { noteCutBy, postNote } from '../../../src/github/post-note.js'
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
