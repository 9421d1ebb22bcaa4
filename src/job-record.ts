/** An agent job as the service serves it; fields the service leaves out are null. */
export interface Job {
  id: string
  /** `active`, `completed`, `archived` or `failed`, or a status this action does not know yet. */
  status: string
  model: string | null
  sourceRepository: string | null
  sourceRef: string | null
  /** The pull request, only when it is an http(s) URL; anything else is dropped. */
  prLink: string | null
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

/**
 * Reads a job record from a parsed response body, or returns null when it is not one (no `id` or
 * no `status`): a proxy's page or a half-written record is not a job, whatever its HTTP status.
 */
export function parseJob(body: unknown): Job | null {
  if (!isObject(body)) return null
  const { id, status } = body
  if (typeof id !== 'string' || id === '' || typeof status !== 'string' || status === '') return null
  const source = isObject(body.source) ? body.source : {}
  return {
    id,
    status,
    model: text(body.model),
    sourceRepository: text(source.repository),
    sourceRef: text(source.ref),
    prLink: httpUrl(body.prLink),
    createdAt: text(body.createdAt),
    archivedAt: text(body.archivedAt)
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null
}

/** A link is passed on to outputs and the summary only when it is http(s): never javascript: or the like. */
function httpUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null
  } catch {
    return null
  }
}
