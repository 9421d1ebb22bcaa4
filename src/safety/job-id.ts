// The one rule a job id follows, wherever it comes from (the jobId input, the service's answer, the
// marker in the note on the agent's pull request). The contract types a job's id as any string: it
// is taken whatever its characters, within a length, and encoded wherever it goes into a path
// (encodeURIComponent). What it may not hold is a control character (it goes into log lines,
// outputs and replies, each one line), nor be `.` or `..` (encoded, a path would still read them as
// a step to another route).
import { hasControlCharacter } from './neutralise.js'

export const MAX_JOB_ID_LENGTH = 200

/** Why `text` cannot be a job id, as a clause ("it holds a control character"); '' when it can be one. */
export function jobIdProblem(text: string): string {
  if (text === '') return 'it is empty'
  if ([...text].length > MAX_JOB_ID_LENGTH) return `it is longer than ${MAX_JOB_ID_LENGTH} characters`
  if (hasControlCharacter(text)) return 'it holds a control character (a line break, a tab or the like)'
  if (text === '.' || text === '..') return `it is "${text}", which a path would read as a step to another route`
  return ''
}

/** Whether `text` may be a job id: 1 to 200 characters, no control character, not `.` or `..`. */
export function isJobId(text: string): boolean {
  return jobIdProblem(text) === ''
}
