// Credentials never leave, end to end through the bundle: real-shape samples of every format in the
// scan's corpus (scripts/credential-samples.js: gitleaks' rule list, generated from each format's
// shape with a seeded generator) planted in a push's diffs and commit messages with `context: diff`,
// and in a comment's instruction; four ways a credential got past the scan before (invisible
// characters inside a token, a review hunk cut past a key's BEGIN line, secret files renamed,
// SendGrid keys of other lengths); promptFile's text. What matters is the prompt the stand-in
// service received.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { HOSTILE_SHAPES } from '../../scripts/credential-hostile.js'
import { PUBLIC_VALUES } from '../../scripts/credential-public-values.js'
import { credentialSamples, fill } from '../../scripts/credential-samples.js'
import { mulberry32 } from '../support/soak.js'
import { inputsFor, runAction, withoutMaskCommands } from '../support/run-action.js'
import {
  changedFile,
  issueCommentEvent,
  pullRequestEvent,
  pushEvent,
  removeEventFiles,
  reviewCommentEvent,
  runnerEnvironment,
  standInCommit,
  startStandInGitHub,
  type StandInGitHub
} from '../support/stand-in-github.js'
import { startStandInService, type StandInService } from '../support/stand-in-service.js'
import { msAfter, withinTimeout } from '../support/step-time.js'

const TOKEN = 'ghs_credentials0action0token0123456789'
const PROMPT = 'Bring the docs up to date with these changes.'

let service: StandInService
let github: StandInGitHub
const workspaces: string[] = []
afterEach(async () => {
  await service?.close()
  await github?.close()
})
afterAll(() => {
  removeEventFiles()
  for (const dir of workspaces) rmSync(dir, { recursive: true, force: true })
})

const rng = mulberry32(2026)
const j = (...parts: string[]): string => parts.join('')

// Ordinary lines of code, configuration and prose: each must reach the service exactly as written.
const ORDINARY = [
  "const key = auth.startsWith('Bearer ') ? auth.slice('Bearer '.length) : ''",
  'const token = core.getInput("github-token", { required: true })',
  'primaryKey: "id",',
  'password_min_length: 12',
  'API_TOKEN=${{ secrets.API_TOKEN }}',
  'apiKey: process.env.DOCS_API_KEY,',
  'curl -u "$USER:$PASS" https://example.com/health',
  'DATABASE_URL=postgres://postgres:postgres@localhost:5432/app',
  'sha: 691cfbc2e1d0a8f3b4c5d6e7f8091a2b3c4d5e6f',
  'id: 123e4567-e89b-12d3-a456-426614174000',
  'The secret key is kept in the vault; rotate it every year.',
  '[![codecov](https://codecov.io/gh/o/r/graph/badge.svg?token=lWZ9OBQ7GM)](https://codecov.io/gh/o/r)',
  'export const retries = 3'
]

function promptsSent(): string[] {
  return service.requestsOf('POST').map((r) => JSON.parse(r.body).prompt)
}

function pushRun(history: ReturnType<typeof standInCommit>[], inputs: Record<string, string> = {}) {
  return runAction({
    inputs: inputsFor(service, {
      prompt: PROMPT,
      githubToken: TOKEN,
      context: 'diff',
      contextLimit: '1000000',
      ...inputs
    }),
    env: runnerEnvironment(github, 'push', pushEvent({ before: history[0].sha, commits: history.slice(1) }), {
      GITHUB_SHA: history.at(-1)?.sha ?? ''
    })
  })
}

