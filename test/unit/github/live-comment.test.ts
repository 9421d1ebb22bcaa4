// The live comment (the reply on a thread, the group's status comment): posted once with its hidden
// marker, edited one call at a time with the newest body (a burst of changes costs one edit), each
// call bounded, and a post whose answer was lost found again by its marker, never posted twice.
// The comment's place is injected: a fake that keeps the comments and records each call, so a test
// says what GitHub was asked, in order, in milliseconds; one test goes through the action's own client
// to the stand-in GitHub, as a run does.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { keepLiveComment, type CommentPlace, type LiveComment } from '../../../src/github/live-comment.js'
import type { Octokit } from '../../../src/github/octokit.js'
import { captureLog, startUnitGitHub, type StandInGitHub } from '../../support/unit-github.js'

type Client = { octokit: Octokit }
const CLIENT: Client = { octokit: {} as Octokit }
const BOT = 'github-actions[bot]'

/** An HTTP error as Octokit throws it: GitHub answered with `status`. */
const answered = (status: number, message: string) =>
  Object.assign(new Error(message), { name: 'HttpError', status, response: { status } })

/**
 * A thread GitHub keeps: every call recorded (`post body`, `edit id body`, `list`), comments kept.
 * `hold` makes the next calls of a kind wait until released (or until their signal aborts, as a
 * request does); `fail` makes them throw; `lose` makes GitHub make the comment but never answer.
 */
function fakeThread() {
  const calls: string[] = []
  const comments = new Map<number, { body: string; login: string }>()
  let nextId = 100
  let inFlight = 0
  let maxInFlight = 0
  const held: { kind: string; release: () => void }[] = []
  const script: { hold: Set<string>; fail: Map<string, unknown[]>; lose: boolean } = {
    hold: new Set(),
    fail: new Map(),
    lose: false
  }
  const settle = async <T>(kind: string, signal: AbortSignal, act: () => T): Promise<T> => {
    inFlight++
    maxInFlight = Math.max(maxInFlight, inFlight)
    try {
      const failure = script.fail.get(kind)?.shift()
      if (failure) throw failure
      if (script.hold.has(kind) || (kind === 'post' && script.lose)) {
        const result = kind === 'post' && script.lose ? act() : undefined
        await new Promise<void>((resolve, reject) => {
          held.push({ kind, release: resolve })
          signal.addEventListener('abort', () => reject(signal.reason), { once: true })
        })
        return result ?? act()
      }
      return act()
    } finally {
      inFlight--
    }
  }
  const place: CommentPlace = {
    post: (_octokit, body, signal) => {
      calls.push(`post ${body}`)
      return settle('post', signal, () => {
        const id = nextId++
        comments.set(id, { body, login: BOT })
        return { data: { id, html_url: `https://github.com/o/r/issues/1#issuecomment-${id}`, user: { login: BOT } } }
      })
    },
    edit: (_octokit, id, body, signal) => {
      calls.push(`edit ${id} ${body}`)
      return settle('edit', signal, () => {
        const comment = comments.get(id)
        if (!comment) throw answered(404, 'Not Found')
        comment.body = body
        return { data: { id } }
      })
    },
    list: (_octokit, _since, signal) => {
      calls.push('list')
      return settle('list', signal, () => ({
        data: [...comments.entries()].map(([id, c]) => ({ id, body: c.body, user: { login: c.login } }))
      }))
    }
  }
  return {
    place,
    calls,
    comments,
    script,
    /** Someone else's comment on the thread, with this body. */
    addComment: (body: string, login: string) => (comments.set(nextId, { body, login }), nextId++),
    release: (kind: string) => held.filter((h) => h.kind === kind).forEach((h) => h.release()),
    heldCount: (kind: string) => held.filter((h) => h.kind === kind).length,
    get maxInFlight() {
      return maxInFlight
    }
  }
}

function live(thread: ReturnType<typeof fakeThread>, values: { requestTimeoutMs?: number; marker?: string } = {}) {
  return keepLiveComment<Client>({
    load: async () => CLIENT,
    place: thread.place,
    what: 'reply',
    where: 'issue #1',
    requestTimeoutMs: values.requestTimeoutMs ?? 10_000,
    access: { tokenInput: 'githubToken', needs: '"issues: write" and "pull-requests: write"' },
    marker: values.marker ?? '<!-- docs-agent-reply: m1 -->'
  })
}

