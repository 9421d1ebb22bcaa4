// The mistakes a first workflow makes (an address with the API's path in it,
// input names spelt as other actions spell theirs, a key with its header or quotes, an https address
// on an http port, a pollInterval as long as the timeout), each told in a sentence that names what
// to change, through the bundle, against the stand-in service.
import { afterEach, describe, expect, it } from 'vitest'
import { expectCleanOutput } from '../support/expect-clean-output.js'
import { inputsFor, runAction } from '../support/run-action.js'
import { startStandInService, type StandInService } from '../support/stand-in-service.js'

let service: StandInService
afterEach(async () => service?.close())

/** The usual inputs, with `extra` over them and the names in `without` left out. */
function inputs(extra: Record<string, string> = {}, without: string[] = []): Record<string, string> {
  const all = inputsFor(service, extra)
  for (const name of without) delete all[name]
  return all
}

const lines = (text: string, prefix: string): string[] => text.split('\n').filter((line) => line.startsWith(prefix))

describe('a baseUrl that holds the API path', () => {
  it.each(['/v2', '/v2/', '/v2/agent', '/v2/agent/docs/job'])(
    'ending in %s is refused, naming the address to give, before any request',
    async (path) => {
      service = await startStandInService()
      const run = await runAction({ inputs: inputs({ baseUrl: `${service.url}${path}` }) })

      expect(run.code).toBe(1)
      expect(lines(run.stdout, '::error::')).toEqual([
        expect.stringContaining(
          `::error::Input baseUrl is '${service.url}${path}', which ends in the API's own path ` + `(${path})`
        )
      ])
      expect(run.stdout).toContain(
        `the action adds /v2/agent/<projectId>/job itself. Give the service's address alone: ${service.url}`
      )
      expect(run.stdout).not.toContain('has no project')
      expect(service.requests).toHaveLength(0)
      expectCleanOutput(run, service.apiKey)
    }
  )

  it('under a path of its own (a gateway prefix), keeps the prefix in the address it suggests', async () => {
    service = await startStandInService()
    const run = await runAction({ inputs: inputs({ baseUrl: `${service.url}/docs-agent/v2/agent` }) })

    expect(run.code).toBe(1)
    expect(run.stdout).toContain(`Give the service's address alone: ${service.url}/docs-agent`)
    expect(service.requests).toHaveLength(0)
  })
})

describe('a pollInterval not shorter than timeout', () => {
  it('is warned about in a sentence, and the job is still followed to its end', async () => {
    service = await startStandInService({ plan: { activeMs: 200 } })
    const run = await runAction({ inputs: inputs({ pollInterval: '2s', timeout: '2s' }) })

    expect(run.code).toBe(0)
    expect(lines(run.stdout, '::warning::')).toEqual([
      '::warning::Input pollInterval (2.0s) is not shorter than timeout (2.0s): the job is read only a few ' +
        'times within the time allowed, the last just before it runs out, so a job that ends sooner may be seen ' +
        'late. Give a pollInterval well below timeout (a tenth of it, say), or a longer timeout.'
    ])
    expect(run.outputs.status).toBe('completed')
    expect(service.requestsOf('POST')).toHaveLength(1)
  })

  it('is not warned about when the job is not followed (wait: false)', async () => {
    service = await startStandInService()
    const run = await runAction({ inputs: inputs({ pollInterval: '2s', timeout: '2s', wait: 'false' }) })

    expect(run.code).toBe(0)
    expect(run.stdout).not.toContain('::warning::')
    expect(service.requestsOf('POST')).toHaveLength(1)
  })
})

