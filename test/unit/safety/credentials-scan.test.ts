// The credential scan's engine (src/safety/credentials/): the table's formats, the keyword-and-entropy
// rule, what it leaves alone, invisible characters, a key cut short, recurrences, secret files.
// Samples are generated from each format's shape (scripts/credential-samples.js) or put together
// here, so that no scanner of this repository takes the test's source for a leak.
import { describe, expect, it } from 'vitest'
import { credentialSamples, fill } from '../../../scripts/credential-samples.js'
import { mulberry32 } from '../../support/soak.js'
import { blankText, blankTexts } from '../../../src/safety/credentials/scan.js'
import { isSecretChange } from '../../../src/safety/secret-files.js'

const j = (...parts: string[]): string => parts.join('')
const rng = mulberry32(7)
const token = (template: string): string => fill(template, rng)

describe('the credential table and rules', () => {
  it('blanks at least 95 % of real-shape samples of every format in the corpus, and each family at least 90 %', () => {
    const samples = credentialSamples(2, 11)
    const byFamily = new Map<string, { caught: number; total: number }>()
    let caught = 0
    for (const sample of samples) {
      const { text } = blankText(sample.text)
      const ok = sample.secrets.every((secret) => !text.includes(secret))
      if (ok) caught++
      const entry = byFamily.get(sample.family) ?? { caught: 0, total: 0 }
      entry.total++
      if (ok) entry.caught++
      byFamily.set(sample.family, entry)
    }
    expect(caught / samples.length).toBeGreaterThanOrEqual(0.95)
    const weak = [...byFamily].filter(([, r]) => r.caught / r.total < 0.9).map(([family]) => family)
    expect(weak).toEqual([])
  })

  it.each([
    ['Google API key', j('AI', 'za'), '{w35}'],
    ['Azure AD client secret', 'abc', '1Q~{w34}'],
    ['Anthropic API key', j('sk-ant-', 'admin01-'), '{w93}AA'],
    ['AWS access key', j('A3', 'T'), 'X{U16}'],
    ['AWS Bedrock API key', j('AB', 'SK'), '{b140}'],
    ['GitLab token', j('gl', 'rt-'), '{w20}'],
    ['GitLab token', j('gl', 'dt-'), '{w20}'],
    ['Stripe key', j('sk_', 'prod_'), '{A32}'],
    ['Stripe key', j('rk_', 'prod_'), '{A32}'],
    ['Twilio API key', j('S', 'K'), '{h32}'],
    ['DigitalOcean token', j('dop', '_v1_'), '{h64}'],
    ['PyPI token', j('pypi-', 'AgEIcHlwaS5vcmc'), '{w70}'],
    ['RubyGems API key', j('ruby', 'gems_'), '{h48}'],
    ['Vault token', j('hv', 's.'), '{w90}'],
    ['Doppler token', j('dp.', 'pt.'), '{A43}'],
    ['Postman API key', j('PM', 'AK-'), '{h24}-{h34}'],
    ['1Password secret key', j('A3', '-'), '{U6}-{U11}-{U5}-{U5}-{U5}']
  ])('blanks a %s by its own shape, naming its kind', (kind, prefix, rest) => {
    const value = prefix + token(rest)
    const { text, kinds } = blankText(`+  client.login('${value}')\n+  next()`)
    expect(text).toBe(`+  client.login('[redacted: ${kind}]')\n+  next()`)
    expect(kinds).toEqual([kind])
  })

  it('blanks SendGrid keys of every length seen, not only 69 characters', () => {
    for (const shape of ['{w22}.{w43}', '{w16}.{w32}', '{w22}.{w60}', '{w66}']) {
      const value = j('S', 'G.') + token(shape)
      expect(blankText(`SENDGRID=${value}`).text).toBe('SENDGRID=[redacted: SendGrid API key]')
    }
  })

  it('blanks a vendor credential with no prefix when the name it is assigned to says whose it is', () => {
    const value = token('{uuid}')
    expect(blankText(`HEROKU_API_KEY=${value}`).text).toBe('HEROKU_API_KEY=[redacted: Heroku API key]')
    const id = token('{d18}')
    expect(blankText(`discordClientId: "${id}"`).text).toBe('discordClientId: "[redacted: Discord credential]"')
  })
})

