// `npm run local-action` runs src/main.ts with the inputs of a .env file, as CONTRIBUTING says,
// when it is given one; the stand-in run without a .env is what .ci/run checks.
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { startStandInService, type StandInService } from '../../support/stand-in-service.js'

const script = fileURLToPath(new URL('../../../scripts/local-action.js', import.meta.url))
const recordConnections = fileURLToPath(new URL('../../support/record-connections.js', import.meta.url))
let service: StandInService | undefined
let folder: string | undefined
afterEach(async () => {
  await service?.close()
  if (folder) await rm(folder, { recursive: true, force: true })
})

function runScript(
  args: string[],
  env: NodeJS.ProcessEnv = process.env
): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [script, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] })
  let stdout = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, stdout }))
  })
}

describe('npm run local-action', () => {
  it('runs with the inputs of the .env file it is given, as given, against the service that file names', async () => {
    service = await startStandInService()
    folder = await mkdtemp(join(tmpdir(), 'local-action-test-'))
    const envFile = join(folder, '.env')
    await writeFile(
      envFile,
      [
        'INPUT_PROJECTID=from-dotenv',
        "INPUT_PROMPT='Document what .env asks'",
        `INPUT_BASEURL=${service.url}`,
        `INPUT_APIKEY=${service.apiKey}`,
        'INPUT_WAIT=false',
        ''
      ].join('\n')
    )
    const run = await runScript(['--env-file', envFile])

    expect(run.code).toBe(0)
    expect(run.stdout).toContain('Running src/main.ts with the inputs in ')
    expect(run.stdout).not.toContain('against the stand-in service on 127.0.0.1, with inputs of its own')
    const posts = service.requestsOf('POST')
    expect(posts.map((post) => [post.path, JSON.parse(post.body)])).toEqual([
      ['/v2/agent/from-dotenv/job', { prompt: 'Document what .env asks' }]
    ])
    expect(run.stdout).toMatch(/local-action ran src\/main\.ts with the inputs in .*\.env: job \S+, status active\./)
    // local-action starts through npm exec and compiles src/ as it starts, seconds of CPU: on a 2-core
    // machine shared with other suites it took over a minute, so two.
  }, 120_000)

  it('against the stand-ins, opens no connection beyond 127.0.0.1: GitHub calls go to the stand-in for its API', async () => {
    folder = await mkdtemp(join(tmpdir(), 'local-action-test-'))
    const connections = join(folder, 'connections')
    await writeFile(connections, '')
    const run = await runScript(['--stand-in'], {
      ...process.env,
      // A workflow's GitHub variables where the suite runs (CI) must not reach the run, nor be needed by it.
      GITHUB_API_URL: 'https://api.github.com',
      CONNECTIONS_LOG: connections,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${recordConnections}`.trim()
    })

    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/local-action ran src\/main\.ts against the stand-in: job \S+ completed\./)
    const hosts = (await readFile(connections, 'utf8')).split('\n').filter(Boolean)
    // The service's create and reads, and the note on the job's pull request (github.com) through the stand-in.
    expect(hosts.length).toBeGreaterThanOrEqual(2)
    expect([...new Set(hosts)]).toEqual(['127.0.0.1'])
    expect(run.stdout).toMatch(/The stand-in for GitHub's API received [1-9]\d* request\(s\)\./)
    expect(run.stdout).not.toContain('${{ github.token }}')
    expect(run.stdout).not.toContain('::notice::Could not leave a note')
  }, 120_000)
})
