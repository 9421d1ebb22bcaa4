// @ts-check
// Public values that look like credentials, written as they appear in documentation, for
// `npm run bench:credentials` (its false-positive rate on docs) and the tests: vendors' published
// example and test keys, key fingerprints, cache keys, idempotency keys, page tokens, public keys,
// digests. None is a secret: each entry must reach the agent exactly as written.

/** @type {{ what: string, text: string }[]} */
export const PUBLIC_VALUES = [
  // Vendors' published examples and test keys.
  { what: "AWS's example access key id", text: 'aws_access_key_id = AKIAIOSFODNN7EXAMPLE' },
  {
    what: "AWS's example secret key",
    text: 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'
  },
  {
    what: "AWS's example keys as environment variables",
    text: '$ export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\n$ export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'
  },
  {
    what: "AWS's second example key pair, in JSON",
    text: '{\n  "AccessKeyId": "AKIAI44QH8DHBEXAMPLE",\n  "SecretAccessKey": "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY"\n}'
  },
  { what: "AWS's example key id in prose", text: 'The access key ID looks like `AKIAIOSFODNN7EXAMPLE`.' },
  {
    what: "Google's reCAPTCHA test site key",
    text: '<div class="g-recaptcha" data-sitekey="6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXjiZKhI"></div>'
  },
  {
    what: "Google's reCAPTCHA test secret key",
    text: 'RECAPTCHA_SECRET_KEY=6LeIxAcTAAAAAGG-vFI1TnRWxMZNFuojJ4WifJWe'
  },
  {
    what: "Stripe's documented test key in curl",
    text: 'curl https://api.stripe.com/v1/charges \\\n  -u sk_test_4eC39HqLyjWDarjtT1zdp7dc: \\\n  -d amount=2000'
  },
  {
    what: "Stripe's documented test key in code",
    text: "const stripe = require('stripe')('sk_test_4eC39HqLyjWDarjtT1zdp7dc');"
  },
  { what: "Stripe's publishable test key", text: "const stripe = Stripe('pk_test_TYooMQauvdEDq54NiTphI7jx');" },
  {
    what: "jwt.io's example token",
    text: 'Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c'
  },
  // Key fingerprints and public keys.
  {
    what: 'a gpg fingerprint to receive',
    text: 'gpg --keyserver hkps://keys.openpgp.org --recv-keys 3B4FE6ACC0B21F32ABCDEF0123456789ABCDEF01'
  },
  {
    what: 'a gpg fingerprint, apt-key',
    text: 'sudo apt-key adv --recv-keys 0x9DA31620334BD75D9DCB49F368818C72E52529D4'
  },
  { what: 'a fingerprint in YAML', text: 'fingerprint: 9DA31620334BD75D9DCB49F368818C72E52529D4' },
  {
    what: 'an SSH public key',
    text: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl deploy@example.com'
  },
  {
    what: 'a PEM public key',
    text: '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEqdS1bb5a3X9pVwQy8m0lF7yG9cR4\nJ2kR6zE8nXh3Wq1VtY0uK5aB7cD9eF1gH3iJ5kL7mN9oP1qR3sT5uV7wX9yZ1A==\n-----END PUBLIC KEY-----'
  },
  {
    what: 'a public key in JSON',
    text: '"publicKey": "BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U"'
  },
  { what: "Stripe's publishable key name", text: 'STRIPE_PUBLISHABLE_KEY=pk_live_51H8x2KJ4mQp9Zr7TtYvWbXcD' },
  // Cache keys.
  {
    what: 'an actions/cache key with expressions',
    text: "      key: ${{ runner.os }}-node-${{ hashFiles('**/package-lock.json') }}"
  },
  { what: 'an actions/cache key as logged', text: '      key: Linux-node-9f8e7d6c5b4a39281706f5e4d3c2b1a0' },
  { what: 'a cache-key output', text: 'cache-key: node-modules-a8f3b2c9d4e5f6a7b8c9d0e1f2a3b4c5' },
  { what: 'a cache key in code', text: "const cacheKey = 'build-cache-3f9c1a7e2b4d6f8091a2b3c4d5e6f708'" },
  // Idempotency keys and request ids.
  { what: 'an Idempotency-Key header', text: 'Idempotency-Key: 5f9c2d1e-8b7a-4c3d-9e2f-1a0b9c8d7e6f' },
  {
    what: 'an Idempotency-Key in curl',
    text: 'curl https://api.example.com/v1/payments \\\n  -H "Idempotency-Key: KG5LxwFBepaKHyUD" \\\n  -d amount=100'
  },
  { what: 'an idempotency key in code', text: "idempotencyKey: 'a4f1c9e2-77b3-4d8e-9f10-2b3c4d5e6f70'," },
  // Page tokens.
  { what: 'a nextPageToken', text: '"nextPageToken": "CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA3djlodTM",' },
  { what: 'a page_token query', text: 'GET /v1/items?page_size=50&page_token=Cg5iAAEKGgoIZGVmYXVsdBIKfK9m2Q3xR' },
  { what: "AWS's NextToken", text: '"NextToken": "AAMA-EFRSURBSGhSbXJ5Z3B5Zk0zK0FmVjdGcjdCbG1wbm5mV1JBMDZn"' },
  { what: 'a continuation token', text: 'continuationToken: "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM="' },
  { what: 'a cursor', text: '"next_cursor": "dXNlcjpVMDYxTkZUVDI="' },
  // Digests and ids.
  {
    what: 'a package-lock integrity',
    text: '"integrity": "sha512-Tv4Yh1yXgm5bjTHqUnXjP7vI0X9QH9Kk1Tf7wWxg1lm3fX2MqS5Uv2nH3u8sJm6L9oPzK0Wb4xQ1R2sT3uV4wA=="'
  },
  {
    what: 'a container image digest',
    text: 'image: ghcr.io/octo-org/app@sha256:4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945'
  },
  { what: 'a commit id', text: 'Fixed in 691cfbc2e1d0a8f3b4c5d6e7f8091a2b3c4d5e6f.' },
  { what: 'a UUID client id', text: 'AZURE_CLIENT_ID=0a1b2c3d-4e5f-6789-abcd-ef0123456789' },
  { what: 'a sort key', text: 'sortKey: "USER#2024-01-01#8f14e45f"' },
  { what: 'a primary key', text: 'primary_key = "c9f0f895fb98ab9159f51fd0297e236d"' },
  {
    what: 'a CSRF token in a form',
    text: '<input type="hidden" name="csrf_token" value="9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d">'
  }
]
