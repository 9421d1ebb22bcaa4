// What leaves the repository, end to end through the bundle: no credential planted in a commit
// message or a diff reaches the stand-in service, secret files are named without their diff,
// `[skip docs]` keeps commits (or the whole run) out, dryRun sends nothing, promptFile gives the
// prompt from the checkout. What matters is the prompt the service received, and the log.
import { rmSync } from 'node:fs'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { inputsFor, runAction, withoutMaskCommands } from '../support/run-action.js'
import {
  changedFile,
  pushEvent,
  removeEventFiles,
  runnerEnvironment,
  standInCommit,
  startStandInGitHub,
  type StandInGitHub
} from '../support/stand-in-github.js'
import { startStandInService, type StandInService } from '../support/stand-in-service.js'

const TOKEN = 'ghs_whatleaves0action0token0123456789AB'
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

// Planted credentials, each put together here so that no scanner of this repository takes the
// test's source for a leak. None is real.
const join2 = (...parts: string[]): string => parts.join('')
const PLANTED = {
  'AWS access key': join2('AKIA', 'Q3T7HZKXW2RMPLNV'),
  'AWS secret key': join2('wJalrXUtnFEMI/K7MDENG', '/bPxRfiCYz8Qw3kLm9N'),
  'GitHub token': join2('ghp_', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx'),
  'GitHub fine-grained token': join2('github_pat_', '11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEF'),
  'Slack token': join2('xoxb-', '123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx'),
  'Stripe key': join2('sk_live_', '4eC39HqLyjWDarjtT1zdp7dc'),
  'JSON web token': join2(
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9',
    '.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'
  ),
  'URL password': join2('hunter2', 'Pass'),
  'database password': join2('S3cret', 'Passw0rd'),
  'private key body': join2('MIIEpAIBAAKCAQEA', '7Yd3K9q1Y2f0mP3oGx8kF3cQe9xHvN6bq0VZ4PqX')
}
const ENV_PASSWORD = join2('p4ssw0rd', '-in-dot-env')

function plantedCommits(apiKey: string) {
  const patch = [
    '@@ -1,2 +1,14 @@',
    " const region = 'eu-west-1'",
    `+const accessKeyId = '${PLANTED['AWS access key']}'`,
    `+const aws_secret_access_key = '${PLANTED['AWS secret key']}'`,
    `+const slack = '${PLANTED['Slack token']}'`,
    `+const stripe = '${PLANTED['Stripe key']}'`,
    `+const session = '${PLANTED['JSON web token']}'`,
    `+const mirror = 'https://deploy:${PLANTED['URL password']}@mirror.example.com/repo'`,
    `+const db = 'postgres://admin:${PLANTED['database password']}@db.example.com:5432/app'`,
    `+const pat = '${PLANTED['GitHub fine-grained token']}'`,
    '+const key = `-----BEGIN RSA PRIVATE KEY-----',
    `+${PLANTED['private key body']}`,
    '+-----END RSA PRIVATE KEY-----`',
    `+const docsKey = '${apiKey}'`,
    '+export const retries = 3'
  ].join('\n')
  return [
    standInCommit('Start', [changedFile('src/start.ts')]),
    standInCommit(`Add the client (token ${PLANTED['GitHub token']} and ${apiKey} for now)`, [
      changedFile('src/client.ts', { additions: 13, deletions: 0, patch }),
      changedFile('.env.production', {
        additions: 1,
        deletions: 0,
        patch: `@@ -0,0 +1 @@\n+DATABASE_PASSWORD=${ENV_PASSWORD}`
      })
    ])
  ]
}

function promptsSent(): string[] {
  return service.requestsOf('POST').map((r) => JSON.parse(r.body).prompt)
}

function pushRun(
  history: ReturnType<typeof standInCommit>[],
  inputs: Record<string, string> = {},
  env: Record<string, string> = {}
) {
  return runAction({
    inputs: inputsFor(service, { prompt: PROMPT, githubToken: TOKEN, context: 'diff', ...inputs }),
    env: runnerEnvironment(github, 'push', pushEvent({ before: history[0].sha, commits: history.slice(1) }), {
      GITHUB_SHA: history.at(-1)?.sha ?? '',
      ...env
    })
  })
}

describe('credentials in commit messages and diffs', () => {
  it('never reach the service: each becomes a marker naming its kind, the lines around it still go', async () => {
    service = await startStandInService({ plan: { activeMs: 100 } })
    const history = plantedCommits(service.apiKey)
    github = await startStandInGitHub({ repository: { history, workflowRuns: [] } })
    const result = await pushRun(history)

    expect(result.code).toBe(0)
    const [prompt] = promptsSent()
    for (const [what, value] of Object.entries({ ...PLANTED, 'API key': service.apiKey, '.env': ENV_PASSWORD })) {
      expect(prompt, what).not.toContain(value)
    }
    expect(prompt).toContain("const region = 'eu-west-1'")
    expect(prompt).toContain('+export const retries = 3')
    expect(prompt).toContain('[redacted: AWS access key]')
    expect(prompt).toContain('[redacted: GitHub token]')
    expect(prompt).toContain('[redacted: private key]')
    expect(prompt).toContain("[redacted: this run's API key or GitHub token]")
    expect(prompt).toContain('postgres://admin:')
    // The log says how many and where, never a value.
    const warning = result.stdout.split('\n').find((line) => line.includes('blanked before sending'))
    expect(warning).toMatch(/^::warning::The context held \d+ credentials, blanked before sending: /)
    expect(warning).toContain(`commit ${history[1].sha.slice(0, 7)}`)
    expect(warning).toContain('file src/client.ts')
    const printed = withoutMaskCommands(result.all)
    for (const value of Object.values(PLANTED)) expect(printed).not.toContain(value)
    expect(printed).not.toContain(ENV_PASSWORD)
  })
})

describe('secret files', () => {
  it('are named with their line counts, their diff never sent, and the section says why', async () => {
    service = await startStandInService({ plan: { activeMs: 100 } })
    const history = plantedCommits(service.apiKey)
    github = await startStandInGitHub({ repository: { history, workflowRuns: [] } })
    const result = await pushRun(history)

    expect(result.code).toBe(0)
    const [prompt] = promptsSent()
    expect(prompt).toContain('- `.env.production` modified, +1 -0 (may hold credentials: its diff is never sent)')
    expect(prompt).not.toContain('DATABASE_PASSWORD')
    expect(result.stdout).toContain('1 changed file holds credentials by convention')
  })
})
