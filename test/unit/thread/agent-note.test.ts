// The note on the pull request a job opened, left through the run's session on the stand-in GitHub:
// once per job, only in the repository the job names as its source, signed so that a later /docs
// comment there finds the job; a group's new job gets its group marker and label; a refusal is one
// notice (or, for a group, one warning), never an error.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { leaveAgentNote, type AgentNote } from '../../../src/thread/agent-note.js'
import { groupNotePart } from '../../../src/group/group-record.js'
import { readRunner } from '../../../src/github/runner.js'
import type { Job } from '../../../src/service/job-record.js'
import { captureLog, startUnitGitHub, type StandInGitHub } from '../../support/unit-github.js'

const PR = 'https://github.com/octo-org/docs-site/pull/31'
const SETTINGS = { githubToken: 'ghs_unit', apiKey: 'svc_unit_key', projectId: 'docs', noteTrigger: '/docs' }
const runner = readRunner({
  GITHUB_REPOSITORY: 'octo-org/docs-site',
  GITHUB_RUN_ID: '42',
  GITHUB_EVENT_NAME: 'workflow_dispatch'
})

const job = (fields: Partial<Job> = {}): Job => ({
  id: 'job_7',
  status: 'completed',
  model: null,
  sourceRepository: 'https://github.com/octo-org/docs-site',
  sourceRef: null,
  prLink: PR,
  createdAt: null,
  archivedAt: null,
  ...fields
})

let gh: StandInGitHub | undefined
afterEach(async () => {
  await gh?.close()
  gh = undefined
  vi.restoreAllMocks()
})

async function note(
  values: Partial<AgentNote> & { job?: Job } = {},
  options: Parameters<typeof startUnitGitHub>[0] = {}
) {
  const started = await startUnitGitHub(options)
  gh = started.gh
  const theJob = values.job ?? job()
  await leaveAgentNote({
    outcome: { ending: 'final', job: theJob, jobId: theJob.id },
    settings: SETTINGS,
    comment: null,
    signal: new AbortController().signal,
    runner,
    github: started.session,
    ...values
  })
}

describe("the note on the agent's pull request", () => {
  it('names the job, how to ask for changes, and carries the signed marker; once per job', async () => {
    const log = captureLog()
    const started = await startUnitGitHub()
    gh = started.gh
    const leave = () =>
      leaveAgentNote({
        outcome: { ending: 'final', job: job(), jobId: 'job_7' },
        settings: SETTINGS,
        comment: null,
        signal: new AbortController().signal,
        runner,
        github: started.session
      })
    await leave()
    await leave()
    const notes = gh.threadComments(31)
    expect(notes).toHaveLength(1)
    expect(notes[0]?.body).toMatch(/^<!-- docs-agent-job: job_7 v1\.[\w-]+ -->\n📝 Documentation agent job `job_7`/)
    expect(notes[0]?.body).toContain('[workflow run](https://github.com/octo-org/docs-site/actions/runs/42)')
    expect(notes[0]?.body).toContain('comment `/docs <what to change>` here')
    expect(log.lines.filter((l) => l.startsWith('Left a note'))).toEqual([
      'Left a note on pull request #31 of octo-org/docs-site naming job job_7, for follow-ups with /docs.'
    ])
  })

  it("leaves a note beside another's copy of the marker: an unsigned copy is not the job's note", async () => {
    captureLog()
    await note(
      {},
      { threadComments: [{ issueNumber: 31, body: '<!-- docs-agent-job: job_7 v1.forged -->', login: 'mallory' }] }
    )
    expect(gh?.threadComments(31).map((c) => c.login)).toEqual(['mallory', 'github-actions[bot]'])
  })

  it('writes nothing on a pull request outside the repository the job names as its source, and says so', async () => {
    const log = captureLog()
    await note({ job: job({ sourceRepository: 'https://github.com/someone/else' }) })
    expect(gh?.requests).toEqual([])
    expect(log.lines.join('\n')).toMatch(
      /::notice::No note was left on pull request #31 of octo-org\/docs-site: it is not in the repository job job_7 names as its source \(https:\/\/github.com\/someone\/else\)/
    )
  })

  it.each([
    ['a job without a pull request', { job: job({ prLink: null }) }],
    ['a job still active', { job: job({ status: 'active' }) }],
    ['no token', { settings: { ...SETTINGS, githubToken: '' } }]
  ])('sends nothing to GitHub for %s', async (_name, values) => {
    captureLog()
    await note(values)
    expect(gh?.requests).toEqual([])
  })

  it('a refused note is one notice with the permission it needs; the run goes on', async () => {
    const log = captureLog()
    await note({}, { faults: { 'comment-create': { status: 403, message: 'Resource not accessible by integration' } } })
    expect(gh?.threadComments(31)).toEqual([])
    expect(log.text).toMatch(
      /::notice::Could not leave a note on pull request #31 of octo-org\/docs-site naming job job_7: HTTP 403 \(Resource not accessible by integration[^)]*\)\. Check that githubToken may write there: the workflow needs "pull-requests: write" on that repository in its permissions block\. A later \/docs comment there then starts a new job instead of a follow-up\. The run is not affected\./
    )
  })

  it("a group's new job: the note carries the group's marker and the pull request gets the group's label, without a read first", async () => {
    captureLog()
    await note({ group: groupNotePart({ name: 'api-docs', mark: 'a'.repeat(40), repository: 'octo-org/docs-site' }) })
    const [only] = gh?.threadComments(31) ?? []
    expect(only?.body).toContain('This is the docs pull request of group `api-docs`')
    expect(only?.body).toMatch(/<!-- docs-agent-group: /)
    expect(gh?.labelsOf(31)).toEqual(['docs-agent:api-docs'])
    expect(gh?.requests.filter((r) => r.method === 'GET')).toEqual([])
  })

  it("a group's note that could not be left is a warning that the group's next run will not find the pull request", async () => {
    const log = captureLog()
    await note(
      { group: groupNotePart({ name: 'api-docs', mark: 'a'.repeat(40), repository: 'octo-org/docs-site' }) },
      { faults: { 'comment-create': { status: 404, message: 'Not Found' } } }
    )
    expect(log.warnings).toEqual([
      expect.stringMatching(
        /^Could not leave group api-docs's note on pull request #31 of octo-org\/docs-site naming job job_7: HTTP 404 .* The group's next run does not find this pull request/
      )
    ])
  })
})
