// The bundled action, run as the runner runs it, against the stand-in service: a job created and
// followed to its end, its outputs and summary, and the inputs checked before any request.
import { afterEach, describe, expect, it } from 'vitest'
import { inputsFor, runAction, withoutMaskCommands } from '../support/run-action.js'
import { startStandInService, type StandInService } from '../support/stand-in-service.js'
import { msAfter, withinTimeout } from '../support/step-time.js'

let service: StandInService
afterEach(async () => service?.close())

function inputs(extra: Record<string, string> = {}): Record<string, string> {
  return inputsFor(service, { ...extra })
}

describe('a job followed to its end', () => {
  it('creates one job, follows it to completed and sets every output', async () => {
    service = await startStandInService({ plan: { activeMs: 200 } })
    const run = await runAction({ inputs: inputs() })

    expect(run.code).toBe(0)
    const [post] = service.requestsOf('POST')
    expect(service.requestsOf('POST')).toHaveLength(1)
    expect(post.path).toBe('/v2/agent/docs/job')
    expect(post.headers.authorization).toBe(`Bearer ${service.apiKey}`)
    expect(post.headers['content-type']).toBe('application/json')
    expect(post.headers['user-agent']).toMatch(/^docs-agent-job-action\/\d+\.\d+\.\d+$/)
    expect(JSON.parse(post.body)).toEqual({ prompt: 'Document the new --dry-run flag' })

    const job = service.record(run.outputs.jobId)!
    expect(run.outputs).toEqual({
      jobId: job.id,
      status: 'completed',
      prLink: job.prLink,
      prNumber: job.prLink!.split('/').pop(),
      model: 'docs-agent-large',
      sourceRepository: 'https://github.com/example/docs',
      sourceRef: 'main',
      createdAt: job.createdAt,
      jobCreated: 'true'
    })
    expect(service.requestsOf('GET').every((r) => r.path === `/v2/agent/docs/job/${job.id}`)).toBe(true)
    expect(run.stdout).toContain(`Job ${job.id} completed and opened a pull request: ${job.prLink}`)
  })

  it('logs each change of status once, not every poll', async () => {
    service = await startStandInService({
      // By reads, not by time, so that a busy machine's later reads see the same: two see 'paused'.
      plan: { readStatuses: ['active', 'paused', 'paused', 'completed'] }
    })
    const run = await runAction({ inputs: inputs() })

    expect(run.code).toBe(0)
    expect(service.requestsOf('GET')).toHaveLength(4)
    const statusLines = run.stdout.split('\n').filter((line) => line.includes('→') || / is active/.test(line))
    expect(statusLines).toEqual([
      expect.stringMatching(/^Job job_1_\w+ is active/),
      expect.stringMatching(/^Job job_1_\w+: active → paused after/),
      expect.stringMatching(/^Job job_1_\w+: paused → completed after/)
    ])
    // A status it does not know: one warning, and the job is still followed to its end.
    expect(run.stdout.match(/::warning::.*'paused', which this action does not know/g)).toHaveLength(1)
  })

  it('succeeds with a notice when a completed job opened no pull request', async () => {
    service = await startStandInService({ plan: { activeMs: 100, prLink: null } })
    const run = await runAction({ inputs: inputs() })

    expect(run.code).toBe(0)
    expect(run.outputs.status).toBe('completed')
    expect(run.outputs.prLink).toBe('')
    expect(run.stdout).toMatch(/::notice::Job job_1_\w+ completed without opening a pull request/)
  })

  it('fails a completed job without a pull request when requirePr is true', async () => {
    service = await startStandInService({ plan: { activeMs: 100, prLink: null } })
    const run = await runAction({ inputs: inputs({ requirePr: 'true' }) })

    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/::error::Job job_1_\w+ completed without opening a pull request, and requirePr is true/)
  })

  it('passes prLink on only when it is a pull request link', async () => {
    service = await startStandInService({ plan: { activeMs: 100, prLink: 'javascript:alert(1)' } })
    const run = await runAction({ inputs: inputs() })

    expect(run.outputs.prLink).toBe('')
    expect(run.summary).not.toContain('javascript:')
  })

  it('succeeds with a warning when the job is archived', async () => {
    service = await startStandInService({ plan: { activeMs: 100, final: 'archived' } })
    const run = await runAction({ inputs: inputs() })

    expect(run.code).toBe(0)
    expect(run.outputs.status).toBe('archived')
    expect(run.stdout).toMatch(/::warning::Job job_1_\w+ was archived at \d{4}-/)
  })

  it('fails the step, naming the job, when the job failed', async () => {
    service = await startStandInService({ plan: { activeMs: 100, final: 'failed' } })
    const run = await runAction({ inputs: inputs() })

    expect(run.code).toBe(1)
    expect(run.outputs.status).toBe('failed')
    expect(run.stdout).toContain(`::error::Job ${run.outputs.jobId} failed: the agent hit an unrecoverable error.`)
  })
})

