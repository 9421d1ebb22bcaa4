// Values that look like credentials and are public: the example keys vendors publish in their own
// documentation (so that docs, where such examples live, reach the agent as written, and no log line
// tells the user to rotate a key that was never secret), and the names whose key or token is not a
// credential (a cache key, an idempotency key, a page token, a key's fingerprint). gitleaks' allowlists
// (its `.+EXAMPLE$` for AWS, its generic rule's list of non-secret names) showed which values recur;
// the list here is this project's own, and docs/security.md says what it holds.

// Published by the vendor as an example or a test value, verbatim in its documentation.
const DOCUMENTED = new Set([
  // AWS's IAM examples (https://docs.aws.amazon.com/IAM/latest/UserGuide/security-creds.html).
  'AKIAIOSFODNN7EXAMPLE',
  'AKIAI44QH8DHBEXAMPLE',
  'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY',
  // Google's reCAPTCHA test keys, site and secret (https://developers.google.com/recaptcha/docs/faq).
  '6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXjiZKhI',
  '6LeIxAcTAAAAAGG-vFI1TnRWxMZNFuojJ4WifJWe',
  // Stripe's test-mode keys printed in its API reference's examples.
  'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
  'pk_test_TYooMQauvdEDq54NiTphI7jx',
  'sk_test_BQokikJOvBiI2HlWgH4olfQ2',
  // The example token jwt.io shows (and countless docs copy): HS256, "John Doe", its secret public.
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c'
])

// AWS writes every example key id and secret with EXAMPLE at its end (`AKIA…EXAMPLE`, `…EXAMPLEKEY`).
const AWS_EXAMPLE = /^(?:(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{4,12}EXAMPLE|[A-Za-z0-9/+]{30}EXAMPLEKEY)$/

/** Whether a value found by the scan is a vendor's published example or test value. */
export function isDocumentedValue(found: string): boolean {
  // A hit may hold the quotes or the colon around the value (`-u sk_test_…:`).
  const value = found.replace(/^["'`]+|["'`:]+$/g, '')
  return DOCUMENTED.has(value) || AWS_EXAMPLE.test(value)
}

// The word before `key` or `token` in a name that says its value is not a credential: an idempotency,
// cache, page, cursor or continuation key or token, a database's primary, sort or partition key, a
// key's fingerprint (`gpg --recv-keys`), a public or publishable key, a reCAPTCHA site key, a form's CSRF token.
const PUBLIC_QUALIFIERS = new Set([
  'idempotency',
  'dedup',
  'deduplication',
  'correlation',
  'cache',
  'page',
  'next',
  'continuation',
  'pagination',
  'cursor',
  'resume',
  'sync',
  'primary',
  'foreign',
  'sort',
  'partition',
  'hash',
  'range',
  'row',
  'bucket',
  'schema',
  'sequence',
  'recv',
  'receive',
  'fingerprint',
  'public',
  'publishable',
  'site',
  'csrf',
  'xsrf'
])
// The same written as one word (`sitekey`, `pageToken` lower-cased by a form: `pagetoken`).
const PUBLIC_ONE_WORD = new RegExp(`^(?:${[...PUBLIC_QUALIFIERS].join('|')})(?:key|token)s?$`)

/**
 * Whether a name's parts (lower-case, in order, the secret word at `end`) say that its key or token
 * is public: `Idempotency-Key`, `nextPageToken`, `cache-key`, `--recv-keys`, `data-sitekey`.
 */
export function isPublicName(parts: readonly string[], end: number): boolean {
  const word = parts[end]
  if (PUBLIC_ONE_WORD.test(word)) return true
  if (!/^(?:key|token)s?$/.test(word)) return false
  return end > 0 && PUBLIC_QUALIFIERS.has(parts[end - 1])
}

// Words joined by `-`, `_` or `.`, then a hex digest: a cache key (`Linux-node-9f8e…`), a build or
// artifact key, named by what it is a digest of. A secret is not built from the words of its purpose.
const WORDS_THEN_DIGEST = /^(?:[A-Za-z]{3,}[0-9]{0,2}[-_.]){2,}[a-f0-9]{7,64}$/

/** Whether a value is words of what it keys and a digest of it (a cache key), not a secret. */
export function isKeyOfWordsAndDigest(value: string): boolean {
  return WORDS_THEN_DIGEST.test(value)
}
