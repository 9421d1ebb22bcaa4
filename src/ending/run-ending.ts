// How a run ended, described once (describeEnding): the step's log, the annotation, the job summary
// and the reply on a comment thread all pick their words from it, so they cannot tell the same
// ending two ways. The outcome is run-outcome.ts, its words ending-words.ts, its verdict
// ending-verdict.ts, each under exhaustive switches: the compiler names the one a new ending leaves out.

import { describeVerdict, type Verdict } from './ending-verdict.js'
import { describeEndingWords, type EndingWords } from './ending-words.js'
import { VALUES_AS_GIVEN, type ValueFormat } from './value-format.js'
import { isJobFollowed, type RunOutcome } from '../kernel/run-outcome.js'

/**
 * An ending described once, as data: the step's level, the log line, the short sentence and icon (the
 * summary and the reply), the summary's heading and next step, and whether a job was followed (the
 * summary then says for how long). Each place that tells the ending picks from it.
 */
export type EndingReport = EndingWords & Verdict & { followed: boolean }

/** Describes how the run ended; `format` shows the service's values for where the words go. */
export function describeEnding(outcome: RunOutcome, format: ValueFormat = VALUES_AS_GIVEN): EndingReport {
  const words = describeEndingWords(outcome, format)
  return { ...words, ...describeVerdict(outcome, words), followed: isJobFollowed(outcome) }
}