describe('an input name spelt another way', () => {
  it('project_id for projectId: the error names the input given and the one to write, and nothing is sent', async () => {
    service = await startStandInService()
    const run = await runAction({ inputs: inputs({ project_id: 'docs' }, ['projectId']) })

    expect(run.code).toBe(1)
    expect(lines(run.stdout, '::error::')).toEqual([
      '::error::Input projectId is required: the documentation project, as the service names it. The step gives ' +
        'project_id instead (INPUT_PROJECT_ID): name it projectId.'
    ])
    expect(lines(run.stdout, '::warning::')).toEqual([
      '::warning::The step gives an input named project_id (INPUT_PROJECT_ID), which this action does not have: ' +
        'did you mean projectId? Its value is not read; write the name as action.yml spells it, projectId.'
    ])
    expect(service.requests).toHaveLength(0)
  })

  it('api-key for apiKey: named, its value (a key) never printed, and nothing is sent', async () => {
    service = await startStandInService()
    const run = await runAction({ inputs: inputs({ 'api-key': service.apiKey }, ['apiKey']) })

    expect(run.code).toBe(1)
    expect(run.stdout).toContain(
      '::error::Input apiKey is required: the admin key from a repository secret, e.g. ${{ secrets.DOCS_AGENT_API_KEY }}. ' +
        'The step gives api-key instead (INPUT_API-KEY): name it apiKey.'
    )
    // Masked, as the key under its right name is: handed to the runner, and shown nowhere else.
    expect(run.stdout).toContain(`::add-mask::${service.apiKey}`)
    expectCleanOutput(run, service.apiKey)
    expect(service.requests).toHaveLength(0)
  })

  it('poll_interval beside the defaults: a warning naming pollInterval, and the run goes on', async () => {
    service = await startStandInService({ plan: { activeMs: 200 } })
    const run = await runAction({
      inputs: inputs({ poll_interval: '1s', promt: 'typo', wait: 'false' }, ['pollInterval'])
    })

    expect(run.code).toBe(0)
    expect(lines(run.stdout, '::warning::').sort()).toEqual([
      '::warning::The step gives an input named poll_interval (INPUT_POLL_INTERVAL), which this action does not ' +
        'have: did you mean pollInterval? Its value is not read; write the name as action.yml spells it, pollInterval.',
      '::warning::The step gives an input named promt (INPUT_PROMT), which this action does not have: did you mean ' +
        'prompt? Its value is not read; write the name as action.yml spells it, prompt.'
    ])
    expect(service.requestsOf('POST')).toHaveLength(1)
  })

  it('says nothing of names this action does not know and that are close to none of its own', async () => {
    service = await startStandInService({ plan: { activeMs: 200 } })
    const run = await runAction({ inputs: inputs({ 'fetch-depth': '0', token: 'x' }) })

    expect(run.code).toBe(0)
    expect(run.stdout).not.toContain('::warning::')
  })
})

describe('an apiKey with more than the key in it', () => {
  it.each([
    [
      'the header copied with it',
      (key: string) => `Bearer ${key}`,
      /^::error::Input apiKey starts with 'Bearer ' \(the value is not shown\): the action writes the Authorization header itself\. Remove 'Bearer ' from the secret, so that it holds the key alone, svc_\.\.\.$/m
    ],
    [
      'double quotes kept in the secret',
      (key: string) => `"${key}"`,
      /^::error::Input apiKey begins or ends with a quote mark \(the value is not shown\): the quotes were stored as part of the secret\. Remove them from the secret, so that it holds the key alone, svc_\.\.\.$/m
    ],
    [
      'single quotes kept in the secret',
      (key: string) => `'${key}'`,
      /^::error::Input apiKey begins or ends with a quote mark/m
    ]
  ])('%s: says what to remove, never shows the key, sends nothing', async (_, wrap, message) => {
    service = await startStandInService()
    const run = await runAction({ inputs: inputs({ apiKey: wrap(service.apiKey) }) })

    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(message)
    expectCleanOutput(run, service.apiKey)
    expect(service.requests).toHaveLength(0)
  })
})

describe('https:// to a port that speaks plain http', () => {
  it('says so, instead of a bare error code, and no request reaches the service', async () => {
    service = await startStandInService()
    // 1 s is less than the create's shortest backoff, so the run always ends on this first try's words
    // (at 1.5 s a short backoff could still fit, and the run ended on the timeout's instead).
    const run = await runAction({
      inputs: inputs({ baseUrl: service.url.replace('http:', 'https:'), timeout: '1s' })
    })

    expect(run.code).toBe(1)
    expect(run.stdout).toContain(
      `::error::Could not reach the service at ${service.url.replace('http:', 'https:')}: the port answered in ` +
        `plain http, not https (ERR_SSL_WRONG_VERSION_NUMBER): baseUrl names a port that is not the service's ` +
        `https port. No job was created`
    )
    expect(service.requests).toHaveLength(0)
    expectCleanOutput(run, service.apiKey)
  })
})

describe('the jobId output', () => {
  const settingsOf = (file: string, name: string) => file.split('\n').filter((line) => line.startsWith(`${name}<<`))

  it('is written once for a job created and followed', async () => {
    service = await startStandInService({ plan: { activeMs: 200 } })
    const run = await runAction({ inputs: inputs() })

    expect(run.code).toBe(0)
    expect(settingsOf(run.outputFile, 'jobId')).toHaveLength(1)
    expect(settingsOf(run.outputFile, 'status')).toHaveLength(1)
    expect(service.record(run.outputs.jobId)).toBeTruthy()
  })

  it('is written once for a job given as jobId', async () => {
    service = await startStandInService({ plan: { activeMs: 200 } })
    const first = await runAction({ inputs: inputs({ wait: 'false' }) })
    // No prompt: a jobId with a prompt would send it to the job as a follow-up message.
    const second = await runAction({ inputs: inputs({ jobId: first.outputs.jobId, prompt: '' }) })

    expect(second.code).toBe(0)
    expect(settingsOf(second.outputFile, 'jobId')).toHaveLength(1)
    expect(second.outputs.jobId).toBe(first.outputs.jobId)
    expect(service.requestsOf('POST')).toHaveLength(1)
  })
})
