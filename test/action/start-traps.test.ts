// Traps a first workflow falls into, caught in the first lines of the log rather than when the time
// runs out: the timeout and poll interval in force, a timeout meant as minutes and written as a bare
// number, a refusal whose cause is a misspelt input name or a near-miss value (the summary carries
// the hint too), and a host name that does not resolve (said once, the placeholder named as one).
// Through the bundle, against the stand-in service.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { expectCleanOutput } from '../support/expect-clean-output.js'
import { inputsFor, runAction } from '../support/run-action.js'
import { startStandInService, type StandInService } from '../support/stand-in-service.js'

let service: StandInService
let folder: string | undefined
afterEach(async () => {
  await service?.close()
  if (folder) rmSync(folder, { recursive: true, force: true })
  folder = undefined
})

const lines = (text: string, prefix: string): string[] => text.split('\n').filter((line) => line.startsWith(prefix))

describe('the timing in force', () => {
  it('is logged at the start: the timeout, and how often the job is read', async () => {
    service = await startStandInService({ plan: { activeMs: 200 } })
    const run = await runAction({ inputs: inputsFor(service, { timeout: '10s', pollInterval: '2s' }) })

    expect(run.code).toBe(0)
    const line = "Timeout: 10s from the step's start (timeout); the job is read every 2.0s (pollInterval)."
    expect(run.stdout.split('\n')).toContain(line)
    // Said before the create, so it is in the log even when the create hangs.
    expect(run.stdout.indexOf(line)).toBeLessThan(run.stdout.indexOf('Created job'))
  })

  it('says that the job is not followed when wait is false', async () => {
    service = await startStandInService()
    const run = await runAction({ inputs: inputsFor(service, { wait: 'false', timeout: '2m' }) })

    expect(run.code).toBe(0)
    expect(run.stdout.split('\n')).toContain(
      "Timeout: 2m from the step's start (timeout); the job is not followed (wait is false)."
    )
  })
})

describe('a timeout written as a bare number', () => {
  it('under a minute: warned that it is seconds, with the way to write minutes, and the run goes on', async () => {
    service = await startStandInService({ plan: { activeMs: 200 } })
    const run = await runAction({ inputs: inputsFor(service, { timeout: '30' }) })

    expect(run.code).toBe(0)
    expect(lines(run.stdout, '::warning::')).toEqual([
      "::warning::Input timeout is '30', a bare number, which is read as seconds: the step gives up after 30 " +
        'seconds. For minutes write 30m (or 30s to keep seconds and silence this warning).'
    ])
    expect(run.stdout).toContain("Timeout: 30s from the step's start (timeout)")
    expect(run.outputs.status).toBe('completed')
  })

  it.each(['90', '30s', '1m'])('%s: no warning', async (timeout) => {
    service = await startStandInService({ plan: { activeMs: 200 } })
    const run = await runAction({ inputs: inputsFor(service, { timeout }) })

    expect(run.code).toBe(0)
    expect(run.stdout).not.toContain('::warning::')
  })
})

