// The hand-over stage: a run that does not follow its job to the end leaves a signed record of it in
// the index issue, and a pending status on its commit, for a reporting run; a create the rate limit
// refused waits there as a queued record with its prompt. Checked as a reporting run reads the index
// back, on the stand-in GitHub.
import { describe, expect, it } from 'vitest'
import { readRunner } from '../../../src/github/runner.js'
import type { GroupRun } from '../../../src/kernel/group.js'
import type { Settings } from '../../../src/kernel/settings.js'
import { JobIndex, openIndexReader } from '../../../src/hand-over/job-index.js'
import type { RunOutcome } from '../../../src/kernel/run-outcome.js'
import { handOverJob, recordToLeave, type HandOver } from '../../../src/hand-over/hand-over.js'
import { registerSecret } from '../../../src/safety/run-secrets.js'
import type { GitHubSession } from '../../../src/github/session.js'
import { pushEvent, standInCommit, writeEventFile } from '../../support/stand-in-github.js'
import { captureLog, cleanUpAfterEach, startUnitGitHub, type StandInGitHub } from '../../support/unit-github.js'

const REPO = 'octo-org/docs-site'
const pushed = standInCommit('Add the --dry-run flag')
const settings = (values: Partial<Settings> = {}) =>
  ({
    dryRun: false,
    wait: false,
    githubToken: 'ghs_unit',
    apiKey: 'svc_unit_key',
    projectId: 'docs',
    ...values
  }) as Settings
const active = {
  id: 'job_9',
  status: 'active',
  model: null,
  sourceRepository: null,
  sourceRef: null,
  prLink: null,
  createdAt: null,
  archivedAt: null
}
const created: RunOutcome = { ending: 'created', job: active, jobId: 'job_9' }
const notTaken: RunOutcome = { ending: 'error', job: null, jobId: '', reason: 'rate limited', failure: 'notTaken' }
const queuedOutcome: RunOutcome = {
  ending: 'queued',
  job: null,
  jobId: '',
  notBefore: '2026-12-01T23:00:00.000Z',
  wait: false
}

let gh: StandInGitHub | undefined
cleanUpAfterEach()

const onPush = () =>
  readRunner({
    GITHUB_REPOSITORY: REPO,
    GITHUB_RUN_ID: '42',
    GITHUB_EVENT_NAME: 'push',
    GITHUB_EVENT_PATH: writeEventFile(pushEvent({ commits: [pushed] }))
  })

function handOver(values: Partial<HandOver> = {}, github = {} as GitHubSession): HandOver {
  return {
    outcome: created,
    settings: settings(),
    ask: null,
    group: null,
    prompt: 'Document the flag',
    creates: true,
    runner: onPush(),
    github,
    ...values
  }
}

/** The index as a reporting run reads it. */
async function readIndex(session: GitHubSession) {
  const reader = openIndexReader(session, new AbortController().signal)
  if (!reader) throw new Error('no reader')
  const octokit = await session.client()
  const index = new JobIndex({
    octokit,
    reader,
    key: settings(),
    host: 'github.com',
    repository: REPO,
    projectId: 'docs'
  })
  try {
    return await index.read()
  } finally {
    await reader.close()
  }
}

