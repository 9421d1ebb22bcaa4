// The shape of an ending's words (run-ending.ts describes each ending with them; group-ending.ts the
// endings of a group's held run), apart, so that both take it without importing each other.

/** How the step ends, and the words for each place that tells it. */
export interface EndingWords {
  /** `failed` fails the step with `log`; `warning` and `notice` are annotations; `info` a log line. */
  level: 'failed' | 'warning' | 'notice' | 'info'
  /** The sentence for the step's log: what happened and what to do. */
  log: string
  /** One short sentence for the job summary and the reply on the thread. */
  short: string
  /** The reply's leading emoji. */
  icon: string
}

/** The summary's heading and next step. */
export interface Verdict {
  /** The heading: an icon and the verdict. */
  heading: string
  /** What to do next, in whole sentences; null where the sentence above it says it, or there is nothing to do. */
  next: string | null
}
