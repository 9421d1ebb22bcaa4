// The one signature every record the action keeps on GitHub carries (the thread's and the index's
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