/** Finishes with `body`, the post given as `firstPost`, within a bound that does not run out here. */
const finish = (comment: LiveComment<Client>, body: string, firstPost: Promise<unknown>) =>
  comment.finish(() => body, firstPost, new AbortController().signal)

/** Resolves once `check` holds: a step the code takes in its own time (no clock involved). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !check(); i++) await new Promise((resolve) => setImmediate(resolve))
  expect(check()).toBe(true)
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the live comment', () => {
  it('is posted once with its marker, then edited in place: a burst of changes costs one edit, then the final body', async () => {
    const thread = fakeThread()
    const comment = live(thread)
    const posted = comment.post(CLIENT, 'started')
    await posted
    comment.show('job is queued')
    comment.show('job is active')
    comment.show('job is still active')
    await finish(comment, 'done', posted)
    expect(thread.calls).toEqual([
      'post started\n<!-- docs-agent-reply: m1 -->',
      'edit 100 job is still active',
      'edit 100 done'
    ])
    expect([...thread.comments.values()].map((c) => c.body)).toEqual(['done'])
    expect(comment.finalShown).toBe(true)
  })

  it('edits one call at a time, and the next edit sends the newest body, skipping those in between', async () => {
    const thread = fakeThread()
    const comment = live(thread)
    const posted = comment.post(CLIENT, 'started')
    await posted
    thread.script.hold.add('edit')
    comment.show('first')
    await until(() => thread.heldCount('edit') === 1)
    comment.show('second')
    comment.show('third')
    // Still one edit under way: nothing else has gone out while it waits.
    expect(thread.calls.filter((c) => c.startsWith('edit'))).toEqual(['edit 100 first'])
    thread.script.hold.delete('edit')
    thread.release('edit')
    await finish(comment, 'done', posted)
    expect(thread.calls.slice(1)).toEqual(['edit 100 first', 'edit 100 third', 'edit 100 done'])
    expect(thread.maxInFlight).toBe(1)
  })

  it('bounds each call: a post GitHub never answers is given up, with a warning, and the step goes on', async () => {
    const log = captureLog()
    const thread = fakeThread()
    thread.script.hold.add('post')
    const comment = live(thread, { requestTimeoutMs: 20 })
    expect(await comment.post(CLIENT, 'started')).toBeUndefined()
    expect(log.warnings).toEqual([
      expect.stringMatching(/^Could not reply on the issue #1: .*timeout.*\. The job is not affected\.$/)
    ])
  })

  it('finds a post whose answer was lost by its marker, and edits it rather than posting another', async () => {
    captureLog()
    const thread = fakeThread()
    // GitHub makes the comment but its answer never comes.
    thread.script.lose = true
    const comment = live(thread, { requestTimeoutMs: 20 })
    const posted = comment.post(CLIENT, 'started')
    comment.noteSelf(BOT)
    await posted
    expect(comment.id).toBe(100)
    await finish(comment, 'done', posted)
    expect(thread.calls).toEqual(['post started\n<!-- docs-agent-reply: m1 -->', 'list', 'edit 100 done'])
    expect([...thread.comments.values()].map((c) => c.body)).toEqual(['done'])
    expect(comment.finalShown).toBe(true)
  })

  it("never takes another author's comment that holds the marker for its own lost post", async () => {
    captureLog()
    const thread = fakeThread()
    const copied = thread.addComment('look: <!-- docs-agent-reply: m1 -->', 'mallory')
    thread.script.fail.set('post', [new Error('socket hang up')])
    const comment = live(thread)
    comment.noteSelf(BOT)
    const posted = comment.post(CLIENT, 'started')
    await posted
    await finish(comment, 'done', posted)
    expect(thread.calls.filter((c) => c.startsWith('edit'))).not.toContain(`edit ${copied} done`)
    expect(thread.comments.get(copied)?.body).toBe('look: <!-- docs-agent-reply: m1 -->')
    // The final body went into a comment of the action's own.
    expect(thread.calls).toContain('post done')
  })

  it('does not look for a post GitHub refused with an answer: the final body is posted, once', async () => {
    const log = captureLog()
    const thread = fakeThread()
    thread.script.fail.set('post', [answered(403, 'Resource not accessible by integration')])
    const comment = live(thread)
    const posted = comment.post(CLIENT, 'started')
    await posted
    await finish(comment, 'done', posted)
    expect(thread.calls).toEqual(['post started\n<!-- docs-agent-reply: m1 -->', 'post done'])
    expect(log.warnings[0]).toMatch(
      /^Could not reply on the issue #1: HTTP 403 \(Resource not accessible by integration\)\. Check that githubToken may write there: the workflow needs "issues: write" and "pull-requests: write"/
    )
  })

  it('posts again, once, when a first post GitHub answered with a 5xx left no comment: what was shown follows, and finish edits it', async () => {
    captureLog()
    const thread = fakeThread()
    thread.script.fail.set('post', [answered(502, 'Bad Gateway')])
    const comment = live(thread)
    await comment.post(CLIENT, 'started')
    expect(comment.id).toBeUndefined()
    comment.show('working')
    expect(await comment.postAgain(CLIENT, 'started')).toMatchObject({ id: 100 })
    expect(await comment.postAgain(CLIENT, 'started')).toBeUndefined()
    await until(() => thread.calls.includes('edit 100 working'))
    await finish(comment, 'done', Promise.resolve())
    const post = 'post started\n<!-- docs-agent-reply: m1 -->'
    expect(thread.calls).toEqual([post, 'list', 'list', post, 'edit 100 working', 'edit 100 done'])
    expect([...thread.comments.values()].map((c) => c.body)).toEqual(['done'])
  })

  it('does not post again after a refusal, nor when the first post is known', async () => {
    captureLog()
    for (const failure of [answered(403, 'Forbidden'), undefined]) {
      const thread = fakeThread()
      if (failure) thread.script.fail.set('post', [failure])
      const comment = live(thread)
      await comment.post(CLIENT, 'started')
      expect(await comment.postAgain(CLIENT, 'started')).toBeUndefined()
      expect(thread.calls).toEqual(['post started\n<!-- docs-agent-reply: m1 -->'])
    }
  })

  it('tries the final edit once more after GitHub’s own trouble (5xx), never after a refusal', async () => {
    captureLog()
    for (const [failure, edits, shown] of [
      [answered(502, 'Bad Gateway'), 2, true],
      [answered(403, 'Forbidden'), 1, false]
    ] as const) {
      const thread = fakeThread()
      const comment = live(thread)
      const posted = comment.post(CLIENT, 'started')
      await posted
      thread.script.fail.set('edit', [failure])
      await finish(comment, 'done', posted)
      expect(thread.calls.filter((c) => c === 'edit 100 done')).toHaveLength(edits)
      expect(comment.finalShown).toBe(shown)
    }
  })
})

describe('the live comment through the action’s client, on the stand-in GitHub', () => {
  let gh: StandInGitHub | undefined
  afterEach(async () => {
    await gh?.close()
  })

  it('a post GitHub made but answered too late is found by its marker on the thread, and edited: one comment', async () => {
    captureLog()
    const started = await startUnitGitHub({ delays: { 'comment-create': { ms: 30_000 } } })
    gh = started.gh
    const { octokit } = started
    const issue = { owner: 'octo-org', repo: 'docs-site', issue_number: 12 }
    const comment = keepLiveComment<Client>({
      load: async () => ({ octokit }),
      place: {
        post: (o, body, signal) => o.rest.issues.createComment({ ...issue, body, request: { signal } }),
        edit: (o, id, body, signal) =>
          o.rest.issues.updateComment({ ...issue, comment_id: id, body, request: { signal } }),
        list: (o, since, signal) => o.rest.issues.listComments({ ...issue, since, per_page: 100, request: { signal } })
      },
      what: 'reply',
      where: 'issue #12',
      requestTimeoutMs: 1500,
      access: { tokenInput: 'githubToken', needs: '"issues: write" and "pull-requests: write"' }
    })
    const posted = comment.post({ octokit }, 'started')
    await posted
    await comment.finish(() => 'done', posted, new AbortController().signal)
    const thread = gh.threadComments(12)
    expect(thread.map((c) => c.body)).toEqual(['done'])
    expect(thread[0]?.bodies[0]).toMatch(/^started\n<!-- docs-agent-reply: [0-9a-f-]{36} -->$/)
    expect(gh.requests.filter((r) => r.method === 'POST')).toHaveLength(1)
    expect(comment.finalShown).toBe(true)
  })
})
