// One comment kept showing the newest body: posted once (with a hidden marker), edited as the body
// changes (one edit at a time, each sending the newest body, so a burst of changes costs one edit
// more, not one per change), and given its final body at the end, within a bound. When GitHub made
// the comment but its answer was lost, the comment is found again by its marker rather than left
// beside a second one. Every call is bounded by its own limit, and at the end by the run's end's
// time for GitHub (ending-bound.ts); a failure is a warning, never an error: a comment is a courtesy
// and never holds the step.
import { randomUUID } from 'node:crypto'
import type { Octokit } from './octokit.js'
import { timeLimit, type TimeLimit } from '../runtime/deadline.js'
import { log } from '../runtime/log.js'
import { describeWriteFailure, type WriteAccess } from './write-failure.js'
import { ENDING_GITHUB_MS } from './ending-bound.js'

/** What this action reads of a comment it posted. */
export interface PostedComment {
  id: number
  html_url: string
  user?: { login?: string } | null
}

/** What this action reads of a comment listed on the thread. */
export interface ListedComment {
  id: number
  body?: string | null
  user?: { login?: string } | null
}

/** Where the comment lives: how to post it, edit it, and list the newest comments there. */
export interface CommentPlace {
  post(octokit: Octokit, body: string, signal: AbortSignal): Promise<{ data: PostedComment }>
  edit(octokit: Octokit, id: number, body: string, signal: AbortSignal): Promise<unknown>
  /** The place's comments updated since `since` (ISO time), up to a page. */
  list(octokit: Octokit, since: string, signal: AbortSignal): Promise<{ data: ListedComment[] }>
}

export interface LiveCommentOptions<C extends { octokit: Octokit }> {
  /**
   * Loads the client (and whatever the caller loads with it), through the bounded `call`; null when
   * it could not be loaded. Called once, at once.
   */
  load(call: LiveComment<C>['call']): Promise<C | null>
  place: CommentPlace
  /** What the comment is and where, for the warnings: "reply", "pull request #7". */
  what: string
  where: string
  /** Each GitHub call's own time limit. */
  requestTimeoutMs: number
  /** The token's input (githubToken), named in the warning when GitHub refused it. */
  /** Who writes, and what a refused write needs: the warning when a call fails says it. */
  access: WriteAccess
  /**
   * The hidden marker the first post carries, to find the comment again when GitHub's answer was
   * lost; by default one made for this comment alone (`<!-- docs-agent-<what>: <uuid> -->`).
   */
  marker?: string
  /**
   * Makes each body sent once the comment's id is known (every edit, and a final body posted anew,
   * then edited) from the body and that id: a record signed for the comment that holds it.
   */
  stamp?: (body: string, id: number) => string
}

export interface LiveComment<C extends { octokit: Octokit }> {
  /** The loaded client; null when it could not be loaded. */
  readonly client: Promise<C | null>
  /**
   * Makes one GitHub call for the comment's owner (a reaction, say), bounded like the comment's own;
   * a failure is a warning and `undefined`.
   */
  call<T>(what: string, request: (signal: AbortSignal) => Promise<T>): Promise<T | undefined>
  /**
   * Posts the comment with its first body (and the marker), unless finish was called first; a
   * comment posted late, after the final body went into a comment of its own, gets the final body too.
   */
  post(client: C, body: string): Promise<PostedComment | undefined>
  /** Shows `body` next, unless an edit was refused or finish was called (then only the final body goes). */
  show(body: string): void
  /** Finish was called: only the final body is wanted now. */
  readonly finished: boolean
  /** The comment's id, once GitHub has answered for it (or it was found again). */
  readonly id: number | undefined
  /** GitHub refused an edit: progress is no longer pressed on it. */
  readonly editRefused: boolean
  /**
   * Who the action writes as, learned from one of GitHub's answers (a reaction's, say): the comment
   * looked up by its marker must be one it wrote, never another author's that holds the marker.
   */
  noteSelf(login: string | undefined): void
  /**
   * Shows the final body (`bodyOf` the loaded client, which may wait for a read) within `bound`, the
   * run's end's time for GitHub: waits up to half of it for `firstPost` (the first post and whatever
   * comes before it), looks the comment up by its marker when the post went out and its answer was
   * lost, then edits it (once more if the edit failed, within the bound), or posts the final body
   * when there is none. Afterwards every call still waiting gives up.
   */
  finish(
    bodyOf: (client: C) => string | Promise<string>,
    firstPost: Promise<unknown>,
    bound: AbortSignal
  ): Promise<void>
  /** After finish: whether the final body is on the comment. */
  readonly finalShown: boolean
}