describe('a push with context: diff', () => {
  it('sends no real-shape sample of any format, in a diff or a commit message, and every ordinary line as it was', async () => {
    const samples = credentialSamples(1, 20)
    // Each format's diff-line samples go to a file of their family; commit-message samples to commits.
    const byFamily = new Map<string, string[]>()
    for (const sample of samples.filter((s) => s.where === 'diff line')) {
      const lines = sample.text.split('\n').filter((line) => line.startsWith('+'))
      byFamily.set(sample.family, [...(byFamily.get(sample.family) ?? []), ...lines])
    }
    const files = [...byFamily].map(([family, lines], i) =>
      changedFile(`src/samples/${family.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase()}.ts`, {
        additions: lines.length + 1,
        deletions: 0,
        patch: [`@@ -0,0 +1,${lines.length + 1} @@`, ...lines, `+${ORDINARY[i % ORDINARY.length]}`].join('\n')
      })
    )
    files.push(
      changedFile('src/ordinary.ts', {
        additions: ORDINARY.length,
        deletions: 0,
        patch: [`@@ -0,0 +1,${ORDINARY.length} @@`, ...ORDINARY.map((line) => `+${line}`)].join('\n')
      })
    )
    // A commit's subject line is what the context quotes, and it lists the last 50 commits: 48 message
    // samples, spread over the families, each one commit's subject, on one line.
    const allMessages = samples.filter((s) => s.where === 'commit message')
    const messages = allMessages.filter((_, i) => i % Math.ceil(allMessages.length / 48) === 0).slice(0, 48)
    const history = [
      standInCommit('Start', [changedFile('src/start.ts')]),
      standInCommit('Add the samples', files),
      ...messages.map((s, i) => standInCommit(s.text.trim().replace(/\s*\n\s*/g, ' '), [changedFile(`src/m${i}.ts`)]))
    ]
    service = await startStandInService({ plan: { activeMs: 100 } })
    github = await startStandInGitHub({ repository: { history, workflowRuns: [] } })
    const result = await pushRun(history)

    expect(result.code).toBe(0)
    const [prompt] = promptsSent()
    const planted = [...samples.filter((s) => s.where === 'diff line'), ...messages]
    const leaked = planted.filter((s) => s.secrets.some((secret) => prompt.includes(secret)))
    expect(leaked.map((s) => `${s.rule} (${s.where})`)).toEqual([])
    // Each planted sample became a marker: the diffs and messages were all in the prompt to be scanned.
    expect(prompt.split('[redacted: ').length - 1).toBeGreaterThanOrEqual(planted.length)
    // Every family of the corpus was there to be found, in a diff and in a commit message.
    expect(new Set(planted.map((s) => s.family)).size).toBeGreaterThan(100)
    for (const line of ORDINARY) expect(prompt).toContain(`+${line}`)
    const printed = withoutMaskCommands(result.all)
    for (const sample of planted) for (const secret of sample.secrets) expect(printed).not.toContain(secret)
  })

  it('blanks a token split by an invisible character (zero-width space, BOM, DEL, soft hyphen), which the renderer would have joined', async () => {
    const tokens = ['\u200b', '\ufeff', '\u007f', '\u00ad'].map((invisible) => {
      const value = j('gh', 'p_') + fill('{A36}', rng)
      return { value, split: `${value.slice(0, 12)}${invisible}${value.slice(12)}` }
    })
    const patch = ['@@ -0,0 +1,4 @@', ...tokens.map((t, i) => `+const t${i} = '${t.split}'`)].join('\n')
    const history = [
      standInCommit('Start', [changedFile('src/start.ts')]),
      standInCommit(`Use ${tokens[0].split} for now`, [
        changedFile('src/client.ts', { additions: 4, deletions: 0, patch })
      ])
    ]
    service = await startStandInService({ plan: { activeMs: 100 } })
    github = await startStandInGitHub({ repository: { history, workflowRuns: [] } })
    const result = await pushRun(history)

    expect(result.code).toBe(0)
    const [prompt] = promptsSent()
    for (const { value, split } of tokens) {
      expect(prompt).not.toContain(value)
      expect(prompt).not.toContain(split)
      expect(prompt).not.toContain(value.slice(12))
    }
    expect(prompt).toContain("+const t3 = '[redacted: GitHub token]'")
  })

  it('sends no diff of a file renamed from a secret file, by either name, and names it', async () => {
    const password = fill('{A20}', rng)
    const key = Array.from({ length: 4 }, () => fill('{b64}', rng))
    const history = [
      standInCommit('Start', [changedFile('src/start.ts')]),
      standInCommit('Move the settings', [
        changedFile('config/app.ini', {
          status: 'renamed',
          previous_filename: '.env',
          additions: 1,
          deletions: 0,
          patch: `@@ -1,1 +1,2 @@\n DB_HOST=db.internal\n+DB_PASS=${password}`
        }),
        changedFile('deploy-key.txt', {
          status: 'renamed',
          previous_filename: '.ssh/id_rsa',
          additions: 4,
          deletions: 0,
          patch: ['@@ -2,0 +2,4 @@', ...key.map((line) => `+${line}`)].join('\n')
        })
      ])
    ]
    service = await startStandInService({ plan: { activeMs: 100 } })
    github = await startStandInGitHub({ repository: { history, workflowRuns: [] } })
    const result = await pushRun(history)

    expect(result.code).toBe(0)
    const [prompt] = promptsSent()
    expect(prompt).not.toContain(password)
    expect(prompt).not.toContain('DB_HOST=db.internal')
    for (const line of key) expect(prompt).not.toContain(line)
    expect(prompt).toMatch(
      /- `config\/app\.ini` renamed from `\.env`.*\(may hold credentials: its diff is never sent\)/
    )
    expect(prompt).toMatch(
      /- `deploy-key\.txt` renamed from `\.ssh\/id_rsa`.*\(may hold credentials: its diff is never sent\)/
    )
    expect(result.stdout).toContain('2 changed files hold credentials by convention')
  })

  it('blanks a value found once wherever it recurs in what is sent: named in a diff, unnamed in the prompt', async () => {
    const value = fill('{A14}{d4}{A14}', rng)
    const history = [
      standInCommit('Start', [changedFile('src/start.ts')]),
      standInCommit('Settings', [
        changedFile('deploy/settings.sh', { additions: 1, deletions: 0, patch: `@@ -0,0 +1 @@\n+API_SECRET=${value}` })
      ])
    ]
    service = await startStandInService({ plan: { activeMs: 100 } })
    github = await startStandInGitHub({ repository: { history, workflowRuns: [] } })
    const result = await pushRun(history, { prompt: `Say where ${value} is used.` })

    expect(result.code).toBe(0)
    const [prompt] = promptsSent()
    expect(prompt).not.toContain(value)
    expect(prompt.startsWith('Say where [redacted: secret value] is used.')).toBe(true)
    expect(prompt).toContain('+API_SECRET=[redacted: secret value]')
  })

  it('blanks SendGrid keys of every length, its documented shape among them', async () => {
    const keys = ['{w22}.{w43}', '{w16}.{w32}', '{w22}.{w50}', '{w66}'].map((shape) => j('S', 'G.') + fill(shape, rng))
    const patch = ['@@ -0,0 +1,4 @@', ...keys.map((k, i) => `+SENDGRID_${i}=${k}`)].join('\n')
    const history = [
      standInCommit('Start', [changedFile('src/start.ts')]),
      standInCommit('Mail', [changedFile('deploy/mail.sh', { additions: 4, deletions: 0, patch })])
    ]
    service = await startStandInService({ plan: { activeMs: 100 } })
    github = await startStandInGitHub({ repository: { history, workflowRuns: [] } })
    const result = await pushRun(history)

    expect(result.code).toBe(0)
    const [prompt] = promptsSent()
    for (const k of keys) expect(prompt).not.toContain(k)
    expect(prompt).toContain('+SENDGRID_3=[redacted: SendGrid API key]')
  })
})

