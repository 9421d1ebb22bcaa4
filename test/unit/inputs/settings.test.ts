// Inputs are set as the runner sets them, as INPUT_* variables.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { parseAssociations } from '../../../src/inputs/comment-settings.js'
import { describeSettings, readSettings } from '../../../src/inputs/settings.js'
import { readRunner } from '../../../src/github/runner.js'

function setInputs(inputs: Record<string, string>): void {
  for (const [name, value] of Object.entries(inputs)) vi.stubEnv(`INPUT_${name.toUpperCase()}`, value)
}

beforeEach(() => {
  setInputs({ projectId: 'docs', prompt: 'Explain retries', apiKey: 'svc_abc123', baseUrl: 'https://api.example.com/' })
  // core.warning writes to stdout; keep the test output readable.
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
})
afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

describe('readSettings', () => {
  it('applies the defaults from action.yml', () => {
    expect(readSettings()).toEqual({
      projectId: 'docs',
      prompt: 'Explain retries',
      apiKey: 'svc_abc123',
      baseUrl: 'https://api.example.com',
      wait: true,
      timeoutMs: 30 * 60_000,
      pollIntervalMs: 5000,
      jobId: '',
      requirePr: false,
      comment: null,
      context: 'changes',
      contextLimit: 20_000,
      githubToken: '',
      dryRun: false,
      noteTrigger: '/docs',
      group: null,
      docsRepository: ''
    })
  })

  it('keeps a path prefix in baseUrl, without the trailing slash', () => {
    setInputs({ baseUrl: 'https://gateway.example.com/docs-agent/' })
    expect(readSettings().baseUrl).toBe('https://gateway.example.com/docs-agent')
  })

  it.each(['http://127.0.0.1:8080', 'http://localhost:3000', 'http://[::1]:9000'])(
    'accepts plain http for the loopback host %s',
    (baseUrl) => {
      setInputs({ baseUrl })
      expect(readSettings().baseUrl).toBe(baseUrl)
    }
  )

  it('rejects credentials in baseUrl without quoting them', () => {
    setInputs({ baseUrl: 'https://user:hunter2@api.example.com' })
    expect(() => readSettings()).toThrow(/Input baseUrl carries credentials/)
    try {
      readSettings()
    } catch (error) {
      expect((error as Error).message).not.toContain('hunter2')
    }
  })

  it('rejects a query in baseUrl without quoting it (a pasted key would sit there)', () => {
    setInputs({ baseUrl: 'https://api.example.com/?key=svc_abc123' })
    expect(() => readSettings()).toThrow(/has a query/)
    try {
      readSettings()
    } catch (error) {
      expect((error as Error).message).not.toContain('svc_abc123')
    }
  })

  it('keeps the prompt with a jobId, as a follow-up message to that job, with no warning', () => {
    const writes = vi.mocked(process.stdout.write)
    setInputs({ jobId: 'job_42' })
    const settings = readSettings()
    expect(settings.jobId).toBe('job_42')
    expect(settings.prompt).toBe('Explain retries')
    expect(writes.mock.calls.join('')).not.toContain('::warning::')
  })

  it('reads booleans and durations', () => {
    setInputs({ wait: 'false', requirePr: 'TRUE', timeout: '90', pollInterval: '1500ms' })
    expect(readSettings()).toMatchObject({ wait: false, requirePr: true, timeoutMs: 90_000, pollIntervalMs: 1500 })
  })

  it('reads the context, its limit and the token that reads it', () => {
    setInputs({ context: 'diff', contextLimit: '5000', githubToken: 'ghs_token' })
    expect(readSettings()).toMatchObject({ context: 'diff', contextLimit: 5000, githubToken: 'ghs_token' })
  })

  it.each([
    [{ context: 'all' }, "Input context is 'all', which is not one of none, changes, diff."],
    [{ contextLimit: '100' }, "Input contextLimit is '100', which is not a whole number between 1,000 and 1,000,000."]
  ])('rejects %j', (inputs, sentence) => {
    setInputs(inputs)
    expect(() => readSettings()).toThrow(sentence)
  })

  it.each(['svc_', 'svc_ abc', 'abc123', 'svc_abc€def', 'svc_abc\tdef'])(
    'rejects the key %j by its shape, never showing it',
    (apiKey) => {
      setInputs({ apiKey })
      expect(() => readSettings()).toThrow(
        /Input apiKey does not look like an API key of the service \(the value is not shown\)/
      )
    }
  )

  it.each([
    ['Bearer svc_abc', /^Input apiKey starts with 'Bearer ' \(the value is not shown\)[^]*Remove 'Bearer '/],
    ['"svc_abc"', /^Input apiKey begins or ends with a quote mark \(the value is not shown\)[^]*Remove them/],
    ["'svc_abc", /^Input apiKey begins or ends with a quote mark/]
  ])('says what to remove from the key %j, never showing it', (apiKey, message) => {
    setInputs({ apiKey })
    expect(() => readSettings()).toThrow(message)
    expect(() => readSettings()).not.toThrow(/svc_abc/)
  })
})

describe('describeSettings', () => {
  it('leaves out the key, the token and the prompt', () => {
    setInputs({ githubToken: 'ghs_secret_token' })
    const line = describeSettings(readSettings())
    expect(line).not.toContain('ghs_secret_token')
    expect(line).toContain('"githubToken":"(set)"')
    expect(line).not.toContain('svc_abc123')
    expect(line).not.toContain('Explain retries')
    expect(line).toContain('"projectId":"docs"')
  })
})

describe('a comment-triggered run', () => {
  const onComment = { GITHUB_EVENT_NAME: 'issue_comment' }

  it('is one on an issue_comment event with neither prompt nor jobId, with the trigger rules', () => {
    setInputs({ prompt: '', trigger: '/explain', allowedAssociations: 'member, contributor' })
    expect(readSettings(readRunner(onComment)).comment).toEqual({
      trigger: '/explain',
      allowedAssociations: ['MEMBER', 'CONTRIBUTOR']
    })
  })

  it('is not one on another event, or when a prompt or a jobId is given', () => {
    setInputs({ prompt: '' })
    expect(() => readSettings(readRunner({ GITHUB_EVENT_NAME: 'push' }))).toThrow(
      /Input prompt is empty and no jobId is given/
    )
    setInputs({ prompt: 'Document the flag' })
    expect(readSettings(readRunner(onComment)).comment).toBeNull()
    setInputs({ prompt: '', jobId: 'job_1' })
    expect(readSettings(readRunner(onComment)).comment).toBeNull()
  })

  it('rejects a trigger with a blank in it', () => {
    setInputs({ prompt: '', trigger: '/docs please' })
    expect(() => readSettings(readRunner(onComment))).toThrow(
      /Input trigger is '\/docs please', which has a blank in it/
    )
  })
})

describe('parseAssociations', () => {
  it('reads a comma- or space-separated list in any case', () => {
    expect(parseAssociations('owner, Member,COLLABORATOR  contributor')).toEqual([
      'OWNER',
      'MEMBER',
      'COLLABORATOR',
      'CONTRIBUTOR'
    ])
  })

  it.each([
    ['OWNER,MAINTAINER', /MAINTAINER is not an author association/],
    ['', /Input allowedAssociations is ''/],
    [' , ', /Give a comma-separated list of OWNER, MEMBER/]
  ])('rejects %j', (list, message) => {
    expect(() => parseAssociations(list)).toThrow(message)
  })
})