describe('the keyword-and-entropy rule', () => {
  it.each([
    ['an environment assignment', (v: string) => `API_SECRET=${v}`],
    ['YAML', (v: string) => `client_secret: ${v}`],
    ['JSON', (v: string) => `{"authToken": "${v}"}`],
    ['a typed declaration', (v: string) => `var sessionToken string = "${v}"`],
    ['a property call', (v: string) => `System.setProperty("APP_TOKEN", "${v}")`],
    ['a command-line flag', (v: string) => `deploy --api-key=${v} --force`],
    ['an XML element', (v: string) => `<signingKey>\n  ${v}\n</signingKey>`]
  ])('blanks a random value assigned to a secret-sounding name in %s', (_, line) => {
    const value = token('{A32}')
    const { text } = blankText(line(value))
    expect(text).not.toContain(value)
    expect(text).toContain('[redacted: secret value]')
  })

  it.each([
    ['curl -u', (v: string) => `curl -u deploy:${v} https://api.example.com`],
    ['curl --user in quotes', (v: string) => `curl --user "deploy:${v}" https://api.example.com`],
    ['an Authorization header', (v: string) => `curl -H "Authorization: Bearer ${v}" https://x.example`],
    ['an X-Api-Key header', (v: string) => `curl -H 'X-Api-Key: ${v}' https://x.example`],
    ['a Redis URL with no user', (v: string) => `REDIS_URL=redis://:${v}@cache:6379/0`],
    ['a JDBC URL', (v: string) => `jdbc:postgresql://db/app?user=app&password=${v}&ssl=true`],
    ['an ADO.NET connection string', (v: string) => `"Server=db;Database=app;User Id=app;Password=${v};"`],
    ['a nested JSON string', (v: string) => `{"run": "curl -s --user app:${v} https://x.example"}`]
  ])('blanks the password of %s', (_, line) => {
    const value = `${token('{A10}')}!${token('{d4}')}`
    expect(blankText(line(value)).text).not.toContain(value)
  })

  it("blanks every value of a Kubernetes Secret's data, in a diff or not", () => {
    const a = Buffer.from(token('{A20}')).toString('base64')
    const b = Buffer.from('https://internal.example.com').toString('base64')
    const manifest = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ndata:\n  password: ${a}\n  api-url: ${b}\n`
    for (const text of [manifest, manifest.replace(/^/gm, '+')]) {
      const out = blankText(text).text
      expect(out).not.toContain(a)
      expect(out).not.toContain(b)
      expect(out).toContain('name: app')
    }
  })

  it('blanks a JSON web token wrapped once more in base64', () => {
    const jwt = [
      Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url'),
      Buffer.from('{"sub":"1234567890","iat":1700000000}').toString('base64url'),
      token('{w43}')
    ].join('.')
    const wrapped = Buffer.from(jwt).toString('base64')
    expect(blankText(`token: ${wrapped}`).text).toBe('token: [redacted: JSON web token]')
  })

  it.each([
    '${{ secrets.API_TOKEN }}',
    '$API_TOKEN',
    '${API_TOKEN}',
    'process.env.API_TOKEN',
    "os.environ['API_TOKEN']",
    '<your-api-token>',
    'xxxxxxxxxxxxxxxx',
    'changeme',
    'your_api_key_here',
    '********',
    'tokenFromTheRequestHeader',
    'src/config/tokens.json',
    'https://example.com/docs/api-keys',
    'abc123xyz456',
    '1.2.3'
  ])('leaves %s alone where a secret-sounding name is assigned it', (value) => {
    for (const line of [`API_TOKEN=${value}`, `apiKey: "${value}"`, `password = '${value}'`]) {
      expect(blankText(line).text).toBe(line)
    }
  })

  it('leaves ordinary lines of code, configuration and prose alone', () => {
    const lines = [
      "const key = auth.startsWith('Bearer ') ? auth.slice('Bearer '.length) : ''",
      'const token = core.getInput("github-token", { required: true })',
      'primaryKey: "id",',
      'password_min_length: 12',
      'curl -u "$USER:$PASS" https://example.com',
      'curl -u user:pass https://example.com',
      'DATABASE_URL=postgres://postgres:postgres@localhost:5432/app',
      'The secret key is stored in the vault; rotate it yearly.',
      '[![codecov](https://codecov.io/gh/o/r/graph/badge.svg?token=lWZ9OBQ7GM)](https://codecov.io/gh/o/r)',
      '"bundle": "ncc build src/index.ts -o dist --license licenses.txt"',
      'Authorization: Bearer ${TOKEN}',
      `${j('svc', '_')}\\.\\.\\.$/m`
    ]
    const text = lines.join('\n')
    expect(blankText(text).text).toBe(text)
  })
})

describe('the one pass', () => {
  it.each([
    ['a zero-width space', '\u200b'],
    ['a byte order mark', '\ufeff'],
    ['a DEL', '\u007f'],
    ['a soft hyphen', '\u00ad'],
    ['a word joiner', '\u2060']
  ])('normalises %s inside a token, then blanks the token', (_, invisible) => {
    const value = j('gh', 'p_') + token('{A36}')
    const split = `${value.slice(0, 10)}${invisible}${value.slice(10)}`
    const { text, kinds } = blankText(`use ${split} here`)
    expect(text).toBe('use [redacted: GitHub token] here')
    expect(kinds).toEqual(['GitHub token'])
  })

  it('blanks a private key whose BEGIN line was cut off, from its first body line to its END line', () => {
    const body = Array.from({ length: 4 }, () => `+${token('{b64}')}`)
    const cut = ['+const a = 1', ...body, j('+-----END ', 'RSA PRIVATE KEY-----'), '+done'].join('\n')
    expect(blankText(cut).text).toBe('+const a = 1\n[redacted: private key]\n+done')
  })

  it('blanks a value found once everywhere it recurs, in any of the texts', () => {
    const value = token('{A12}{d6}{A12}')
    const [first, second] = blankTexts([`API_SECRET=${value}`, `Now rotated: ${value} (was in .env)`])
    expect(first.text).toBe('API_SECRET=[redacted: secret value]')
    expect(second.text).toBe('Now rotated: [redacted: secret value] (was in .env)')
  })

  it('writes a text dense with credentials whole, each one a marker, the rest as it was', () => {
    const values = Array.from({ length: 2000 }, () => j('gh', 'p_') + token('{A36}'))
    const text = values.map((v, i) => `line ${i}: ${v}`).join('\n')
    const out = blankText(text)
    expect(out.kinds).toHaveLength(2000)
    expect(out.text.split('\n')[1999]).toBe('line 1999: [redacted: GitHub token]')
  })
})

describe('secret files', () => {
  it.each([
    '.envrc',
    'infra/terraform.tfstate',
    'infra/terraform.tfstate.backup',
    'infra/prod.auto.tfvars',
    '.vault-token',
    '.s3cfg',
    'home/.ssh/id_ed25519',
    'k8s/app-secrets.yml',
    'certs/client.p12',
    '.env.production'
  ])('names %s as a secret file', (path) => {
    expect(isSecretChange({ path })).toBe(true)
  })

  it('counts a renamed file by its old name as well as its new one', () => {
    expect(isSecretChange({ path: 'config/app.ini', previousPath: '.env' })).toBe(true)
    expect(isSecretChange({ path: 'deploy-key.txt', previousPath: '.ssh/id_rsa' })).toBe(true)
    expect(isSecretChange({ path: 'config/app.ini', previousPath: 'config/app.example.ini' })).toBe(false)
  })
})