describe("a comment's instruction", () => {
  it('sends no credential of a review hunk cut to its last lines, though the key began above the cut', async () => {
    const body = Array.from({ length: 30 }, () => fill('{b64}', rng))
    const hunk = [
      '@@ -0,0 +1,100 @@',
      ...Array.from({ length: 40 }, (_, i) => `+const line${i} = ${i}`),
      j('+-----BEGIN ', 'RSA PRIVATE KEY-----'),
      ...body.map((line) => `+${line}`),
      j('+-----END ', 'RSA PRIVATE KEY-----'),
      ...Array.from({ length: 20 }, (_, i) => `+const after${i} = ${i}`)
    ].join('\n')
    service = await startStandInService({ plan: { activeMs: 100 } })
    github = await startStandInGitHub()
    const result = await runAction({
      inputs: inputsFor(service, { prompt: '', githubToken: TOKEN, context: 'none' }),
      env: runnerEnvironment(
        github,
        'pull_request_review_comment',
        reviewCommentEvent({ body: '/docs explain this setup', path: 'src/setup.ts', diffHunk: hunk, line: 92 })
      )
    })

    expect(result.code).toBe(0)
    const [prompt] = promptsSent()
    for (const line of body) expect(prompt).not.toContain(line)
    expect(prompt).toContain('+const after19 = 19')
    expect(prompt).toContain('[redacted: private key]')
    expect(result.summary).toMatch(
      /Credentials blanked before sending: 1: 1 × private key \(the comment&#39;s diff hunk\)/
    )
  })

  it('sends no real-shape sample in an instruction, and the reply on the thread holds none', async () => {
    const samples = credentialSamples(1, 21).filter(
      (s) => s.where === 'commit message' && !s.text.includes('-----BEGIN')
    )
    const some = samples.filter((_, i) => i % 12 === 0)
    const instruction = some.map((s) => s.text.trim()).join('\n')
    service = await startStandInService({ plan: { activeMs: 100 } })
    github = await startStandInGitHub()
    const result = await runAction({
      inputs: inputsFor(service, { prompt: '', githubToken: TOKEN, context: 'none' }),
      env: runnerEnvironment(github, 'issue_comment', issueCommentEvent({ body: `/docs note these:\n${instruction}` }))
    })

    expect(result.code).toBe(0)
    const [prompt] = promptsSent()
    for (const sample of some) for (const secret of sample.secrets) expect(prompt).not.toContain(secret)
    for (const sample of some)
      for (const secret of sample.secrets) expect(JSON.stringify(github.comments)).not.toContain(secret)
  })
})

describe("promptFile's text", () => {
  it('goes through the final pass: a credential in it is blanked, counted and logged', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-agent-workspace-'))
    workspaces.push(dir)
    const value = j('xox', 'b-') + fill('{d12}-{d13}-{A24}', rng)
    mkdirSync(join(dir, '.github'), { recursive: true })
    writeFileSync(join(dir, '.github/docs-prompt.md'), `Post to Slack with ${value} when done.\n`)
    service = await startStandInService({ plan: { activeMs: 100 } })
    const result = await runAction({
      inputs: inputsFor(service, { prompt: 'Also document --since.', promptFile: '.github/docs-prompt.md' }),
      env: { GITHUB_WORKSPACE: dir }
    })

    expect(result.code).toBe(0)
    expect(promptsSent()).toEqual(['Post to Slack with [redacted: Slack token] when done.\n\nAlso document --since.'])
    expect(result.stdout).toMatch(
      /::warning::The prompt held 1 credential, blanked before sending: 1 × Slack token \(the prompt\)/
    )
    expect(result.summary).toContain('Credentials blanked before sending: 1: 1 × Slack token (the prompt).')
  })
})