/** Keeps one comment showing the newest body (see the file's opening comment). */
export function keepLiveComment<C extends { octokit: Octokit }>(options: LiveCommentOptions<C>): LiveComment<C> {
  const { place, what, where, requestTimeoutMs, access } = options
  const stamp = options.stamp ?? ((body: string) => body)
  // Aborted once finish has had its grace: whatever call is still waiting then gives up.
  const over = new AbortController()
  const done = new Error(`The ${what} says how the run ended.`)
  /** Whether the last call that failed may succeed if made again: no answer, or GitHub's own trouble (5xx). */
  let lastFailureTransient = false
  const call = <T>(doing: string, request: (signal: AbortSignal) => Promise<T>): Promise<T | undefined> =>
    attempt(doing, request, { requestTimeoutMs, over: over.signal, done, what, access }, (error) => {
      const { status, response } = error as { status?: unknown; response?: unknown }
      lastFailureTransient = response === undefined || (typeof status === 'number' && status >= 500)
    })
  // Only the first post carries it: a comment GitHub made but was slow to answer for is found
  // again by it, rather than left beside a second one.
  const marker = options.marker ?? `<!-- docs-agent-${what}: ${randomUUID()} -->`
  const startedAt = Date.now()
  const client = options.load(call)
  /** The comment's id, once GitHub has answered for it (or it was found again). */
  let id: number | undefined
  /** GitHub refused the first post with an answer (not a timeout): there is none to find. */
  let postRefused = false
  /** The first post went out: unanswered, it may be there all the same, and is looked for. */
  let postSent = false
  let finalBody = ''
  let wanted = ''
  let shown = ''
  let edits: Promise<void> = Promise.resolve()
  let finished = false
  let editRefused = false
  /** The body whose edit GitHub refused or left unanswered last. */
  let failedBody = ''
  /** Who the action writes as, once an answer said so. */
  let self = ''
  let finalShown = false

  const flush = async (): Promise<void> => {
    const loaded = await client
    if (!loaded || id === undefined) return
    const known = id
    while (wanted !== '' && wanted !== shown && !over.signal.aborted && (finished || !editRefused)) {
      const body = wanted
      // Shown or not, it is not sent again: a body GitHub refuses once is not pressed on it.
      shown = body
      const edited = await call(`update the ${what} on the ${where}`, (signal) =>
        place.edit(loaded.octokit, known, stamp(body, known), signal)
      )
      // One warning is enough: after a refused edit, only the final body is tried.
      if (edited === undefined) {
        editRefused = true
        failedBody = body
      } else if (failedBody === body) failedBody = ''
    }
  }
  const want = (body: string): void => {
    wanted = body
    edits = edits.then(flush)
  }
  /**
   * The first post, found among the place's newest comments by its marker: the oldest that has it,
   * written by the action (once an answer said who that is): another author's comment that holds
   * the marker (copied, or an older comment edited to hold it) is never taken for it.
   */
  const findPosted = async (octokit: Octokit): Promise<number | undefined> => {
    const since = new Date(startedAt - 60_000).toISOString()
    const listed = await call(`look for the ${what} on the ${where}`, (signal) => place.list(octokit, since, signal))
    const found = (listed?.data ?? []).find(
      (c) => typeof c.body === 'string' && c.body.includes(marker) && (!self || c.user?.login === self)
    )
    return typeof found?.id === 'number' ? found.id : undefined
  }
  /** The first post went out and its answer did not come: it is looked for once, and the edits waiting go to it. */
  const findLostPost = async (octokit: Octokit): Promise<void> => {
    if (id !== undefined || !postSent || postRefused || over.signal.aborted) return
    id = await findPosted(octokit)
    if (id !== undefined && wanted !== '') edits = edits.then(flush)
  }

  return {
    call,
    client,
    get finished() {
      return finished
    },
    get id() {
      return id
    },
    get editRefused() {
      return editRefused
    },
    get finalShown() {
      return finalShown
    },
    noteSelf: (login) => {
      if (login) self = login
    },
    post: async ({ octokit }, body) => {
      // The run ended first: the final body says how, and no first body follows it.
      if (finished) return undefined
      const posted = await call(
        `${what === 'reply' ? 'reply' : `post the ${what}`} on the ${where}`,
        async (signal) => {
          postSent = true
          try {
            return await place.post(octokit, `${body}\n${marker}`, signal)
          } catch (error) {
            // GitHub answered with an error: no comment was made, so none is looked for.
            if ((error as { response?: unknown }).response !== undefined) postRefused = true
            throw error
          }
        }
      )
      if (!posted) {
        // Made by GitHub but not answered for within the call's bound: found again by its marker now,
        // so that what the run shows next (the job's record) goes to it, not to a second comment.
        if (!finished) await findLostPost(octokit)
        return undefined
      }
      if (posted.data.user?.login) self = posted.data.user.login
      if (id === undefined) id = posted.data.id
      // Answered after the final body was posted as a comment of its own: it shows the final body too.
      else if (posted.data.id !== id && finalBody) {
        const late = posted.data.id
        await call(`update the ${what} on the ${where}`, (signal) =>
          place.edit(octokit, late, stamp(finalBody, late), signal)
        )
      }
      return posted.data
    },
    show: (body) => {
      if (!finished) want(body)
    },
    finish: async (bodyOf, firstPost, bound) => {
      finished = true
      // The run's end's time for GitHub (ending-bound.ts), shared with its other calls.
      const boundOver = (): void => over.abort(bound.reason)
      if (bound.aborted) boundOver()
      else bound.addEventListener('abort', boundOver, { once: true })
      try {
        const loaded = await Promise.race([client, whenAborted(over.signal)])
        if (!loaded) return
        // The body may wait for a read (the pull request's details): the comment is looked for meanwhile.
        const bodyReady = Promise.resolve(bodyOf(loaded))
        // The first post gets half the bound to be answered for; then, if it went out, it is looked for
        // before another is posted (one never sent cannot be there).
        await Promise.race([firstPost, whenAborted(over.signal), halfOf(ENDING_GITHUB_MS)])
        await findLostPost(loaded.octokit)
        const body = await Promise.race([bodyReady, whenAborted(over.signal)])
        if (body === null) return
        finalBody = body
        if (id !== undefined) {
          want(body)
          await Promise.race([edits, whenAborted(over.signal)])
          // One failed write at the end (no answer, or GitHub's own trouble) does not lose the final
          // body: once more, within the bound. A refusal is not pressed on GitHub.
          if (failedBody === body && lastFailureTransient && !over.signal.aborted) {
            const known = id
            const edited = await call(`update the ${what} on the ${where}`, (signal) =>
              place.edit(loaded.octokit, known, stamp(body, known), signal)
            )
            if (edited !== undefined) failedBody = ''
          }
          finalShown = shown === body && failedBody !== body
          return
        }
        const posted = await call(`${what === 'reply' ? 'reply' : `post the ${what}`} on the ${where}`, (signal) =>
          place.post(loaded.octokit, body, signal)
        )
        id ??= posted?.data.id
        if (!posted || !options.stamp) {
          finalShown = posted !== undefined
          return
        }
        // The body's record needs the comment's id: it is edited in once GitHub has said it.
        const known = posted.data.id
        const stamped = await call(`update the ${what} on the ${where}`, (signal) =>
          place.edit(loaded.octokit, known, stamp(body, known), signal)
        )
        finalShown = stamped !== undefined
      } finally {
        bound.removeEventListener('abort', boundOver)
        // The final body is shown (or could not be): a call still waiting (a first post GitHub was
        // slow to answer for, found again meanwhile) must not hold the step.
        over.abort(done)
      }
    }
  }
}

