import { asObject } from '../github/json-shape.js'
import { assertNever } from '../runtime/assert-never.js'
import { jobIdProblem } from '../safety/job-id.js'
import { pullRequestLink } from './pull-request-link.js'
import { blankSecrets } from '../safety/run-secrets.js'
import { neutralise } from '../safety/neutralise.js'

/**
 * An agent job as the service serves it, as far as this action trusts it: the id is any text
 * without control characters (see safety/job-id.ts), the status a short token, the other texts are neutralised (see safety/neutralise.ts), and fields the service
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

/** A status that ends a job: each decision over a final job switches over these, so a new one does not compile unsaid. */
export type FinalStatus = (typeof FINAL_STATUSES)[number]

export function isFinal(status: string): status is FinalStatus {
  return (FINAL_STATUSES as readonly string[]).includes(status)
}

/** The service's status as a FinalStatus, for a switch; null while the job works, or for a status this action does not know. */
export function finalStatusOf(status: string): FinalStatus | null {
  return isFinal(status) ? status : null
}

/** Whether the job completed: not failed, not archived, not still working. */
export function hasCompleted(status: string): boolean {
  const final = finalStatusOf(status)
  switch (final) {
    case 'completed':
      return true
    case 'archived':
    case 'failed':
    case null:
      return false
    default:
      return assertNever(final, 'job status')
  }
}

/** The status of a job that has ended for good and takes no more messages (archived, failed); null for any other. */
export function endedForGood(status: string): 'archived' | 'failed' | null {
  const final = finalStatusOf(status)
  switch (final) {
    case 'archived':
    case 'failed':
      return final
    case 'completed':
    case null:
      return null
    default:
      return assertNever(final, 'job status')
  }
}

export function isKnownStatus(status: string): boolean {
  return KNOWN_STATUSES.has(status)
}

const STATUS = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

/** The problem of a body that is not a JSON object at all (a proxy's page): its excerpt says more. */
export const NOT_AN_OBJECT = 'it is not a JSON object'

/**
 * Reads a job record from a parsed response body, or says why it is not one: no `id` or `status`,
 * an `id` that cannot be a job id (see safety/job-id.ts), a status that is not a short token, or
 * either holding a secret this run holds (a proxy's page, a half-written record, or a record crafted
 * to smuggle a workflow command into the log is not a job, whatever its HTTP status).
 */
export function readJobRecord(body: unknown): { job: Job; problem?: undefined } | { job?: undefined; problem: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { problem: NOT_AN_OBJECT }
  const record = asObject(body)
  const { id, status } = record
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
  const source = asObject(record.source)
  const link = typeof record.prLink === 'string' && record.prLink !== '' ? record.prLink : null
  const prLink = link === null ? null : pullRequestLink(link)
  return {
    job: {
      id,
      status,
      model: shownText(record.model),
      sourceRepository: shownText(source.repository),
      sourceRef: shownText(source.ref),
      prLink,
      ...(link !== null && prLink === null ? { refusedPrLink: neutralise(link, 120) } : {}),
      createdAt: shownText(record.createdAt),
      archivedAt: shownText(record.archivedAt)
    }
  }
}

/** A job record from a parsed response body, or null when it is not one (readJobRecord says why). */
export function parseJob(body: unknown): Job | null {
  return readJobRecord(body).job ?? null
}

/**
 * A text field, neutralised: it goes into outputs (which a later step may print), the summary and
 * the log. Null when the service left it out or empty.
 */
function shownText(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const safe = neutralise(value)
  return safe === '' ? null : safe
}
