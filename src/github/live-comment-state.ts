// The parts of a live comment (live-comment.ts), each holding its own state: the bounded calls it
// makes, the first post and how it stands, and the edits that follow it.
import type { Octokit } from './octokit.js'
import { timeLimit, type TimeLimit } from '../runtime/deadline.js'
import { log } from '../runtime/log.js'
import { describeWriteFailure, mayHaveWritten, type WriteAccess } from './write-failure.js'

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

/** What the comment's calls need: where it lives, its names, its bounds, its stamp (see LiveCommentOptions). */
export interface CallOptions {
  place: CommentPlace
  what: string
  where: string
  requestTimeoutMs: number
  access: WriteAccess
  stamp?: (body: string, id: number) => string
}

/**
 * The comment's GitHub calls, each bounded by its own limit and by `over` (aborted when finish has
 * had its grace); it remembers whether the last failure may pass when made again, for the final body.
 */
export class CommentCalls {
  // Aborted once finish has had its grace: whatever call is still waiting then gives up.
  readonly over = new AbortController()
  readonly done: Error
  readonly postDoing: string
  /** Whether the last call that failed may succeed if made again: no answer, or GitHub's own trouble (5xx). */
  lastFailureTransient = false

  constructor(readonly options: CallOptions) {
    this.done = new Error(`The ${options.what} says how the run ended.`)
    this.postDoing = `${options.what === 'reply' ? 'reply' : `post the ${options.what}`} on the ${options.where}`
  }

  get aborted(): boolean {
    return this.over.signal.aborted
  }

  // An arrow: it is handed out as the comment's `call` and to the caller's `load`, unbound.
  readonly make = <T>(doing: string, request: (signal: AbortSignal) => Promise<T>): Promise<T | undefined> =>
    attempt(doing, request, { ...this.options, over: this.over.signal, done: this.done }, (error) => {
      this.lastFailureTransient = mayHaveWritten(error)
    })

  /** Edits comment `id` to show `body`, stamped with that id when the caller signs its records. */
  edit(octokit: Octokit, id: number, body: string): Promise<unknown> {
    const { place, what, where, stamp } = this.options
    const sent = stamp ? stamp(body, id) : body
    return this.make(`update the ${what} on the ${where}`, (signal) => place.edit(octokit, id, sent, signal))
  }
}

/**
 * The first post and how it stands: sent, refused (GitHub refused it, so no comment was made),
 * answered with its id, or found again by its marker when the answer was lost or was GitHub's own
 * trouble (a 502 may come after the comment was made).
 */
export class FirstPost {
  /** The comment's id, once GitHub has answered for it (or it was found again). */
  id: number | undefined
  /** The post went out: unanswered, it may be there all the same, and is looked for. */
  private sent = false
  /** GitHub refused the post (a 4xx): there is none to find. */
  private refused = false
  /** Who the action writes as, once an answer said so. */
  private self = ''
  private readonly startedAt = Date.now()

  constructor(
    private readonly calls: CommentCalls,
    private readonly marker: string
  ) {}

  noteSelf(login: string | undefined): void {
    if (login) this.self = login
  }

  send(octokit: Octokit, body: string): Promise<{ data: PostedComment } | undefined> {
    return this.calls.make(this.calls.postDoing, async (signal) => {
      this.sent = true
      try {
        return await this.calls.options.place.post(octokit, `${body}\n${this.marker}`, signal)
      } catch (error) {
        // A refusal made no comment, so none is looked for; after a 5xx or no answer it may be there.
        if (!mayHaveWritten(error)) this.refused = true
        throw error
      }
    })
  }

  /** GitHub answered for the post; true when it came late, after another comment took the id. */
  answered(posted: PostedComment): boolean {
    this.noteSelf(posted.user?.login)
    if (this.id === undefined) this.id = posted.id
    else return posted.id !== this.id
    return false
  }

  /**
   * The post went out, GitHub did not refuse it, and no comment is known for it: not answered for (no
   * answer, or a 5xx) and not found by its marker (GitHub did not make it, or its listing does not show it yet).
   */
  get missing(): boolean {
    return this.sent && !this.refused && this.id === undefined
  }

  /** The post went out and was not answered for (no answer, or a 5xx): it is looked for by its marker; true when found. */
  async findLost(octokit: Octokit): Promise<boolean> {
    if (this.id !== undefined || !this.sent || this.refused || this.calls.aborted) return false
    this.id = await this.find(octokit)
    return this.id !== undefined
  }

  /**
   * The post among the place's newest comments: the oldest that has the marker, written by the
   * action (once an answer said who that is): another author's comment that holds the marker
   * (copied, or an older comment edited to hold it) is never taken for it.
   */
  private async find(octokit: Octokit): Promise<number | undefined> {
    const { place, what, where } = this.calls.options
    const since = new Date(this.startedAt - 60_000).toISOString()
    const listed = await this.calls.make(`look for the ${what} on the ${where}`, (signal) =>
      place.list(octokit, since, signal)
    )
    const found = (listed?.data ?? []).find(
      (c) => typeof c.body === 'string' && c.body.includes(this.marker) && (!this.self || c.user?.login === this.self)
    )
    return typeof found?.id === 'number' ? found.id : undefined
  }
}

/**
 * The edits, one in flight at a time on one chain, each sending the newest body wanted (a burst of
 * changes costs one edit more); after a refused edit, progress is not pressed on GitHub again.
 */
export class Edits {
  private wanted = ''
  /** The body last sent: shown or not, it is not sent again. */
  private shown = ''
  private chain: Promise<void> = Promise.resolve()
  /** The body whose edit GitHub refused or left unanswered last. */
  private failedBody = ''
  /** GitHub refused an edit: only the final body is tried now. */
  refused = false

  constructor(
    private readonly on: {
      client: Promise<{ octokit: Octokit } | null>
      first: FirstPost
      calls: CommentCalls
      finished: () => boolean
    }
  ) {}

  want(body: string): void {
    this.wanted = body
    this.chain = this.chain.then(() => this.flush())
  }

  /** The comment's id became known: the edits waiting for it go now. */
  resume(): void {
    if (this.wanted !== '') this.chain = this.chain.then(() => this.flush())
  }

  /** The edits queued so far, done. */
  settled(): Promise<void> {
    return this.chain
  }

  /** Whether `body` went out and was not refused. */
  shows(body: string): boolean {
    return this.shown === body && this.failedBody !== body
  }

  /**
   * One failed write at the end (no answer, or GitHub's own trouble) does not lose the final body:
   * once more, within the bound. A refusal is not pressed on GitHub.
   */
  async retryFinal(octokit: Octokit, body: string): Promise<void> {
    const { calls, first } = this.on
    if (this.failedBody !== body || !calls.lastFailureTransient || calls.aborted || first.id === undefined) return
    if ((await calls.edit(octokit, first.id, body)) !== undefined) this.failedBody = ''
  }

  private async flush(): Promise<void> {
    const { client, first, calls, finished } = this.on
    const loaded = await client
    const known = first.id
    if (!loaded || known === undefined) return
    while (this.wanted !== '' && this.wanted !== this.shown && !calls.aborted && (finished() || !this.refused)) {
      const body = this.wanted
      // Shown or not, it is not sent again: a body GitHub refuses once is not pressed on it.
      this.shown = body
      // One warning is enough: after a refused edit, only the final body is tried.
      if ((await calls.edit(loaded.octokit, known, body)) === undefined) {
        this.refused = true
        this.failedBody = body
      } else if (this.failedBody === body) this.failedBody = ''
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
