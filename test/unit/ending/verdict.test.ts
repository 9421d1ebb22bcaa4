// The verdict at the top of the job summary (describeEnding in src/ending/run-ending.ts): for every
// ending, what happened first, and a next step a person can act on where there is one.
import { describe, expect, it } from 'vitest'
import type { Job } from '../../../src/service/job-record.js'
import { describeEnding } from '../../../src/ending/run-ending.js'
import type { RunOutcome } from '../../../src/kernel/run-outcome.js'
import { describeThreadEnding } from '../../../src/ending/thread-words.js'

function job(status: string, prLink: string | null = null, extra: Partial<Job> = {}): Job {
  return {
    id: 'job_7',
    status,
    model: null,
    sourceRepository: null,
    sourceRef: null,
    prLink,
    createdAt: null,
    archivedAt: null,
    ...extra
  }
}

const PR = 'https://github.com/o/r/pull/9'

describe('the verdict: the heading names no job (the sentence under it does), a next step only where there is one', () => {
  const FOLLOW = "run this action with the job's id as jobId and no prompt"
  it.each<[string, RunOutcome, string, string | null]>([
    [
      'a pull request',
      { ending: 'final', job: job('completed', PR), jobId: 'job_7' },
      '✅ Completed: pull request #9 is ready',
      'Review the pull request, and merge it when it is right.'
    ],
    [
      'a follow-up done',
      { ending: 'final', job: job('completed', PR), jobId: 'job_7', followUp: true },
      '✅ Completed: the follow-up is in the pull request',
      "Review the pull request's new changes."
    ],
    [
      'no changes',
      { ending: 'final', job: job('completed'), jobId: 'job_7' },
      '☑️ Completed: no changes',
      "If you expected changes, look at the job in the project's dashboard."
    ],
    [
      'no changes under requirePr',
      { ending: 'final', job: job('completed'), jobId: 'job_7', requirePr: true },
      '❌ Failed (requirePr is true): no pull request',
      'set requirePr to false if a run without changes is fine'
    ],
    [
      'a refused link (where to look is the next step)',
      { ending: 'final', job: job('completed', null, { refusedPrLink: 'x' }), jobId: 'job_7' },
      '⚠️ Completed: no pull request link',
      "Look at the job in the project's dashboard."
    ],
    [
      'failed',
      { ending: 'final', job: job('failed'), jobId: 'job_7' },
      '❌ Failed',
      "Look at the job in the project's dashboard, then run again"
    ],
    [
      'archived',
      { ending: 'final', job: job('archived'), jobId: 'job_7' },
      '🗄️ Archived',
      "Look at the job in the project's dashboard to see how far it got."
    ],
    [
      'timed out',
      { ending: 'timeout', job: job('active'), jobId: 'job_7' },
      '⏱️ Timed out: the job is still running',
      `To follow it again, ${FOLLOW}, or raise timeout.`
    ],
    [
      'cancelled with a job',
      { ending: 'cancelled', job: job('active'), jobId: 'job_7' },
      '🛑 Cancelled: the job is still running',
      `To follow it again, ${FOLLOW}.`
    ],
    [
      'cancelled mid-create (where to look is the next step)',
      { ending: 'cancelled', job: null, jobId: '', writeInFlight: true },
      '🛑 Cancelled: a job may have been created',
      "If it was, it keeps running on the service: look for it among the project's newest jobs before asking again."
    ],
    [
      'cancelled before a job',
      { ending: 'cancelled', job: null, jobId: '' },
      '🛑 Cancelled: nothing was created',
      'Run the workflow again'
    ],
    [
      'not followed',
      { ending: 'created', job: job('active'), jobId: 'job_7' },
      '🚀 Created: the job, not followed',
      `To follow it, ${FOLLOW}.`
    ],
    [
      'a message not followed',
      { ending: 'created', job: job('active'), jobId: 'job_7', followUp: true },
      '📨 Sent: the follow-up message, not followed',
      `To follow the job, ${FOLLOW}.`
    ],
    [
      'no sign',
      { ending: 'noSign', job: job('completed', PR), jobId: 'job_7', waitedMs: 5000 },
      '⚠️ No sign of work yet',
      'before sending the message again'
    ],
    [
      'a refused key (the reason says what to do)',
      {
        ending: 'error',
        job: null,
        jobId: '',
        reason: 'The service rejected the API key (HTTP 401): update the secret.'
      },
      '❌ Failed: nothing was created',
      null
    ],
    [
      'a lost create',
      { ending: 'error', job: null, jobId: '', failure: 'uncertain', reason: 'Check the jobs.' },
      '❌ Failed: a job may have been created',
      null
    ],
    [
      'an unread create',
      { ending: 'error', job: null, jobId: '', failure: 'takenUnread', reason: 'Find it.' },
      '❌ Failed: a job was created, but its id is unknown',
      null
    ],
    [
      'a failed follow (the reason does not name the job, so the heading does)',
      { ending: 'error', job: job('active'), jobId: 'job_7', reason: 'The service is down.' },
      '❌ Failed: following job job_7',
      null
    ],
    [
      'a failed follow whose reason names the job',
      { ending: 'error', job: job('active'), jobId: 'job_7', reason: 'Job job_7 was not found.' },
      '❌ Failed: following the job',
      null
    ],
    [
      'a failed message',
      { ending: 'error', job: null, jobId: 'job_7', followUp: true, reason: 'Refused.' },
      '❌ Failed: the follow-up message to job job_7',
      null
    ],
    [
      'a dry run',
      { ending: 'dry-run', job: null, jobId: '' },
      '🧪 Dry run: the prompt, not sent',
      'Set dryRun to false to create the job.'
    ],
    [
      'a dry run of a message',
      { ending: 'dry-run', job: null, jobId: 'job_7', followUp: true },
      '🧪 Dry run: the follow-up message, not sent',
      'Set dryRun to false to send it.'
    ]
  ])('%s', (_, outcome, heading, next) => {
    const verdict = describeEnding(outcome)
    expect(verdict.heading).toBe(heading)
    if (next === null) expect(verdict.next).toBeNull()
    else expect(verdict.next).toContain(next)
    // The heading and the next step never name the job that the sentence names.
    if (outcome.ending !== 'error') expect(`${verdict.heading} ${verdict.next ?? ''}`).not.toContain('job_7')
  })
})

