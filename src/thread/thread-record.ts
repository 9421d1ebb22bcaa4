// The thread's record of its job, kept in the reply (comment-reply.ts): the job the run knows and
// what the thread keeps of it, signed into each body the live comment sends once the reply's id is
// known (github/signed-record.ts binds it to that comment), and the warning when the reply could not
// be given its ending, naming what the next request there will do.
import { findRecordPlace, signRecord, type RecordPayload, type RecordPlace } from '../github/signed-record.js'
import type { TriggeringComment } from './trigger.js'
import type { Runner } from '../github/runner.js'
import type { Settings } from '../inputs/settings.js'

/** The thread's record of its job, signed into the reply by the live comment's stamp (see CommentReplies.keepRecord). */
export interface ThreadRecord {
  keep(settings: Pick<Settings, 'apiKey' | 'projectId'>): void
  /** The job the run knows, and what the thread keeps of it (null: nothing, no record). */
  know(jobId: string, keeps: RecordPayload['state'] | null): void
  jobId(): string
  /** Whether a body with the record went to GitHub (sent: whether it was taken is GitHub's to say). */
  sent(): boolean
  stamp(body: string, commentId: number): string
}

export function threadRecord(
  comment: TriggeringComment,
  asked: string | undefined,
  runner: Pick<Runner, 'serverUrl'>
): ThreadRecord {
  let key: Pick<Settings, 'apiKey'> | null = null
  let place: RecordPlace | null = null
  let payload: RecordPayload | null = null
  let sent = false
  const [owner, repo] = comment.repository.split('/')
  return {
    keep: (settings) => {
      key = settings
      place = findRecordPlace({ owner, repo, number: comment.thread.number }, settings, runner)
    },
    know: (jobId, keeps) => {
      if (!jobId || !keeps) {
        if (keeps === null) payload = null
        return
      }
      const created = payload?.job === jobId ? payload.created : new Date().toISOString()
      payload = { job: jobId, state: keeps, created, ...(asked ? { asked } : {}) }
    },
    jobId: () => payload?.job ?? '',
    sent: () => sent,
    stamp: (body, commentId) => {
      // A review comment's reply lives in the review thread, apart from the conversation the next
      // request's look-up reads: it carries no record.
      if (!key || !place || !payload || comment.kind === 'review comment') return body
      sent = true
      const thread = { number: comment.thread.number, comment: commentId }
      return `${body}\n${signRecord({ key, place, kind: 'thread', commentId }, { ...payload, thread })}`
    }
  }
}

/** The warning when the reply could not be given its ending: what the thread still records, and so what the next request does. */
export function describeUnrecordedEnding(where: string, record: ThreadRecord, trigger: string): string {
  const id = record.jobId()
  const next = record.sent()
    ? `It may still record job ${id} as it was when the job was created: a later ${trigger} there then goes to ` +
      'that job while the job takes messages and its pull request is open, and otherwise starts a new job.'
    : `It does not record job ${id}: a later ${trigger} there starts a new job.`
  return `Could not give the reply on the ${where} the run's ending. ${next} The job is not affected.`
}
