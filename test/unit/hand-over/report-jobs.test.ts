// The reporting run's stage with the job service injected (a fake that answers at once and counts its
// reads) and the index on the stand-in GitHub, filled by the hand-over stage as earlier runs fill it:
// each job read once, an ended one told exactly once (note, commit status, its record leaving), a working
// one left open, one the service no longer knows told as such only after several runs in a row, and
// no more than a run's share read.
import { describe, expect, it } from 'vitest'
import { readRunner } from '../../../src/github/runner.js'
import type { GitHubSession } from '../../../src/github/session.js'
import { handOverJob } from '../../../src/hand-over/hand-over.js'
import { reportJobs } from '../../../src/hand-over/report-jobs.js'
import { UNKNOWN_AFTER_MISSES } from '../../../src/hand-over/report-one-record.js'
import { REPORT_JOBS_PER_RUN } from '../../../src/hand-over/report-share.js'
import { startDeadline } from '../../../src/runtime/deadline.js'
import type { Job } from '../../../src/service/job-record.js'
import { ServiceError } from '../../../src/service/service-error.js'
import type { JobService } from '../../../src/service/job-service.js'
import { pushEvent, standInCommit, writeEventFile } from '../../support/stand-in-github.js'
import { INDEX_SETTINGS, readIndexRecords, REPO, serviceJob } from '../../support/job-index-world.js'
import { captureLog, cleanUpAfterEach, startUnitGitHub, type StandInGitHub } from '../../support/unit-github.js'

const settings = INDEX_SETTINGS
const job = serviceJob
const notFound = (id: string) =>
  new ServiceError({
    kind: 'notFound',
    operation: 'read',
    jobId: id,
    problem: { what: 'refused', status: 404, excerpt: 'Job not found' },
    place: { projectId: 'docs', baseUrl: 'https://api.example.com' }
  })

let gh: StandInGitHub | undefined
cleanUpAfterEach()

const runner = (commit = standInCommit('Add a flag')) =>
  readRunner({
    GITHUB_REPOSITORY: REPO,
    GITHUB_RUN_ID: '42',
    GITHUB_EVENT_NAME: 'push',
    GITHUB_EVENT_PATH: writeEventFile(pushEvent({ commits: [commit] }))
  })

/** The stand-in GitHub, with each of `ids` handed over by an earlier run. */
async function handedOver(ids: string[]) {
  const started = await startUnitGitHub()
  gh = started.gh
  for (const id of ids) {
    await handOverJob({
      outcome: { ending: 'created', job: job(id, 'active'), jobId: id },
      settings,
      ask: null,
      group: null,
      prompt: 'Document it',
      creates: true,
      runner: runner(standInCommit(`Commit for ${id}`)),
      github: started.session
    })
  }
  return started.session
}

/** A job service that answers each read from `jobs` (a job, or an error), and counts the reads. */
function fakeService(jobs: Record<string, Job | Error>) {
  const reads: string[] = []
  const service = {
    getJob: async (id: string) => {
      reads.push(id)
      const answer = jobs[id]
      if (!answer || answer instanceof Error) throw answer ?? notFound(id)
      return answer
    },
    createJob: async () => {
      throw new Error('no create in these tests')
    }
  } as unknown as JobService
  return { reads, service }
}

async function report(session: GitHubSession, service: JobService) {
  const deadline = startDeadline(Date.now() + 60_000, new AbortController().signal)
  return reportJobs(settings, { reader: service, creator: service }, deadline, { runner: runner(), github: session })
}

async function states(session: GitHubSession) {
  return Object.fromEntries((await readIndexRecords(session)).map((record) => [record.job, record.state]))
}

