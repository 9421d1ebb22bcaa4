// Credentials blanked from the context's outside text: each shape the action must never send, the
// run's own secrets, what is left alone, and secret files. (test/action/what-leaves.test.ts checks
// the same end to end, through the bundle.)
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { blankCredentials, describeBlanked } from '../../../src/safety/credentials.js'
import type { ChangeFacts } from '../../../src/context/facts.js'
import { fileKind } from '../../../src/context/file-kinds.js'
import { registerSecret } from '../../../src/safety/run-secrets.js'

// Put together here so that no scanner of this repository takes the test's source for a leak.
const j = (...parts: string[]): string => parts.join('')
const OWN_KEY = j('svc_', 'OwnKeyOfThisRun_0123456789')

beforeAll(() => {
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
  registerSecret(OWN_KEY)
  write.mockRestore()
})

/** Facts whose one diff holds `text`. */
function diffFacts(text: string, path = 'src/a.ts'): ChangeFacts {
  return { summary: ['Event: push.'], files: { list: [{ path, status: 'modified', patch: text }], total: 1 } }
}

async function blank(text: string): Promise<{ text: string; kinds: string[] }> {
  const scan = await blankCredentials(diffFacts(text))
  return { text: scan.facts.files?.list[0].patch ?? '', kinds: scan.blanked.map((b) => b.kind) }
}

