// One comment kept showing the newest body: posted once (with a hidden marker), edited as the body
// changes (one edit at a time, each sending the newest body, so a burst of changes costs one edit
// more, not one per change), and given its final body at the end, within a bound. When GitHub made
// the comment but its answer was lost (or was a 5xx, which GitHub may give after making it), the
// comment is found again by its marker rather than left beside a second one. Every call is bounded
// by its own limit, and at the end by the run's end's time for GitHub (ending-bound.ts); a failure is
// a warning, never an error: a comment is a courtesy and never holds the step.
import { randomUUID } from 'node:crypto'
import type { Octokit } from './octokit.js'
import { ENDING_GITHUB_MS } from './ending-bound.js'
import type { WriteAccess } from './write-failure.js'
import { CommentCalls, Edits, FirstPost, type CommentPlace, type PostedComment } from './live-comment-state.js'

export type { CommentPlace, ListedComment, PostedComment } from './live-comment-state.js'

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
  /**
   * The first post went out and left no comment known (GitHub's 5xx or no answer, and none found by
   * its marker): looks once more, then posts `body` as the comment (with the marker), once; what was
   * shown meanwhile follows it. Nothing when the comment is known, the post was refused or never sent,
   * or finish was called. For what must name the comment before the run ends: a hand-over's record
   * names the reply that a reporting run tells the ending on. The new post, when there is one.
   */
  postAgain(client: C, body: string): Promise<PostedComment | undefined>
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
  const calls = new CommentCalls(options)
  // Only the first post carries it: a comment GitHub made but was slow to answer for is found
  // again by it, rather than left beside a second one.
  const first = new FirstPost(calls, options.marker ?? `<!-- docs-agent-${options.what}: ${randomUUID()} -->`)
  const client = options.load(calls.make)
  // The edits read whether finish was called: from then on only the final body is pressed.
  const edits: Edits = new Edits({ client, first, calls, finished: () => ending.finished })
  const ending: Ending<C> = new Ending<C>({ client, calls, first, edits, stamped: options.stamp !== undefined })
  const post = async ({ octokit }: C, body: string): Promise<PostedComment | undefined> => {
    // The run ended first: the final body says how, and no first body follows it.
    if (ending.finished) return undefined
    const posted = await first.send(octokit, body)
    if (!posted) {
      // Maybe made by GitHub but not answered for (within the call's bound, or with a 5xx): found again
      // by its marker now, so that what the run shows next (the job's record) goes to it, not to a
      // second comment.
      if (!ending.finished && (await first.findLost(octokit))) edits.resume()
      return undefined
    }
    // Answered after the final body was posted as a comment of its own: it shows the final body too.
    if (first.answered(posted.data) && ending.finalBody) await calls.edit(octokit, posted.data.id, ending.finalBody)
    return posted.data
  }
  let postedAgain = false
  return {
    call: calls.make,
    client,
    get finished() {
      return ending.finished
    },
    get id() {
      return first.id
    },
    get editRefused() {
      return edits.refused
    },
    get finalShown() {
      return ending.finalShown
    },
    noteSelf: (login) => first.noteSelf(login),
    post,
    postAgain: async (loaded, body) => {
      if (postedAgain || ending.finished || !first.missing) return undefined
      postedAgain = true
      // Made since, perhaps, or shown by the listing now: looked for once more before a second post.
      const posted = (await first.findLost(loaded.octokit)) ? undefined : await post(loaded, body)
      // What was shown while there was no comment (the job's progress) goes to it now.
      edits.resume()
      return posted
    },
    show: (body) => {
      if (!ending.finished) edits.want(body)
    },
    finish: (bodyOf, firstPost, bound) => ending.finish(bodyOf, firstPost, bound)
  }
}

/** The ending: finish was called, the final body once known, and whether it is on the comment. */
class Ending<C extends { octokit: Octokit }> {
  finished = false
  finalBody = ''
  finalShown = false

  constructor(
    private readonly parts: {
      client: Promise<C | null>
      calls: CommentCalls
      first: FirstPost
      edits: Edits
      /** The caller signs its records: a final body posted anew is edited once its id is known. */
      stamped: boolean
    }
  ) {}

  /** See LiveComment.finish. */
  async finish(
    bodyOf: (client: C) => string | Promise<string>,
    firstPost: Promise<unknown>,
    bound: AbortSignal
  ): Promise<void> {
    this.finished = true
    const { client, calls, first, edits } = this.parts
    const over = calls.over
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
      if (await first.findLost(loaded.octokit)) edits.resume()
      const body = await Promise.race([bodyReady, whenAborted(over.signal)])
      if (body === null) return
      this.finalBody = body
      this.finalShown =
        first.id !== undefined ? await this.editIn(loaded.octokit, body) : await this.postAnew(loaded.octokit, body)
    } finally {
      bound.removeEventListener('abort', boundOver)
      // The final body is shown (or could not be): a call still waiting (a first post GitHub was
      // slow to answer for, found again meanwhile) must not hold the step.
      over.abort(calls.done)
    }
  }

  /** The comment is there: the final body goes as its last edit; whether it is shown. */
  private async editIn(octokit: Octokit, body: string): Promise<boolean> {
    const { calls, edits } = this.parts
    edits.want(body)
    await Promise.race([edits.settled(), whenAborted(calls.over.signal)])
    await edits.retryFinal(octokit, body)
    return edits.shows(body)
  }

  /** There is no comment: the final body is posted as one (stamped once its id is known); whether it is shown. */
  private async postAnew(octokit: Octokit, body: string): Promise<boolean> {
    const { calls, first } = this.parts
    const posted = await calls.make(calls.postDoing, (signal) => calls.options.place.post(octokit, body, signal))
    first.id ??= posted?.data.id
    if (!posted || !this.parts.stamped) return posted !== undefined
    // The body's record needs the comment's id: it is edited in once GitHub has said it.
    return (await calls.edit(octokit, posted.data.id, body)) !== undefined
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
