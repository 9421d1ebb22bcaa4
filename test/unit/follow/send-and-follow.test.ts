// The send-and-follow stage with a stand-in for the job service injected: where the route sends the
// prompt (a create, a message, nothing), once, and the outcome the stage returns; in milliseconds.
import { describe, expect, it } from 'vitest'
import type { Route } from '../../../src/kernel/route.js'
import type { Settings } from '../../../src/kernel/settings.js'
import type { Prepared } from '../../../src/prompt/assemble.js'
import { JobTracker } from '../../../src/follow/job-tracker.js'
import { sendAndFollow, type SendAndFollow } from '../../../src/follow/send-and-follow.js'
import { startDeadline } from '../../../src/runtime/deadline.js'
import type { Job } from '../../../src/service/job-record.js'
import type { JobService } from '../../../src/service/job-service.js'

const job = (id: string, status = 'completed'): Job => ({
  id,
  status,
  model: null,
  sourceRepository: 'https://github.com/octo-org/docs',
  sourceRef: null,
  prLink: status === 'completed' ? 'https://github.com/octo-org/docs/pull/7' : null,
  createdAt: null,
  archivedAt: null
})

/** A job service that answers at once and records each call: what the stage asked of it, in order. */
function fakeService(answers: { read?: Job[] } = {}) {
  const calls: string[] = []
  const reads = [...(answers.read ?? [])]
  const service = {
    createJob: async (prompt: string) => (calls.push(`create ${prompt}`), job('job_new', 'active')),
    sendMessage: async (jobId: string, prompt: string) => (calls.push(`message ${jobId} ${prompt}`), null),
    getJob: async (jobId: string) => (calls.push(`read ${jobId}`), reads.shift() ?? job(jobId))
  }
  return { calls, service: service as unknown as JobService }
}

const settings = (values: Partial<Settings> = {}): Settings =>
  ({
    dryRun: false,
    wait: true,
    requirePr: false,
    pollIntervalMs: 1,
    timeoutMs: 60_000,
    projectId: 'docs',
    ...values
  }) as Settings
const prepared: Prepared = { prompt: 'Document it', context: '', sent: 'Document it', leaving: null }

function stage(route: Route, service: JobService | undefined, values: Partial<Settings> = {}): SendAndFollow {
  // Its timer is unref'd: it keeps no test alive.
  const deadline = startDeadline(Date.now() + 60_000, new AbortController().signal)
  return {
    service,
    settings: settings(values),
    route,
    prepared,
    deadline,
    cancelled: new AbortController().signal,
    tracker: new JobTracker(),
    startedAt: Date.now(),
    replies: undefined
  }
}

describe('the send-and-follow stage', () => {
  it('creates one job for a create, and follows it to its final status', async () => {
    const { calls, service } = fakeService()
    const outcome = await sendAndFollow(stage({ kind: 'create' }, service))
    expect(calls).toEqual(['create Document it', 'read job_new'])
    expect(outcome).toMatchObject({ ending: 'final', jobId: 'job_new', job: { status: 'completed' } })
  })

  it('sends nothing to a job it only follows', async () => {
    const { calls, service } = fakeService()
    const outcome = await sendAndFollow(stage({ kind: 'follow', jobId: 'job_7' }, service, { wait: false }))
    expect(calls).toEqual(['read job_7'])
    expect(outcome).toMatchObject({ ending: 'final', jobId: 'job_7', followUp: false })
  })

  it.each([
    ['the jobId input', { kind: 'message', jobId: 'job_7', via: 'input' }],
    ["the agent's note", { kind: 'message', jobId: 'job_7', via: 'note', trigger: '/docs' }],
    ["the thread's note", { kind: 'message', jobId: 'job_7', via: 'thread', trigger: '/docs' }]
  ] as [string, Route][])('sends one message to the job %s names, and creates nothing', async (_, route) => {
    const { calls, service } = fakeService({ read: [job('job_7', 'active'), job('job_7')] })
    const outcome = await sendAndFollow(stage(route, service))
    expect(calls.filter((call) => !call.startsWith('read'))).toEqual(['message job_7 Document it'])
    expect(outcome).toMatchObject({ ending: 'final', jobId: 'job_7', followUp: true })
  })

  it('says the way to a new job after a refusal: a comment where a note named the job, the input otherwise', async () => {
    const ways = []
    for (const route of [
      { kind: 'message', jobId: 'job_7', via: 'thread', trigger: '/docs' },
      { kind: 'message', jobId: 'job_7', via: 'input' }
    ] as Route[]) {
      const given = stage(route, fakeService({ read: [job('job_7', 'active'), job('job_7')] }).service)
      await sendAndFollow(given)
      ways.push(given.tracker.newJobWay)
    }
    expect(ways).toEqual([{ by: 'comment', trigger: '/docs' }, undefined])
  })

  it("does not follow a created job when wait is false, and a dry run sends nothing and names the route's job", async () => {
    const { calls, service } = fakeService()
    expect(await sendAndFollow(stage({ kind: 'create' }, service, { wait: false }))).toMatchObject({
      ending: 'created',
      jobId: 'job_new'
    })
    expect(calls).toEqual(['create Document it'])
    const route: Route = { kind: 'message', jobId: 'job_7', via: 'input' }
    expect(await sendAndFollow(stage(route, undefined, { dryRun: true }))).toEqual({
      ending: 'dry-run',
      job: null,
      jobId: 'job_7',
      followUp: true
    })
  })
})