describe('wait, jobId and timeout', () => {
  it('with wait false, returns right after creating the job, with its outputs', async () => {
    service = await startStandInService({ plan: { activeMs: 5000 } })
    const run = await runAction({ inputs: inputs({ wait: 'false' }) })

    expect(run.code).toBe(0)
    expect(service.requestsOf('GET')).toHaveLength(0)
    expect(run.outputs.status).toBe('active')
    expect(run.outputs.jobId).toMatch(/^job_1_/)
    expect(run.outputs.prLink).toBe('')
  })

  it('follows an existing job given as jobId without creating one', async () => {
    service = await startStandInService({ plan: { activeMs: 300 } })
    const first = await runAction({ inputs: inputs({ wait: 'false' }) })
    const second = await runAction({ inputs: inputs({ prompt: '', jobId: first.outputs.jobId }) })

    expect(second.code).toBe(0)
    expect(service.requestsOf('POST')).toHaveLength(1)
    expect(second.outputs.jobId).toBe(first.outputs.jobId)
    expect(second.outputs.status).toBe('completed')
  })

  it('times out naming the job and its last status, with outputs as last seen and a hint to resume', async () => {
    service = await startStandInService({ plan: { activeMs: 60_000 } })
    // 2 s: time for the create and a read first, on a busy machine too (600 ms was not).
    const run = await runAction({ inputs: inputs({ timeout: '2s' }) })

    expect(run.code).toBe(1)
    expect(msAfter(service.requests[0], run)).toBeLessThan(withinTimeout(2000))
    const id = run.outputs.jobId
    expect(run.outputs.status).toBe('active')
    expect(run.stdout).toContain(
      `::error::Job ${id} did not reach a final status within the timeout of 2.0s (last status: active).`
    )
    expect(run.stdout).toContain(`run this action with jobId: ${id}`)
    expect(run.summary).toContain('<h3>⏱️ Timed out: the job is still running</h3>')
    expect(run.summary).toContain(`<p>Job <code>${id}</code> was still <code>active</code> when`)
  })
})

describe('the job summary', () => {
  it('shows the job, its status, model, source, time and pull request link, and the prompt escaped', async () => {
    service = await startStandInService({ plan: { activeMs: 100 } })
    const prompt = 'Explain <script>alert(1)</script> | broken | table\n\n# not a heading\n| a | b |'
    const run = await runAction({ inputs: inputs({ prompt }) })

    const job = service.record(run.outputs.jobId)!
    expect(run.summary).toContain(job.id)
    // The status is the heading's verdict, said once (no table cell repeats it).
    expect(run.summary).toContain(`<h3>✅ Completed: pull request #${job.prLink?.split('/').pop()} is ready</h3>`)
    expect(run.summary).not.toContain('<td>completed</td>')
    expect(run.summary).toContain('docs-agent-large')
    expect(run.summary).toContain('<a href="https://github.com/example/docs">example/docs</a> @ <code>main</code>')
    expect(run.summary).toMatch(/<th>Followed for<\/th><\/tr><tr>.*<td>[\d.]+m?s<\/td><\/tr>/)
    expect(run.summary).toContain(`<a href="${job.prLink}">example/docs#${job.prLink?.split('/').pop()}</a>`)
    expect(run.summary).not.toContain('<script>')
    expect(run.summary).toContain(
      '&#60;script&#62;alert(1)&#60;/script&#62; &#124; broken &#124; table<br><br># not a heading<br>&#124; a &#124; b &#124;'
    )
    // No blank line inside the prompt's block: Markdown cannot take over halfway through it.
    const promptBlock = run.summary.slice(run.summary.indexOf('<blockquote>'), run.summary.indexOf('</blockquote>'))
    expect(promptBlock).not.toContain('\n')
  })
})

describe('inputs checked before any request', () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    ['no projectId', { projectId: '' }, /Input projectId is required/],
    ['no apiKey', { apiKey: '' }, /Input apiKey is required/],
    ['no baseUrl', { baseUrl: '' }, /Input baseUrl is required/],
    ['no prompt and no jobId', { prompt: '' }, /Input prompt is empty and no jobId is given/],
    [
      'a key of the wrong shape',
      { apiKey: 'sk-not-a-service-key' },
      /Input apiKey does not look like an API key of the service \(the value is not shown\)\. A key is svc_ followed by/
    ],
    [
      'a plain-http baseUrl that is not loopback',
      { baseUrl: 'http://docs.example.com' },
      /Input baseUrl is 'http:\/\/docs.example.com', but the key may only travel over https/
    ],
    [
      'a baseUrl that is not a URL',
      { baseUrl: 'docs.example.com' },
      /Input baseUrl is 'docs.example.com', which is not a URL/
    ],
    [
      'a timeout that is not a duration',
      { timeout: '10 minutes' },
      /Input timeout is '10 minutes', which is not a duration/
    ],
    ['a pollInterval of zero', { pollInterval: '0' }, /Input pollInterval is '0', which is not a duration/],
    ['a wait that is not a boolean', { wait: 'maybe' }, /Input wait is 'maybe', which is not a boolean/]
  ]
  it.each(cases)('%s: a clear error and no request', async (_name, extra, message) => {
    service = await startStandInService()
    const run = await runAction({ inputs: inputs(extra) })

    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(new RegExp(`::error::${message.source}`))
    expect(service.requests).toHaveLength(0)
    expect(run.stdout + run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/)
  })

  it('never echoes a key of the wrong shape', async () => {
    service = await startStandInService()
    const run = await runAction({ inputs: inputs({ apiKey: 'sk-live-0123456789abcdef' }) })

    expect(run.code).toBe(1)
    expect(withoutMaskCommands(run.all)).not.toContain('sk-live-0123456789abcdef')
  })
})