describe('whether an ending followed a job', () => {
  it('is true once a job was followed, and false for a dry run, a job not followed, or no job', () => {
    expect(describeEnding({ ending: 'timeout', job: job('active'), jobId: 'job_7' }).followed).toBe(true)
    expect(describeEnding({ ending: 'final', job: job('completed'), jobId: 'job_7' }).followed).toBe(true)
    expect(describeEnding({ ending: 'created', job: job('active'), jobId: 'job_7' }).followed).toBe(false)
    expect(describeEnding({ ending: 'dry-run', job: null, jobId: 'job_7' }).followed).toBe(false)
    expect(describeEnding({ ending: 'error', job: null, jobId: '' }).followed).toBe(false)
  })
})

describe('a job handed over: one next step, the same in the summary and on the thread', () => {
  const handedOver = (ending: 'created' | 'timeout', reporterKnown: boolean): RunOutcome => ({
    ending,
    job: job('active'),
    jobId: 'job_7',
    handedOver: { reporterKnown }
  })
  it.each([
    ['created', true],
    ['timeout', true],
    ['created', false],
    ['timeout', false]
  ] as const)('%s, a reporting run known: %s', (ending, known) => {
    const outcome = handedOver(ending, known)
    const { next } = describeEnding(outcome)
    expect(describeThreadEnding(outcome, '/docs', next).next).toBe(next)
    if (known) {
      expect(next).toBe(
        "Nothing to do: the repository's reporting run (report: pending) tells its ending where it was asked for, once it reads the job."
      )
    } else {
      // Nothing promises an ending no run will tell: how to get it instead.
      expect(next).toBe(
        'No reporting run has recorded itself in this repository yet, so nothing will tell its ending: add the ' +
          'report-later workflow (examples/workflows/report-later.yml, with report: pending), or follow the job with a ' +
          'run of this action given its id as jobId and no prompt.'
      )
    }
  })
})