function pullRequestRun(body: string, changedFiles: number, inputs: Record<string, string> = {}) {
  return runAction({
    inputs: inputsFor(service, {
      prompt: PROMPT,
      githubToken: TOKEN,
      context: 'diff',
      contextLimit: '1000000',
      ...inputs
    }),
    env: runnerEnvironment(
      github,
      'pull_request_target',
      pullRequestEvent({ number: 7, body, changedFiles, fork: 'stranger/docs-site' })
    )
  })
}

describe('encoded text', () => {
  it('blanks real-shape tokens right after `\\n` in a JSON string of a diff, and URL-encoded in a pull request body', async () => {
    const tokens = {
      github: j('gh', 'p_') + fill('{A36}', rng),
      aws: j('AK', 'IA') + fill('{U16}', rng),
      slack: j('xox', 'b-') + fill('{d12}-{d13}-{A24}', rng),
      openai: j('sk-', 'proj-') + fill('{w40}', rng) + j('T3Blbk', 'FJ') + fill('{w40}', rng),
      stripe: j('sk_', 'live_') + fill('{A24}', rng)
    }
    const values = Object.values(tokens)
    const patch = [
      `@@ -0,0 +1,${values.length} @@`,
      ...values.map((value, i) => `+  "step${i}": "echo ready\\n${value}",`)
    ].join('\n')
    // A pull request's body with each token in a URL's query, after an encoded `=` or space, or encoded whole.
    const body = [
      'The callback failed with these links:',
      ...values.map((value, i) =>
        i % 2 === 0
          ? `https://example.com/cb?state%3D${value}&page=2`
          : `https://example.com/cb?q=run%20${encodeURIComponent(value)}`
      )
    ].join('\n')
    service = await startStandInService({ plan: { activeMs: 100 } })
    github = await startStandInGitHub({
      repository: {
        pullFiles: { 7: [changedFile('config/steps.json', { additions: values.length, deletions: 0, patch })] }
      }
    })
    const result = await pullRequestRun(body, 1)

    expect(result.code).toBe(0)
    const [prompt] = promptsSent()
    for (const value of values) {
      expect(prompt).not.toContain(value)
      expect(prompt).not.toContain(encodeURIComponent(value))
    }
    // The escape before each stays; the token after it is a marker.
    expect(prompt).toContain('+  "step0": "echo ready\\n[redacted: GitHub token]",')
    expect(prompt).toContain('+  "step1": "echo ready\\n[redacted: AWS access key]",')
    expect(prompt).toContain('https://example.com/cb?state%3D[redacted: GitHub token]&page=2')
    expect(prompt.split('[redacted: ').length - 1).toBe(2 * values.length)
  })
})

