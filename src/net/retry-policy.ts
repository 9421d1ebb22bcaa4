// The retry and polling policy, all of it: which failures are asked again, how often, how long to
// wait in between, and how long a cancel or a reply on a thread may hold the step. One place to
// read and one place to change; the code that follows it (service/, runtime/cancel.ts,
// report/comment-reply.ts, github/reader.ts, comment/agent-pull-request.ts) holds no timing or retry
// numbers of its own (size limits of answers are not timing: they stay with their readers).

/** A source of numbers in [0, 1): Math.random in a run, a fixed sequence in a test. */
export type Random = () => number

export const RetryPolicy = {
  /** Reading a job: asked again until the step's deadline, with backoff. */
  read: {
    /** HTTP statuses worth asking again; network errors and per-request timeouts are too. */
    retryableStatuses: new Set([408, 429, 500, 502, 503, 504]),
    /**
     * The first backoff, whatever pollInterval is: a read that failed once is asked again soon,
     * and the backoff doubles from there if it keeps failing.
     */
    backoffBaseMs: 250,
    /** The longest backoff, at least; pollInterval when that is longer. */
    backoffCapMs: 30_000,
    /** A 404 is believed after this many in a row: a replica may lag behind a create. */
    notFoundConfirmations: 3,
    /** Answers that are not job records (a proxy's page) are borne this many times in a row. */
    notAJobLimit: 5
  },
  /**
   * Creating a job: sent again only when the service surely did not take it (a 429, or a
   * connection refused before the request went out). There is no idempotency key, and every job
   * can open a pull request, so an answer that was lost is never followed by another create.
   */
  create: {
    tries: 4,
    backoffBaseMs: 2000,
    backoffCapMs: 60_000
  },
  /**
   * Polling a job that is running: the first interval is split in three (0.4 + 0.3 + 0.3 of it), so
   * that a job that ends within seconds is seen within a second or two, and a long job costs three
   * requests more than a plain loop, all in its first interval; then the steady pollInterval. Each
   * wait is stretched by up to `jitter`, so that runs started together (a cron at :00) spread out;
   * stretched, never shortened, so jitter never adds requests.
   */
  poll: {
    ramp: [0.4, 0.3, 0.3],
    jitter: 0.1,
    /** The shortest pollInterval accepted: anything shorter is a load on the service, not a poll. */
    minIntervalMs: 1000,
    /** One last read this long before the deadline (at most half the time left) beats giving up unknowing. */
    lastReadBeforeDeadlineMs: 1000
  },
  /**
   * Following a job after a follow-up message: the service may go on showing the job's old final
   * status (and old prLink) for a while after it took the message, so a final status is believed
   * only once the job has been seen working again. If every read stays final this many poll
   * intervals after the message was answered (25 s at the default 5 s), the run ends with a warning
   * that the job showed no sign of taking it, with its last status and prLink. The timeout still
   * bounds it: the window is cut to the time left.
   */
  followUp: { noSignIntervals: 5 },
  /**
   * A cancel: the runner sends SIGINT, then SIGTERM 7.5 s later, then kills the process. From the
   * first signal the run has this long to say what it knows; a create in flight is let finish
   * meanwhile, so that its answer still names the job. Later signals do not cut it short.
   */
  cancel: { graceMs: 7000 },
  /**
   * The context's reads from GitHub, before the create: at most `maxMs`, and at most `shareOfTimeLeft`
   * of the time the step has left when they start. The rest is the create's (and the follow's), so
   * that a short timeout or a stalled GitHub API costs the context, never the job.
   */
  context: {
    maxMs: 10_000,
    shareOfTimeLeft: 0.5,
    /** A few requests at most: the context is worth a few, never a crawl of the API. */
    maxRequests: 3,
    /** One read may take this long: a stalled API costs one read's time, then the event is what is told. */
    requestMs: 5_000
  },
  /**
   * Replies on a comment thread are a courtesy: each GitHub call is bounded, and once the run has
   * ended, whatever is left of them (the final reply included) gets this long, no more.
   */
  githubReplies: { requestTimeoutMs: 10_000, afterRunEndsMs: 5000 },
  /**
   * The agent's own pull request (agent-pull-request.ts): its comments are read to find the job's
   * note, before a follow-up and before the note is left, bounded like the context's reads: at most
   * `maxPages` pages of `perPage` comments (the note comes early in a pull request's life), each
   * request and all of them within their limits. Once the job has completed, the pull request itself is
   * read once for the summary and the reply (github/pull-request-details.ts), within `requestTimeoutMs`.
   */
  agentPullRequest: { maxPages: 5, perPage: 100, requestTimeoutMs: 5000, totalMs: 8000 }
} as const

/** How long the context's reads may take, with `timeLeftMs` left of the step when they start. */
export function contextBudgetMs(timeLeftMs: number): number {
  const { maxMs, shareOfTimeLeft } = RetryPolicy.context
  return Math.max(0, Math.min(maxMs, Math.floor(timeLeftMs * shareOfTimeLeft)))
}

/**
 * How long to wait before the next try after `failures` failures in a row: exponential from
 * `baseMs`, capped at `capMs`, and spread over its upper half ("equal jitter") so that many runs
 * failing together do not come back together.
 */
export function backoffMs(failures: number, baseMs: number, capMs: number, random: Random = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, failures - 1))
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}

/** The backoff bounds for reads: quick to start, and at the cap no faster than the poll itself. */
export function readBackoff(pollIntervalMs: number): { baseMs: number; capMs: number } {
  return {
    baseMs: RetryPolicy.read.backoffBaseMs,
    capMs: Math.max(pollIntervalMs, RetryPolicy.read.backoffCapMs)
  }
}

/**
 * The wait after a failure: the backoff, with Retry-After (seconds or an HTTP date) as a floor under
 * it, never the whole wait, so that a server that keeps answering `Retry-After: 0` is not asked in a
 * tight loop. Like every wait, it is cut to the time the step has left (see sleep in deadline.ts).
 */
export function retryWaitMs(backoff: number, retryAfter: number | null): number {
  return Math.max(retryAfter ?? 0, backoff)
}

/**
 * Reads a Retry-After header, seconds or an HTTP date, as milliseconds from `now`; null when it is
 * missing or unreadable. A date in the past means "now".
 */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | null {
  const value = Array.isArray(header) ? header[0] : header
  if (value === undefined || value.trim() === '') return null
  const text = value.trim()
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000)
  const at = Date.parse(text)
  return Number.isNaN(at) ? null : Math.max(0, at - now)
}

/** How long a follow after a message may read only final statuses before it says the job showed no sign of taking it. */
export function noSignWindowMs(pollIntervalMs: number): number {
  return RetryPolicy.followUp.noSignIntervals * pollIntervalMs
}
