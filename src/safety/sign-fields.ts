// The one signature (and payload encoding) every record the action keeps on GitHub carries (the thread's and the index's
// records, the index's marker, the note on the agent's pull request, the group's marker): HMAC-SHA256
// under a key derived from the API key for the record's version (never the key itself), over the
// version and the fields the record is bound to, as JSON. Each kind names its own version and fields.
import { createHmac } from 'node:crypto'

/** The signature of `fields` under HMAC(apiKey, version), base64url. */
export function signFields(apiKey: string, version: string, fields: readonly unknown[]): string {
  const derived = createHmac('sha256', apiKey).update(version).digest()
  return createHmac('sha256', derived)
    .update(JSON.stringify([version, ...fields]))
    .digest('base64url')
}

/** A signed line's payload: `value` with its version (v 1), as JSON in base64url. */
export function encodePayload(value: object): string {
  return Buffer.from(JSON.stringify({ v: 1, ...value })).toString('base64url')
}

/** A payload as `encodePayload` wrote it; undefined when it is not base64url JSON (a reader then checks its shape). */
export function decodePayload(encoded: string): unknown {
  try {
    return JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'))
  } catch {
    return undefined
  }
}
