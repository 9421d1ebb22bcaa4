// The pure parts of a follow-up: the follow that does not believe the old final status, the window
// it waits for a sign of work, and the words for the endings only a follow-up has.
import { describe, expect, it } from 'vitest'
import { startDeadline } from '../../../src/runtime/deadline.js'
import { followJob } from '../../../src/service/follow-job.js'
import type { Job } from '../../../src/service/job-record.js'
import type { JobService } from '../../../src/service/job-service.js'
import { noSignWindowMs, ServicePolicy } from '../../../src/service/service-policy.js'
import { describeEnding } from '../../../src/ending/run-ending.js'
import { staleLine } from '../../../src/ending/message-words.js'

const job = (status: string, prLink: string | null = null): Job => ({
  id: 'job_7',
  status,
  prLink,
  model: null,
  sourceRepository: null,
  sourceRef: null,
  createdAt: null,
  archivedAt: null
})
const OLD = 'https://github.com/o/r/pull/1'
const NEW = 'https://github.com/o/r/pull/2'

/** A service that answers reads from a list, the last one forever, and counts them. */
function reads(...records: Job[]): JobService & { count: number } {
  const fake = {
    count: 0,
    getJob: async () => records[Math.min(fake.count++, records.length - 1)]
  }
  return fake as unknown as JobService & { count: number }
}

const deadlineIn = (ms: number) => startDeadline(Date.now() + ms, new AbortController().signal)
const options = (ms: number, windowMs: number) => ({
  pollIntervalMs: 20,
  deadline: deadlineIn(ms),
  onJob: () => {},
  random: () => 0,
  awaitWork: { windowMs }
})

describe('following a job after a follow-up message', () => {
  it('reads past the old final status until the job has been seen working, then ends at its final status', async () => {
    const service = reads(job('completed', OLD), job('completed', OLD), job('active'), job('completed', NEW))
    const result = await followJob(service, 'job_7', job('completed', OLD), options(5000, 1000))

    expect(result).toEqual({ outcome: 'final', job: job('completed', NEW) })
    expect(service.count).toBe(4)
  })

  it("does not take the message's own answer reading active as a sign of work: the reads after it must show it", async () => {
    const service = reads(job('completed', OLD), job('completed', OLD), job('active'), job('completed', NEW))
    const result = await followJob(service, 'job_7', job('active'), options(5000, 1000))

    expect(result).toEqual({ outcome: 'final', job: job('completed', NEW) })
    expect(service.count).toBe(4)
  })

  it('says once that it waits, with the job as it reads', async () => {
    const seen: Job[] = []
    const service = reads(job('completed', OLD), job('completed', OLD), job('active'), job('failed'))
    const result = await followJob(service, 'job_7', null, {
      ...options(5000, 1000),
      awaitWork: { windowMs: 1000, onStale: (stale) => seen.push(stale) }
    })

    expect(result.outcome).toBe('final')
    expect(seen).toEqual([job('completed', OLD)])
  })

  it('ends with noSign once the window has passed with every read final', async () => {
    const service = reads(job('completed', OLD))
    const started = Date.now()
    const result = await followJob(service, 'job_7', job('completed', OLD), options(5000, 200))

    expect(result).toMatchObject({ outcome: 'noSign', job: job('completed', OLD) })
    expect(Date.now() - started).toBeGreaterThanOrEqual(200)
    // The window, not the deadline, ended it: reads every 20 ms make about a dozen in 200 ms and some
    // 250 in 5 s. Counted, not timed, so that a busy machine (fewer reads) cannot fail it.
    expect(service.count).toBeLessThan(25)
  })

  it('ends with noSign, not past the deadline, when the deadline comes before the window', async () => {
    const service = reads(job('completed', OLD))
    const started = Date.now()
    const result = await followJob(service, 'job_7', job('completed', OLD), options(300, 60_000))

    expect(result).toMatchObject({ outcome: 'noSign', job: job('completed', OLD) })
    // Ten times the deadline's 0.3 s, with room for a busy machine; the window would take 60 s.
    expect(Date.now() - started).toBeLessThan(3000)
  })

  it('ends with a timeout, as any follow, when the job is working at the deadline', async () => {
    const service = reads(job('active'))
    const result = await followJob(service, 'job_7', job('completed', OLD), options(300, 60_000))

    expect(result).toEqual({ outcome: 'timeout', job: job('active'), lastProblem: null })
  })

  it('without a message, stops at the first final status as before', async () => {
    const service = reads(job('completed', OLD))
    const { awaitWork: _, ...plain } = options(5000, 1000)
    const result = await followJob(service, 'job_7', job('active'), plain)

    expect(result).toEqual({ outcome: 'final', job: job('completed', OLD) })
    expect(service.count).toBe(1)
  })
})

describe('the window for a sign of work', () => {
  it('is a number of poll intervals, as data', () => {
    expect(ServicePolicy.followUp.noSignIntervals).toBe(5)
    expect(noSignWindowMs(5000)).toBe(25_000)
    expect(noSignWindowMs(1000)).toBe(5000)
  })
})

describe('the endings of a follow-up', () => {
  it('no sign of work: a warning with the last status and pull request', () => {
    const report = describeEnding({ ending: 'noSign', job: job('completed', OLD), jobId: 'job_7', waitedMs: 25_300 })
    expect(report.level).toBe('warning')
    expect(report.log).toBe(
      `Job job_7 showed no sign of having taken the follow-up message within 25s: every read showed it completed, ` +
        `with pull request ${OLD}, as before the message. The service may be slow to show the new work, or the agent ` +
        `did it between two reads. Look at the job and its pull request before sending the message again; to follow ` +
        `the job, run this action with jobId: job_7 and no prompt.`
    )
    expect(report.short).toBe(
      `Job job_7 showed no sign of taking the follow-up message: it still read completed, with pull request ${OLD}.`
    )
  })

  it('no sign of work, with no pull request', () => {
    const report = describeEnding({ ending: 'noSign', job: job('completed'), jobId: 'job_7', waitedMs: 5000 })
    expect(report.short).toContain('it still read completed, with no pull request.')
  })

  it('a message sent with wait false', () => {
    const report = describeEnding({ ending: 'created', job: null, jobId: 'job_7', followUp: true })
    expect(report).toMatchObject({
      level: 'info',
      log: 'Not following job job_7 after the message (wait is false). Follow it later with jobId: job_7 and no prompt.'
    })
  })

  it('a cancel while the message was in flight says it may or may not have reached the job', () => {
    const report = describeEnding({
      ending: 'cancelled',
      job: null,
      jobId: 'job_7',
      followUp: true,
      writeInFlight: true
    })
    expect(report.log).toBe(
      'The run was cancelled while the message was being sent: it may or may not have reached the job. Job job_7 ' +
        'keeps running on the service, which has no cancel operation. To follow it again, run this action with jobId: job_7 and no prompt.'
    )
  })

  it('a message that failed before any record was read names the message', () => {
    const report = describeEnding({ ending: 'error', job: null, jobId: 'job_7', followUp: true, reason: 'x' })
    expect(report.short).toBe("The follow-up message to job job_7 failed; the workflow run's log says why.")
  })

  it('the line said while the old final status is still shown', () => {
    expect(staleLine(job('completed', OLD), 25_000)).toBe(
      `Job job_7 still reads completed (${OLD}), as it may for a while after taking a message: waiting up to 25s ` +
        `for it to show that it is working on it.`
    )
  })
})