describe('a reporting run', () => {
  it('tells an ended job once, leaves a working one open, and a second run tells nothing again', async () => {
    captureLog()
    const session = await handedOver(['job_1', 'job_2'])
    const { reads, service } = fakeService({ job_1: job('job_1', 'completed', 31), job_2: job('job_2', 'active') })
    const run = await report(session, service)
    expect(run.jobs.map((j) => [j.id, j.status, j.outcome])).toEqual([
      ['job_1', 'completed', 'told'],
      ['job_2', 'active', 'working']
    ])
    expect(reads).toEqual(['job_1', 'job_2'])
    // Told: its record left the index.
    expect(await states(session)).toEqual({ job_2: 'open' })
    expect(gh?.threadComments(31)).toHaveLength(1)

    const again = await report(session, service)
    expect(again.jobs.map((j) => j.id)).toEqual(['job_2'])
    expect(gh?.threadComments(31)).toHaveLength(1)
    expect(gh?.statuses.filter((s) => s.state === 'success')).toHaveLength(1)
  })

  it(`tells a job the service no longer knows only after ${UNKNOWN_AFTER_MISSES} runs in a row read it so`, async () => {
    const log = captureLog()
    const session = await handedOver(['job_gone'])
    const { service } = fakeService({})
    const outcomes: string[] = []
    for (let i = 0; i < UNKNOWN_AFTER_MISSES; i++) {
      outcomes.push(...(await report(session, service)).jobs.map((j) => `${j.status} ${j.outcome}`))
    }
    expect(outcomes).toEqual(['unread unread', 'unread unread', 'unknown told'])
    expect(await states(session)).toEqual({})
    expect(log.warnings.filter((w) => w.includes('does not know job job_gone'))).toHaveLength(UNKNOWN_AFTER_MISSES - 1)
  })

  it('reads no more than its share; the rest are left for the next run', async () => {
    captureLog()
    const ids = Array.from({ length: REPORT_JOBS_PER_RUN + 2 }, (_, i) => `job_${i}`)
    const session = await handedOver(ids)
    const { reads, service } = fakeService(Object.fromEntries(ids.map((id) => [id, job(id, 'active')])))
    const run = await report(session, service)
    expect(reads).toEqual(ids.slice(0, REPORT_JOBS_PER_RUN))
    expect(run.left).toBe(2)
  })
})

describe('a queued create (the rate limit refused it in a run that handed it over)', () => {
  /** The stand-in GitHub with one queued create, left as a run with wait: false leaves it. */
  async function queued() {
    const started = await startUnitGitHub()
    gh = started.gh
    await handOverJob({
      outcome: { ending: 'queued', job: null, jobId: '', notBefore: null, wait: false },
      settings,
      ask: null,
      group: null,
      prompt: 'Document the retry flag',
      creates: true,
      runner: runner(),
      github: started.session
    })
    return started.session
  }

  /** A creator that answers each create in turn from `answers`, and records the prompts it was sent. */
  function creator(answers: (Job | Error)[]) {
    const prompts: string[] = []
    const service = {
      createJob: async (prompt: string) => {
        prompts.push(prompt)
        const answer = answers.shift()
        if (!answer || answer instanceof Error) throw answer ?? new Error('no more answers')
        return answer
      },
      getJob: async (id: string) => job(id, 'active')
    } as unknown as JobService
    return { prompts, service }
  }
  const refusedByRateLimit = () =>
    new ServiceError({
      kind: 'notTaken',
      operation: 'create',
      jobId: null,
      problem: { what: 'rateLimited' },
      place: { projectId: 'docs', baseUrl: 'https://api.example.com' },
      retryAfterMs: 3_600_000
    })
  const lost = () =>
    new ServiceError({
      kind: 'uncertain',
      operation: 'create',
      jobId: null,
      problem: { what: 'noAnswer', detail: 'socket hang up' },
      place: { projectId: 'docs', baseUrl: 'https://api.example.com' }
    })
  const reportWith = (session: GitHubSession, service: JobService) => {
    const deadline = startDeadline(Date.now() + 60_000, new AbortController().signal)
    return reportJobs(settings, { reader: service, creator: service }, deadline, { runner: runner(), github: session })
  }

  it('is created once with its prompt, then reported like the others', async () => {
    captureLog()
    const session = await queued()
    const { prompts, service } = creator([job('job_q', 'active')])
    expect((await reportWith(session, service)).jobs.map((j) => [j.id, j.outcome])).toEqual([['job_q', 'working']])
    expect(await states(session)).toEqual({ job_q: 'open' })
    await reportWith(session, service)
    expect(prompts).toEqual(['Document the retry flag'])
  })

  it("refused again by the rate limit: stays queued, and is not tried before the service's Retry-After", async () => {
    captureLog()
    const session = await queued()
    const { prompts, service } = creator([refusedByRateLimit(), job('job_q', 'active')])
    expect((await reportWith(session, service)).jobs.map((j) => j.outcome)).toEqual(['queued'])
    expect((await reportWith(session, service)).jobs.map((j) => j.outcome)).toEqual(['queued'])
    expect(prompts).toHaveLength(1)
  })

  it('a create whose answer was lost is never sent again: its ending is told as unknown', async () => {
    captureLog()
    const session = await queued()
    const { prompts, service } = creator([lost(), job('job_q', 'active')])
    expect((await reportWith(session, service)).jobs.map((j) => [j.status, j.outcome])).toEqual([
      ['not created', 'told']
    ])
    // Told: nothing is pending for the next run, and nothing is sent again.
    expect((await reportWith(session, service)).jobs).toEqual([])
    expect(prompts).toHaveLength(1)
  })
})
