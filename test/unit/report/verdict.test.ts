// The verdict at the top of the job summary (describeEnding in src/report/run-ending.ts): for every ending, what happened
// first, the job when there is one, and a next step a person can act on.
import { describe, expect, it } from 'vitest'
import type { Job } from '../../../src/service/job-record.js'
import { describeEnding, type RunOutcome } from '../../../src/report/run-ending.js'

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
const FOLLOW_AGAIN = 'To follow it again, run this action with jobId: job_7 and no prompt'

describe('the verdict of an ending: the summary heading and next step', () => {
  it.each<[string, RunOutcome, string, string]>([
    [
      'a pull request',
      { ending: 'final', job: job('completed', PR), jobId: 'job_7' },
      '✅ Completed: job job_7 opened pull request #9',
      `Review the pull request: ${PR}`
    ],
    [
      'a follow-up done',
      { ending: 'final', job: job('completed', PR), jobId: 'job_7', followUp: true },
      '✅ Completed: job job_7 took the follow-up message',
      'Review the pull request'
    ],
    [
      'no changes',
      { ending: 'final', job: job('completed'), jobId: 'job_7' },
      '☑️ Completed: job job_7 opened no pull request',
      'Nothing to review'
    ],
    [
      'no changes under requirePr',
      { ending: 'final', job: job('completed'), jobId: 'job_7', requirePr: true },
      '❌ Failed (requirePr is true): job job_7 opened no pull request',
      'Nothing to review'
    ],
    [
      'a refused link',
      { ending: 'final', job: job('completed', null, { refusedPrLink: 'x' }), jobId: 'job_7' },
      '⚠️ Completed: job job_7 gave a link that is not a pull request',
      "Look at job job_7 in the project's dashboard"
    ],
    [
      'failed',
      { ending: 'final', job: job('failed'), jobId: 'job_7' },
      '❌ Failed: job job_7',
      "Look at job job_7 in the project's dashboard, then run again"
    ],
    [
      'archived',
      { ending: 'final', job: job('archived'), jobId: 'job_7' },
      '🗄️ Archived: job job_7',
      "Look at job job_7 in the project's dashboard"
    ],
    [
      'timed out',
      { ending: 'timeout', job: job('active'), jobId: 'job_7' },
      '⏱️ Timed out: job job_7 is still running',
      `${FOLLOW_AGAIN}, or raise timeout.`
    ],
    [
      'cancelled with a job',
      { ending: 'cancelled', job: job('active'), jobId: 'job_7' },
      '🛑 Cancelled: job job_7 is still running',
      `${FOLLOW_AGAIN}.`
    ],
    [
      'cancelled mid-create',
      { ending: 'cancelled', job: null, jobId: '', writeInFlight: true },
      '🛑 Cancelled: a job may have been created',
      "check the project's jobs"
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
      '🚀 Created: job job_7, not followed',
      'To follow it, run this action with jobId: job_7 and no prompt.'
    ],
    [
      'a message not followed',
      { ending: 'created', job: job('active'), jobId: 'job_7', followUp: true },
      '📨 Sent: the follow-up message to job job_7, not followed',
      'To follow it'
    ],
    [
      'no sign',
      { ending: 'noSign', job: job('completed', PR), jobId: 'job_7', waitedMs: 5000 },
      '⚠️ No sign of work: job job_7 still shows its earlier result',
      'before sending the message again'
    ],
    [
      'a refused key',
      {
        ending: 'error',
        job: null,
        jobId: '',
        reason: 'The service rejected the API key (HTTP 401): update the secret.'
      },
      '❌ Failed: nothing was created',
      'The service rejected the API key (HTTP 401): update the secret.'
    ],
    [
      'a lost create',
      { ending: 'error', job: null, jobId: '', failure: 'uncertain', reason: 'Check the jobs.' },
      '❌ Failed: a job may have been created',
      'Check the jobs.'
    ],
    [
      'an unread create',
      { ending: 'error', job: null, jobId: '', failure: 'takenUnread', reason: 'Find it.' },
      '❌ Failed: a job was created, but its id is unknown',
      'Find it.'
    ],
    [
      'a failed follow',
      { ending: 'error', job: job('active'), jobId: 'job_7', reason: 'The service is down.' },
      '❌ Failed: following job job_7',
      'The service is down.'
    ],
    [
      'a failed message',
      { ending: 'error', job: null, jobId: 'job_7', followUp: true, reason: 'Refused.' },
      '❌ Failed: the follow-up message to job job_7',
      'Refused.'
    ],
    [
      'a dry run',
      { ending: 'dry-run', job: null, jobId: '' },
      '🧪 Dry run: nothing was sent',
      'Set dryRun to false to create the job.'
    ],
    [
      'a dry run of a message',
      { ending: 'dry-run', job: null, jobId: 'job_7', followUp: true },
      '🧪 Dry run: nothing was sent to job job_7',
      'Set dryRun to false to send it.'
    ]
  ])('%s', (_, outcome, heading, next) => {
    const verdict = describeEnding(outcome)
    expect(verdict.heading).toBe(heading)
    expect(verdict.next).toContain(next)
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