describe('hostile text', () => {
  it('a few hundred KiB of text made to stall the scan does not hold the step past its timeout', async () => {
    const KiB = 1024
    const shapes = Object.values(HOSTILE_SHAPES).slice(0, 3)
    const files = shapes.map((make, i) => {
      const lines = make(128 * KiB).split('\n')
      return changedFile(`docs/hostile-${i}.md`, {
        additions: lines.length,
        deletions: 0,
        patch: [`@@ -0,0 +1,${lines.length} @@`, ...lines.map((line) => `+${line}`)].join('\n')
      })
    })
    const timeoutMs = 4000
    service = await startStandInService({ plan: { activeMs: 60_000 } })
    github = await startStandInGitHub({ repository: { pullFiles: { 7: files } } })
    const result = await pullRequestRun('Adds the hostile pages.', files.length, { timeout: `${timeoutMs / 1000}s` })

    // The scan ended in time for the create; the job then outlived the step's timeout, which ended it.
    expect(service.requestsOf('POST')).toHaveLength(1)
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('did not reach a final status within the timeout of 4.0s')
    expect(msAfter(github.requests[0], result)).toBeLessThan(withinTimeout(timeoutMs))
  }, 60_000)
})

describe('public values', () => {
  it("a docs diff of vendors' published examples, fingerprints, cache and idempotency keys and page tokens reaches the service as written, with no word of rotating", async () => {
    const lines = PUBLIC_VALUES.flatMap(({ text }) => text.split('\n'))
    const patch = [`@@ -0,0 +1,${lines.length} @@`, ...lines.map((line) => `+${line}`)].join('\n')
    service = await startStandInService({ plan: { activeMs: 100 } })
    github = await startStandInGitHub({
      repository: {
        pullFiles: { 7: [changedFile('docs/examples.md', { additions: lines.length, deletions: 0, patch })] }
      }
    })
    const result = await pullRequestRun('Documents the setup.', 1)

    expect(result.code).toBe(0)
    const [prompt] = promptsSent()
    expect(prompt).not.toContain('[redacted: ')
    for (const line of lines) expect(prompt).toContain(`+${line}`)
    expect(result.stdout).not.toMatch(/rotate/i)
    expect(result.summary).not.toContain('Credentials blanked')
  })

  it("the prompt's AWS example keys go as written, with no word of rotating", async () => {
    const prompt =
      'Document the setup: `aws configure` asks for AKIAIOSFODNN7EXAMPLE and wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY.'
    service = await startStandInService({ plan: { activeMs: 100 } })
    const result = await runAction({ inputs: inputsFor(service, { prompt }) })

    expect(result.code).toBe(0)
    expect(promptsSent()).toEqual([prompt])
    expect(result.stdout).not.toMatch(/rotate|credential/i)
  })
})