describe('a run refused for its inputs', () => {
  it("a misspelt prompt: the summary carries the log's hint, not only that the prompt is empty", async () => {
    service = await startStandInService()
    const inputs = inputsFor(service, { promt: 'Document the flag' })
    delete inputs.prompt
    const run = await runAction({ inputs })

    expect(run.code).toBe(1)
    const hint =
      'The step gives an input named promt (INPUT_PROMT), which this action does not have: did you mean prompt?'
    expect(lines(run.stdout, '::error::')).toEqual([expect.stringMatching(/^::error::Input prompt is empty/)])
    expect(lines(run.stdout, '::error::')[0]).toContain(hint)
    expect(run.summary).toContain('Input prompt is empty')
    expect(run.summary).toContain(hint)
    expect(service.requests).toHaveLength(0)
  })

  it('a required input misspelt: its hint is said once in the refusal, not twice', async () => {
    service = await startStandInService()
    const inputs = inputsFor(service, { project_id: 'docs' })
    delete inputs.projectId
    const run = await runAction({ inputs })

    expect(run.code).toBe(1)
    const [error] = lines(run.stdout, '::error::')
    expect(error.split('INPUT_PROJECT_ID')).toHaveLength(2)
    expect(run.summary.split('INPUT_PROJECT_ID')).toHaveLength(2)
  })

  it.each([
    ['30 minutes', '30m'],
    ['1h30m', '90m'],
    ['45sec', '45s']
  ])(
    'a near-miss duration (%s): the refusal says what was meant (%s), in the log and the summary',
    async (given, meant) => {
      service = await startStandInService()
      const run = await runAction({ inputs: inputsFor(service, { timeout: given }) })

      expect(run.code).toBe(1)
      const sentence = `Input timeout is '${given}', which is not a duration. Did you mean ${meant}?`
      expect(lines(run.stdout, '::error::')).toEqual([expect.stringContaining(sentence)])
      expect(run.summary).toContain(sentence.replace(/'/g, '&#39;'))
      expect(service.requests).toHaveLength(0)
    }
  )
})

describe('a host name that does not resolve', () => {
  const unresolvable = fileURLToPath(new URL('../support/unresolvable-hosts.js', import.meta.url))
  const envExampleBaseUrl = /^INPUT_BASEURL=(.+)$/m.exec(
    readFileSync(new URL('../../.env.example', import.meta.url), 'utf8')
  )?.[1] as string

  /** Runs with every name but the loopback ones failing to resolve; `lookups`: the names looked up. */
  async function runUnresolved(inputs: Record<string, string>, code = 'ENOTFOUND') {
    folder = mkdtempSync(join(tmpdir(), 'lookups-'))
    const lookupsLog = join(folder, 'lookups')
    const env = { NODE_OPTIONS: `--import ${unresolvable}`, LOOKUPS_LOG: lookupsLog, UNRESOLVABLE_CODE: code }
    const run = await runAction({ inputs, env })
    const lookups = readFileSync(lookupsLog, 'utf8').split('\n').filter(Boolean)
    return { run, lookups }
  }

  it(".env.example's placeholder: said once, with the address, as a placeholder; the create is tried once", async () => {
    service = await startStandInService()
    const { run, lookups } = await runUnresolved(inputsFor(service, { baseUrl: envExampleBaseUrl, timeout: '20s' }))

    expect(run.code).toBe(1)
    expect(lookups).toEqual([new URL(envExampleBaseUrl).hostname])
    expect(run.stdout).not.toContain('Trying again')
    const errors = lines(run.stdout, '::error::')
    expect(errors).toEqual([
      `::error::Could not reach the service at ${envExampleBaseUrl}: its host name was not found (ENOTFOUND), and ` +
        "it is a placeholder (a name kept for examples, as in .env.example), not a service's address: replace it " +
        "with your service's. No job was created; check baseUrl, and the proxy settings if the runner uses a proxy."
    ])
    // The address once in the sentence, and the sentence once in the log.
    expect(errors[0].split(new URL(envExampleBaseUrl).hostname)).toHaveLength(2)
    expect(run.stdout.split('its host name was not found')).toHaveLength(2)
    expect(run.summary).toContain('it is a placeholder (a name kept for examples, as in .env.example)')
    expectCleanOutput(run, service.apiKey)
  })

  it('any other name (EAI_AGAIN): said once, with the address, and not called a placeholder', async () => {
    service = await startStandInService()
    const baseUrl = 'https://docs-agent.corp.internal'
    const { run, lookups } = await runUnresolved(inputsFor(service, { baseUrl, timeout: '20s' }), 'EAI_AGAIN')

    expect(run.code).toBe(1)
    expect(lookups).toEqual(['docs-agent.corp.internal'])
    expect(lines(run.stdout, '::error::')).toEqual([
      `::error::Could not reach the service at ${baseUrl}: its host name could not be looked up (EAI_AGAIN). No job ` +
        'was created; check baseUrl, and the proxy settings if the runner uses a proxy.'
    ])
    expect(run.stdout).not.toContain('placeholder')
  })

  it('following a jobId: the read is said once and not asked again until the timeout', async () => {
    service = await startStandInService()
    const inputs = inputsFor(service, { baseUrl: envExampleBaseUrl, jobId: 'job-1', timeout: '20s' })
    delete inputs.prompt
    const { run, lookups } = await runUnresolved(inputs)

    expect(run.code).toBe(1)
    expect(lookups).toHaveLength(1)
    expect(lines(run.stdout, '::error::')).toEqual([
      expect.stringContaining(`::error::Could not read job job-1 at ${envExampleBaseUrl}: its host name was not found`)
    ])
    expect(run.stdout).not.toContain('Trying again')
  })
})
