// Documented public values are not secrets: vendors' published example and test keys, fingerprints,
// cache and idempotency keys, page tokens, public keys and digests reach the agent as docs write them
// (scripts/credential-public-values.js, the corpus `npm run bench:credentials` measures), while a
// real-shape credential beside the same names, or in the same place, is still blanked.
import { describe, expect, it } from 'vitest'
import { PUBLIC_VALUES } from '../../../scripts/credential-public-values.js'
import { fill } from '../../../scripts/credential-samples.js'
import { blankText } from '../../../src/safety/credentials/scan.js'
import { mulberry32 } from '../../support/soak.js'

const j = (...parts: string[]): string => parts.join('')
const rng = mulberry32(2611)

describe('public values', () => {
  it.each(PUBLIC_VALUES.map((entry) => [entry.what, entry.text]))('%s: left as written', (_, text) => {
    expect(blankText(text).text).toBe(text)
  })

  it('a real-shape credential in the same places is still blanked', () => {
    const awsId = j('AK', 'IA') + fill('{U16}', rng)
    const awsSecret = fill('{b40}', rng)
    const stripe = j('sk_', 'test_') + fill('{A24}', rng)
    const github = j('gh', 'p_') + fill('{A36}', rng)
    const cases: [string, string][] = [
      [`aws_access_key_id = ${awsId}`, 'aws_access_key_id = [redacted: AWS access key]'],
      [`aws_secret_access_key = ${awsSecret}`, 'aws_secret_access_key = [redacted: AWS secret key]'],
      [`-u ${stripe}:`, '-u [redacted: user and password]'],
      // A name that says "public" shields no self-naming token.
      [`Idempotency-Key: ${github}`, 'Idempotency-Key: [redacted: GitHub token]'],
      [`"nextPageToken": "${github}"`, '"nextPageToken": "[redacted: GitHub token]"'],
      // Words of a name before `key` that are not a public key's: still a secret.
      [`signing_key = "${fill('{A32}', rng)}"`, 'signing_key = "[redacted: secret value]"'],
      [`cache_secret = "${fill('{A32}', rng)}"`, 'cache_secret = "[redacted: secret value]"'],
      // EXAMPLE inside a key, not at its end, is no example.
      [`AWS_ACCESS_KEY_ID=AKIAEXAMPLE${fill('{U9}', rng)}`, 'AWS_ACCESS_KEY_ID=[redacted: AWS access key]']
    ]
    for (const [text, expected] of cases) expect(blankText(text).text).toBe(expected)
  })
})
