// The one rule a job id follows, wherever it comes from (the jobId input, the service's answer, the
// marker in the note on the agent's pull request). The contract types a job's id as any string: it
// is taken whatever its characters, within a length, and encoded wherever it goes into a path
// (encodeURIComponent). What it may not hold is a control character (it goes into log lines,
// outputs and replies, each one line), nor half of a character (a lone UTF-16 surrogate, which valid
// JSON can carry but no encoding can write into a path or a marker), nor be `.` or `..` (encoded, a
// path would still read them as a step to another route).
import { hasControlCharacter } from './neutralise.js'

export const MAX_JOB_ID_LENGTH = 200

/** Why `text` cannot be a job id, as a clause ("it holds a control character"); '' when it can be one. */
export function jobIdProblem(text: string): string {
  if (text === '') return 'it is empty'
  if ([...text].length > MAX_JOB_ID_LENGTH) return `it is longer than ${MAX_JOB_ID_LENGTH} characters`
  if (hasControlCharacter(text)) return 'it holds a control character (a line break, a tab or the like)'
  if (LONE_SURROGATE.test(text)) {
    return 'it holds half of a character (a lone UTF-16 surrogate), which cannot be encoded into a path'
  }
  if (text === '.' || text === '..') return `it is "${text}", which a path would read as a step to another route`
  return ''
}

// A high surrogate not followed by a low one, or a low one not after a high one. (String's
// isWellFormed says the same, but is not in the ES2023 library this project compiles against.)
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** Whether `text` may be a job id: 1 to 200 characters, no control character nor half of one, not `.` or `..`. */
export function isJobId(text: string): boolean {
  return jobIdProblem(text) === ''
}
