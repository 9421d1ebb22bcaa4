// The first stage of a comment-triggered run, on the stand-in GitHub: the comment that asked, read
// from the event, its instruction with credentials blanked, and the reply on its thread started at
// once; a comment that asks nothing, or by someone not allowed, starts nothing and says why.
import { describe, expect, it } from 'vitest'
import { readRunner } from '../../../src/github/runner.js'
import { readCommentAsk } from '../../../src/thread/comment-ask.js'
import { issueCommentEvent, writeEventFile } from '../../support/stand-in-github.js'
import { captureLog, cleanUpAfterEach, startUnitGitHub, type StandInGitHub } from '../../support/unit-github.js'

const COMMENT_SETTINGS = { trigger: '/docs', allowedAssociations: ['OWNER', 'MEMBER', 'COLLABORATOR'] }

let gh: StandInGitHub | undefined
cleanUpAfterEach()

async function ask(payload: object, comment: typeof COMMENT_SETTINGS | null = COMMENT_SETTINGS) {
  const started = await startUnitGitHub()
  gh = started.gh
  const runner = readRunner({
    GITHUB_REPOSITORY: 'octo-org/docs-site',
    GITHUB_RUN_ID: '42',
    GITHUB_EVENT_NAME: 'issue_comment',
    GITHUB_EVENT_PATH: writeEventFile(payload)
  })
  const read = await readCommentAsk(
    { comment, githubToken: 'ghs_unit' },
    runner,
    started.session,
    new AbortController().signal
  )
  return read
}

/** Ends the reply an ask started, as a run's end does: no call of it is left running after the test. */
async function endReply(read: Awaited<ReturnType<typeof ask>>) {
  if (!read || 'skipped' in read) return
  await read.replies.finish(
    { ending: 'skipped', job: null, jobId: '', reason: 'test' } as never,
    1000,
    null,
    new AbortController().signal
  )
}

describe('the comment that asked', () => {
  it('reads the instruction after the trigger, and starts the reply on the thread at once', async () => {
    captureLog()
    const read = await ask(issueCommentEvent({ body: '/docs Explain the retry settings' }))
    if (!read || 'skipped' in read) throw new Error(`no ask: ${JSON.stringify(read)}`)
    expect(read.instruction.text).toBe('Explain the retry settings')
    expect(read.fresh).toBe(false)
    expect(read.comment).toMatchObject({ kind: 'issue comment', id: 4242, thread: { number: 12 } })
    // The reply finishes (its final body) within the run's end's bound.
    await endReply(read)
    const thread = gh?.threadComments(12) ?? []
    expect(thread).toHaveLength(1)
    expect(gh?.reactions.map((r) => [r.commentId, r.content])).toEqual([[4242, 'eyes']])
  })

  it('blanks a credential the instruction carries before anything takes it', async () => {
    captureLog()
    const key = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'
    const read = await ask(issueCommentEvent({ body: `/docs Document the token ${key} please` }))
    if (!read || 'skipped' in read) throw new Error('no ask')
    expect(read.instruction.text).not.toContain(key)
    expect(read.instruction.blanked.length).toBeGreaterThan(0)
    await endReply(read)
  })

  it('--new asks for a new job', async () => {
    captureLog()
    const read = await ask(issueCommentEvent({ body: '/docs --new Start over' }))
    expect(read && !('skipped' in read) && read.fresh).toBe(true)
    await endReply(read)
  })

  it.each([
    ['a comment without the trigger', issueCommentEvent({ body: 'Thanks, looks good' })],
    ['a comment by someone not allowed to ask', issueCommentEvent({ body: '/docs Do it', association: 'NONE' })],
    ['an edited comment', issueCommentEvent({ body: '/docs Do it', action: 'edited' })]
  ])('%s starts nothing, says why, and writes nothing on GitHub', async (_name, payload) => {
    captureLog()
    const read = await ask(payload)
    expect(read).toEqual({ skipped: expect.any(String) })
    expect(gh?.requests.filter((r) => r.method !== 'GET')).toEqual([])
  })

  it('a run that is not comment-triggered has no ask', async () => {
    expect(await ask(issueCommentEvent({ body: '/docs Do it' }), null)).toBeNull()
    expect(gh?.requests).toEqual([])
  })
})
