// The event payload and GitHub's answers (and the service's job record) are read field by field:
// anything missing or of the wrong type reads as empty, so a payload of an unexpected shape makes a
// thinner context, never an error.

export type JsonObject = Record<string, unknown>

export function asObject(value: unknown): JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : {}
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : []
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

/** A count: a whole number from 0 up, or undefined. */
export function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined
}

/** A commit id (SHA-1 or SHA-256, full or abbreviated), lower-cased, or '' when it is not one. */
export function sha(value: unknown): string {
  const id = text(value).toLowerCase()
  return /^[0-9a-f]{7,64}$/.test(id) ? id : ''
}

/** The id GitHub puts in `before` for a branch that did not exist, and in `after` for one deleted. */
export function isZeroSha(id: string): boolean {
  return /^0+$/.test(id)
}

/** A GitHub login (letters, digits, hyphens; `[bot]` for an app), or ''. */
export function login(value: unknown): string {
  const name = text(value)
  return /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(\[bot\])?$/.test(name) ? name : ''
}