/**
 * Makes one GitHub call, bounded by its own limit and by `over`; a failure is a warning and
 * `undefined`, never an error.
 */
async function attempt<T>(
  doing: string,
  request: (signal: AbortSignal) => Promise<T>,
  bounds: { requestTimeoutMs: number; over: AbortSignal; done: Error; what: string; access: WriteAccess },
  onFailure: (error: unknown) => void
): Promise<T | undefined> {
  const { requestTimeoutMs, over, done, what, access } = bounds
  // Held for the whole call (see timeLimit): a timeout signal held by a combined signal alone may be lost.
  let limit: TimeLimit | undefined
  try {
    if (over.aborted) throw over.reason
    limit = timeLimit(requestTimeoutMs, over)
    return await request(limit.signal)
  } catch (error) {
    onFailure(error)
    if (over.reason === done) log.debug(`Stopped waiting to ${doing}: the ${what} says how the run ended.`)
    else log.warning(`Could not ${doing}: ${describeWriteFailure(error, access)} The job is not affected.`)
    return undefined
  } finally {
    limit?.clear()
  }
}

/** Resolves null when `signal` aborts: for a wait that must not outlast it. */
function whenAborted(signal: AbortSignal): Promise<null> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(null)
    else signal.addEventListener('abort', () => resolve(null), { once: true })
  })
}

/** Half of `ms`, without holding the process open. */
function halfOf(ms: number): Promise<null> {
  return new Promise((resolve) => setTimeout(resolve, ms / 2, null).unref())
}