describe('blankCredentials', () => {
  it.each([
    [
      'private key',
      j('-----BEGIN OPENSSH PRIVATE KEY-----\n+b3BlbnNzaC1rZXktdjEAAAA\n+', '-----END OPENSSH PRIVATE KEY-----')
    ],
    ['AWS access key', j('AKIA', 'Q3T7HZKXW2RMPLNV')],
    ['AWS access key', j('ASIA', 'Q3T7HZKXW2RMPLNV')],
    ['GitHub token', j('ghp_', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx')],
    ['GitHub token', j('ghs_', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx')],
    [
      'GitHub token',
      j('github_pat_', '11ABCDEFG0AAAAAAAAAAAA_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb')
    ],
    ['Slack token', j('xoxb-', '123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx')],
    ['Slack webhook', j('https://hooks.slack.com/services/', 'T04Q7ZK2L/B05H8N3MP/Qm7vR2xKp9WcT4yLd8NfB1sZ')],
    ['Stripe key', j('sk_live_', '4eC39HqLyjWDarjtT1zdp7dc')],
    ['Stripe key', j('rk_test_', '4eC39HqLyjWDarjtT1zdp7dc')],
    ['docs agent API key', j('svc_', 'AnotherProjectsKey_987654')],
    ['docs agent API key', j('svc_', 'Zq9+/x=y&z%w_0123456789')],
    ['JSON web token', j('eyJhbGciOiJIUzI1NiJ9', '.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9P')]
  ])('blanks a %s, naming its kind', async (kind, value) => {
    const { text, kinds } = await blank(`+const value = '${value}'\n+const next = 1`)
    expect(text).toBe(`+const value = '[redacted: ${kind}]'\n+const next = 1`)
    expect(kinds).toEqual([kind])
  })

  it('blanks a private key block cut short (a diff GitHub truncated) to the end of the text', async () => {
    const { text } = await blank(j('+ok\n+-----BEGIN RSA PRIVATE KEY-----\n+MIIEpAIBAAKCAQEA7Yd3K9q1Y2f0\n+', 'Zm9v'))
    expect(text).toBe('+ok\n+[redacted: private key]')
  })

  it.each([
    ['postgres://admin:PASSWORD@db.example.com:5432/app'],
    ['mongodb+srv://admin:PASSWORD@cluster0.example.net/app'],
    ['https://deploy:PASSWORD@mirror.example.com/repo.git']
  ])('blanks the password of %s and keeps the rest', async (url) => {
    const { text } = await blank(`+url = "${url.replace('PASSWORD', j('S3cret', 'Passw0rd'))}"`)
    expect(text).toBe(`+url = "${url.replace('PASSWORD', '[redacted: password in a URL]')}"`)
  })

  it('blanks the value of an AWS secret key, not its name', async () => {
    const { text } = await blank(`+aws_secret_access_key = '${j('wJalrXUtnFEMI/K7MDENG', '/bPxRfiCYz8Qw3kLm9N')}'`)
    expect(text).toBe("+aws_secret_access_key = '[redacted: AWS secret key]'")
  })

  it("blanks the run's own key, even base64-encoded", async () => {
    const { text, kinds } = await blank(`+key: ${OWN_KEY}\n+auth: ${Buffer.from(OWN_KEY).toString('base64')}`)
    expect(text).not.toContain(OWN_KEY)
    expect(text).not.toContain(Buffer.from(OWN_KEY).toString('base64').slice(0, 20))
    expect(kinds).toEqual(["this run's API key or GitHub token", "this run's API key or GitHub token"])
  })

  it("leaves a vendor's documented placeholder alone (Slack's T00000000/B00000000/XXXX… example)", async () => {
    const example = j('https://hooks.slack.com/services/', 'T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX')
    expect((await blank(`+url = '${example}'`)).text).toBe(`+url = '${example}'`)
  })

  it('leaves commit ids, UUIDs, hashes, base64 and ordinary URLs alone', async () => {
    const ordinary = [
      '+sha: 691cfbc2e1d0a8f3b4c5d6e7f8091a2b3c4d5e6f',
      '+id: 123e4567-e89b-12d3-a456-426614174000',
      '+integrity: sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUR',
      '+see https://github.com/octo-org/docs-site/compare/abc...def and http://localhost:8080/x',
      '+const task_test_results = await ask_live_question()'
    ].join('\n')
    const { text, kinds } = await blank(ordinary)
    expect(text).toBe(ordinary)
    expect(kinds).toEqual([])
  })

  it('blanks in commit messages, titles, bodies and paths, and says where', async () => {
    const token = j('ghp_', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx')
    const facts: ChangeFacts = {
      summary: [`Event: pull request #7 "Use ${token}"`],
      writing: { label: "The pull request's description", text: `token: ${token}` },
      commits: { list: [{ sha: 'a'.repeat(40), message: `Add ${token}`, author: '@mona' }], total: 1 },
      files: { list: [{ path: `keys/${token}.txt`, status: 'added' }], total: 1 }
    }
    const scan = await blankCredentials(facts)
    expect(JSON.stringify(scan.facts)).not.toContain(token)
    expect(scan.blanked.map((b) => b.where)).toEqual([
      'the event',
      "the pull request's description",
      'commit aaaaaaa',
      'file keys/[redacted: GitHub token].txt'
    ])
    expect(describeBlanked(scan.blanked)).toBe(
      "4 × GitHub token (the event, the pull request's description, commit aaaaaaa, file keys/[redacted: GitHub token].txt)"
    )
  })

  it("drops a secret file's diff and names the file", async () => {
    const scan = await blankCredentials(diffFacts('+DATABASE_PASSWORD=hunter2', 'deploy/.env.production'))
    expect(scan.facts.files?.list[0].patch).toBeUndefined()
    expect(scan.secretFiles).toEqual(['deploy/.env.production'])
  })

  it('drops the diff of a file renamed from a secret file, and names it by its new name', async () => {
    const facts: ChangeFacts = {
      summary: ['Event: push.'],
      files: {
        list: [
          { path: 'config/app.ini', previousPath: '.env', status: 'renamed', patch: '+DB_HOST=db\n+DB_PORT=5432' }
        ],
        total: 1
      }
    }
    const scan = await blankCredentials(facts)
    expect(scan.facts.files?.list[0].patch).toBeUndefined()
    expect(scan.secretFiles).toEqual(['config/app.ini'])
  })
})

describe('fileKind: files that hold credentials by convention', () => {
  it.each([
    '.env',
    'app/.env.production',
    'config/production.env',
    'certs/server.pem',
    'tls/server.key',
    '.ssh/id_rsa',
    'keys/id_ed25519.pub',
    'signing/release.p12',
    'signing/release.pfx',
    '.npmrc',
    '.pypirc',
    'gcp/credentials.json',
    'home/.aws/credentials',
    'android/release.keystore'
  ])('%s', (path) => {
    expect(fileKind(path)).toBe('secret')
  })

  it.each(['src/env.ts', 'docs/keys.md', 'src/environment.ts', 'src/credentials.ts'])('not %s', (path) => {
    expect(fileKind(path)).not.toBe('secret')
  })
})