describe('the record a run leaves', () => {
  it('for a job created and not followed, or still working at the timeout: open, with the commit it was for', () => {
    for (const outcome of [created, { ...created, ending: 'timeout' } as RunOutcome]) {
      expect(recordToLeave(handOver({ outcome }))).toMatchObject({ job: 'job_9', state: 'open', commit: pushed.sha })
    }
  })

  it('none for a job followed to its end, a dry run, or a run without settings', () => {
    const final: RunOutcome = { ending: 'final', job: { ...active, status: 'completed' }, jobId: 'job_9' }
    expect(recordToLeave(handOver({ outcome: final }))).toBeNull()
    expect(recordToLeave(handOver({ settings: settings({ dryRun: true }) }))).toBeNull()
    expect(recordToLeave(handOver({ settings: null }))).toBeNull()
  })

  it("a create the rate limit refused and the run queued waits as a queued record, with the service's Retry-After and its prompt without secrets", () => {
    registerSecret('svc_secret_in_prompt_123')
    const record = recordToLeave(handOver({ outcome: queuedOutcome, prompt: 'Use svc_secret_in_prompt_123 here' }))
    expect(record).toMatchObject({ job: '', state: 'queued', notBefore: '2026-12-01T23:00:00.000Z' })
    expect(record?.prompt).not.toContain('svc_secret_in_prompt_123')
    // A held run queues it too, once it could not wait it out.
    const held = { ...queuedOutcome, wait: true }
    expect(recordToLeave(handOver({ outcome: held, settings: settings({ wait: true }) }))).toMatchObject({
      state: 'queued'
    })
    expect(recordToLeave(handOver({ outcome: queuedOutcome, creates: false }))).toBeNull()
    // A refusal the run did not queue (the prompt too long to keep, no token) leaves nothing; nor does a
    // create whose answer was lost, which may have made a job: it is never queued to be sent again.
    expect(recordToLeave(handOver({ outcome: notTaken }))).toBeNull()
    expect(recordToLeave(handOver({ outcome: { ...notTaken, failure: 'uncertain' } }))).toBeNull()
  })

  it("a group's create carries the group and the commit that becomes its mark", () => {
    const group = { settings: { name: 'api-docs', repository: REPO }, covers: pushed.sha } as GroupRun
    expect(recordToLeave(handOver({ group, delivered: 'create' }))).toMatchObject({
      group: 'api-docs',
      mark: pushed.sha
    })
    expect(recordToLeave(handOver({ group, delivered: 'message' }))).not.toHaveProperty('group')
  })
})

describe('handing the job over', () => {
  it('leaves the signed record in one index issue, which a reporting run reads back, and a pending status on the commit', async () => {
    const log = captureLog()
    const started = await startUnitGitHub()
    gh = started.gh
    await handOverJob(handOver({}, started.session))
    await handOverJob(handOver({ outcome: { ...created, jobId: 'job_10' } }, started.session))
    expect(gh.issues.map((i) => [i.title, i.labels])).toEqual([['Documentation jobs', ['docs-agent:jobs']]])
    const index = await readIndex(started.session)
    expect(index.records.map((r) => [r.record.job, r.record.state, r.record.commit])).toEqual([
      ['job_9', 'open', pushed.sha],
      ['job_10', 'open', pushed.sha]
    ])
    expect(index.ignored).toBe(0)
    expect(gh.statuses.map((s) => [s.sha, s.state, s.context])).toEqual([
      [pushed.sha, 'pending', 'docs-agent'],
      [pushed.sha, 'pending', 'docs-agent']
    ])
    expect(log.lines).toContain(
      'Handed job job_9 over: its record is in issue #500 (Documentation jobs), and a run with report: pending tells its ending.'
    )
  })

  it('a refused record is a warning naming the permission; the run goes on', async () => {
    const log = captureLog()
    const started = await startUnitGitHub({
      faults: { 'issue-create': { status: 403, message: 'Resource not accessible by integration' } }
    })
    gh = started.gh
    await handOverJob(handOver({}, started.session))
    expect(log.warnings).toEqual([
      expect.stringMatching(
        /^Could not leave the record of job job_9 for a reporting run: HTTP 403 .* the workflow needs "issues: write" \(and "statuses: write" for the commit's status\) in its permissions block\. Its ending is not reported\.$/
      )
    ])
    expect(gh.statuses).toEqual([])
  })

  it('without a token, nothing is sent', async () => {
    const started = await startUnitGitHub()
    gh = started.gh
    await handOverJob(handOver({ settings: settings({ githubToken: '' }) }, started.session))
    expect(gh.requests).toEqual([])
  })
})
