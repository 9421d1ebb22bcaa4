import { pullRequestLink } from './pull-request-link.js'
import { blankSecrets } from './redact.js'
import { hasControlCharacter, neutralise } from './untrusted-text.js'

/**
 * An agent job as the service serves it, as far as this action trusts it: the id is any text
 * without control characters, the status a short token, the other texts are neutralised (see untrusted-text.ts), and fields the service
 * leaves out are null.
 */
export interface Job {
  id: string
  /** `active`, `completed`, `archived` or `failed`, or a status this action does not know yet. */
  status: string
  model: string | null
  sourceRepository: string | null
  sourceRef: string | null
  /** The pull request, only when it has the shape of one (see pull-request-link.ts). */
  prLink: string | null
  /** A prLink the service gave that was not passed on, neutralised, for the one warning about it. */
  refusedPrLink?: string
  createdAt: string | null
  archivedAt: string | null
}

export const FINAL_STATUSES = ['completed', 'archived', 'failed'] as const
const KNOWN_STATUSES = new Set<string>(['active', ...FINAL_STATUSES])

export function isFinal(status: string): boolean {
  return (FINAL_STATUSES as readonly string[]).includes(status)
}

export function isKnownStatus(status: string): boolean {
  return KNOWN_STATUSES.has(status)
}

// The contract types a job's id as any string: it is taken whatever its characters, within a
// length, and encoded wherever it goes into a path (encodeURIComponent). What it may not hold is a
// control character (it goes into log lines, outputs and replies, each one line), nor be `.` or `..`
// (encoded, a path would still read them as a step to another route).
export const MAX_JOB_ID_LENGTH = 200
const STATUS = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

/** The problem of a body that is not a JSON object at all (a proxy's page): its excerpt says more. */
export const NOT_AN_OBJECT = 'it is not a JSON object'

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

/**
 * Reads a job record from a parsed response body, or says why it is not one: no `id` or `status`,
 * an `id` that cannot be a job id, a status that is not a short token, or either holding a secret
 * this run holds (a proxy's page, a half-written record, or a record crafted to smuggle a workflow
 * command into the log is not a job, whatever its HTTP status).
 */
export function readJobRecord(body: unknown): { job: Job; problem?: undefined } | { job?: undefined; problem: string } {
  if (!isObject(body)) return { problem: NOT_AN_OBJECT }
  const { id, status } = body
  if (typeof id !== 'string') return { problem: `its \`id\` is ${id === undefined ? 'missing' : 'not a string'}` }
  const idProblem = jobIdProblem(id)
  if (idProblem) return { problem: `its \`id\` cannot be a job id: ${idProblem}` }
  if (typeof status !== 'string') {
    return { problem: `its \`status\` is ${status === undefined ? 'missing' : 'not a string'}` }
  }
  if (!STATUS.test(status)) {
    return {
      problem: 'its `status` is not a word of letters, digits and . _ - (at most 64, starting with a letter or digit)'
    }
  }
  // A token that holds a secret (an id or status that echoes the key) is not shown anywhere.
  if (blankSecrets(id) !== id) return { problem: "its `id` holds this run's API key or GitHub token" }
  if (blankSecrets(status) !== status) return { problem: "its `status` holds this run's API key or GitHub token" }
  const source = isObject(body.source) ? body.source : {}
  const link = typeof body.prLink === 'string' && body.prLink !== '' ? body.prLink : null
  const prLink = link === null ? null : pullRequestLink(link)
  return {
    job: {
      id,
      status,
      model: text(body.model),
      sourceRepository: text(source.repository),
      sourceRef: text(source.ref),
      prLink,
      ...(link !== null && prLink === null ? { refusedPrLink: neutralise(link, 120) } : {}),
      createdAt: text(body.createdAt),
      archivedAt: text(body.archivedAt)
    }
  }
}

/** A job record from a parsed response body, or null when it is not one (readJobRecord says why). */
export function parseJob(body: unknown): Job | null {
  return readJobRecord(body).job ?? null
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * A text field, neutralised: it goes into outputs (which a later step may print), the summary and
 * the log. Null when the service left it out or empty.
 */
function text(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const safe = neutralise(value)
  return safe === '' ? null : safe
}
