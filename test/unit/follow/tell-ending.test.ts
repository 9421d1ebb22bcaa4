// The last stage: the ending said once (the outputs, the log line), then told where people look: the
// job summary and the note on the pull request the job opened (on the stand-in GitHub); and how a run
// that threw ended (a cancel, a service's refusal with the way to a new job, a bug).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { readRunner } from '../../../src/github/runner.js'
import type { Settings } from '../../../src/kernel/settings.js'
import type { RunOutcome } from '../../../src/kernel/run-outcome.js'
import { JobTracker } from '../../../src/follow/job-tracker.js'
import { tellEndingAtOnce, failedOutcome, tellEnding, type EndingTold } from '../../../src/follow/tell-ending.js'
import { CancelledError } from '../../../src/runtime/errors.js'
import type { Job } from '../../../src/service/job-record.js'
import { ServiceError } from '../../../src/service/service-error.js'
import { captureLog, startUnitGitHub, type StandInGitHub } from '../../support/unit-github.js'

const REPO = 'octo-org/docs-site'
const PR = 'https://github.com/octo-org/docs-site/pull/31'
const job = (fields: Partial<Job> = {}): Job => ({
  id: 'job_7',
  status: 'completed',
  model: 'docs-1',
  sourceRepository: 'https://github.com/octo-org/docs-site',
  sourceRef: 'main',
  prLink: PR,
  createdAt: '2026-11-27T10:00:00Z',
  archivedAt: null,
  ...fields
})
const settings = {
  dryRun: false,
  wait: true,
  githubToken: 'ghs_unit',
  apiKey: 'svc_unit_key',
  projectId: 'docs',
  noteTrigger: '/docs',
  timeoutMs: 60_000
} as Settings

// One folder for the file: @actions/core keeps the summary's path once it has read it.
const dir = mkdtempSync(join(tmpdir(), 'tell-ending-'))
let gh: StandInGitHub | undefined
beforeEach(() => {
  for (const name of ['GITHUB_OUTPUT', 'GITHUB_STEP_SUMMARY']) {
    writeFileSync(join(dir, name), '')
    vi.stubEnv(name, join(dir, name))
  }
})
afterEach(async () => {
  await gh?.close()
  gh = undefined
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The outputs as the runner reads them from GITHUB_OUTPUT (name<<delimiter, value, delimiter). */
function outputs(): Record<string, string> {
  const text = readFileSync(join(dir, 'GITHUB_OUTPUT'), 'utf8')
  const found: Record<string, string> = {}
  for (const [, name, delimiter, value] of text.matchAll(/^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2$/gm)) {
    void delimiter
    found[name] = value
  }
  return found
}
const summary = () => readFileSync(join(dir, 'GITHUB_STEP_SUMMARY'), 'utf8')

describe('announcing the ending', () => {
  it('sets the outputs from the job as last seen, and says the ending in one log line', () => {
    const log = captureLog()
    tellEndingAtOnce({ ending: 'final', job: job(), jobId: 'job_7' })
    expect(outputs()).toMatchObject({
      jobId: 'job_7',
      status: 'completed',
      prLink: PR,
      prNumber: '31',
      model: 'docs-1'
    })
    expect(log.lines.filter((l) => l.includes('job_7'))).toHaveLength(1)
  })

  it('a failed job is an error annotation that fails the step', () => {
    const log = captureLog()
    tellEndingAtOnce({ ending: 'final', job: job({ status: 'failed', prLink: null }), jobId: 'job_7' })
    expect(log.lines.some((l) => l.startsWith('::error::') && l.includes('job_7'))).toBe(true)
    expect(process.exitCode).toBe(1)
    process.exitCode = undefined
  })
})

describe('how a run that threw ended', () => {
  const refused = () =>
    new ServiceError({
      kind: 'refused',
      operation: 'message',
      jobId: 'job_7',
      problem: { what: 'refused', status: 400, excerpt: 'Job is archived' },
      place: { projectId: 'docs', baseUrl: 'https://api.example.com' }
    })

  it('a cancel is the cancelled ending, with the job known so far', () => {
    const tracker = new JobTracker()
    tracker.jobId = 'job_7'
    tracker.writeInFlight = true
    expect(failedOutcome(new CancelledError('cancelled'), tracker)).toMatchObject({
      ending: 'cancelled',
      jobId: 'job_7',
      writeInFlight: true
    })
  })

  it('a refused follow-up says what happened and how to start a new job instead, by the way the job was named', () => {
    const tracker = new JobTracker()
    tracker.jobId = 'job_7'
    tracker.followUp = true
    tracker.newJobWay = { by: 'comment', trigger: '/docs' }
    const outcome = failedOutcome(refused(), tracker)
    expect(outcome).toMatchObject({ ending: 'error', failure: 'refused', jobId: 'job_7' })
    expect(outcome.ending === 'error' && outcome.reason).toMatch(/Job is archived.*\/docs --new/s)
  })

  it('a refused create says no new-job way (it was one)', () => {
    const outcome = failedOutcome(refused(), new JobTracker())
    expect(outcome.ending === 'error' && outcome.reason).not.toMatch(/--new|without jobId/)
  })

  it('a bug is an error whose reason is a sentence, not a stack', () => {
    captureLog()
    const outcome = failedOutcome(new TypeError("Cannot read properties of undefined (reading 'id')"), new JobTracker())
    expect(outcome).toMatchObject({ ending: 'error', jobId: '' })
    expect(outcome.ending === 'error' && outcome.reason).not.toMatch(/\n\s+at /)
  })
})

describe('telling the ending', () => {
  async function tell(outcome: RunOutcome, values: Partial<EndingTold> = {}) {
    const started = await startUnitGitHub()
    gh = started.gh
    await tellEnding({
      outcome,
      ask: null,
      settings,
      prepared: { prompt: 'Document the flag', context: '', sent: 'Document the flag', leaving: null },
      writeStarted: true,
      group: null,
      groupStatus: null,
      elapsedMs: 83_000,
      cancel: { signal: new AbortController().signal, graceLeftMs: () => Infinity },
      runner: readRunner({ GITHUB_REPOSITORY: REPO, GITHUB_RUN_ID: '42', GITHUB_EVENT_NAME: 'workflow_dispatch' }),
      github: started.session,
      ...values
    })
  }

  it("writes the summary and leaves the note on the job's pull request, once", async () => {
    captureLog()
    await tell({ ending: 'final', job: job(), jobId: 'job_7' })
    expect(summary()).toContain('job_7')
    expect(summary()).toContain('Document the flag')
    const notes = gh?.threadComments(31) ?? []
    expect(notes).toHaveLength(1)
    expect(notes[0]?.body).toContain('Documentation agent job `job_7` opened this pull request')
  })

  it('leaves no note when another run tells the same job (leaveNote false), and still writes the summary', async () => {
    captureLog()
    await tell({ ending: 'final', job: job(), jobId: 'job_7' }, { leaveNote: false })
    expect(gh?.threadComments(31)).toEqual([])
    expect(summary()).toContain('job_7')
  })

  it('a skipped run writes no summary and nothing on GitHub', async () => {
    captureLog()
    await tell({ ending: 'skipped', job: null, jobId: '', reason: 'The comment gives no instruction.' } as RunOutcome)
    expect(summary()).toBe('')
    expect(gh?.requests.filter((r) => r.method !== 'GET')).toEqual([])
  })
})
