// The job service's retry and polling numbers: which failures are asked again, how often, how long
// to wait in between. Beside the code that follows them (job-service.ts, follow-job.ts,
// poll-delays.ts), which holds no timing or retry numbers of its own.

export const ServicePolicy = {
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
   * A 429 in a run that can keep the create for a reporting run (follow/send-and-follow.ts
   * keepForLater) is not waited out with `wait: false`: the create is queued at once, with the
   * service's Retry-After, and the runner is let go; a held run waits while its tries and its time
   * allow, then queues it rather than lose it.
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
  }
} as const

/** The backoff bounds for reads: quick to start, and at the cap no faster than the poll itself. */
export function readBackoff(pollIntervalMs: number): { baseMs: number; capMs: number } {
  return {
    baseMs: ServicePolicy.read.backoffBaseMs,
    capMs: Math.max(pollIntervalMs, ServicePolicy.read.backoffCapMs)
  }
}

/** How long a follow after a message may read only final statuses before it says the job showed no sign of taking it. */
export function noSignWindowMs(pollIntervalMs: number): number {
  return ServicePolicy.followUp.noSignIntervals * pollIntervalMs
}
