// The thread's record of its job, written and read here: kept in the reply (comment-reply.ts), the
// job the run knows and what the thread keeps of it, signed into each body the live comment sends once
// the reply's id is known (github/signed-record.ts binds it to that comment); read back, newest first,
// by a later request on the thread (thread-job.ts routes it); and the warning when the reply could not
// be given its ending, naming what the next request there will do.
import {
  findRecordPlace,
  readRecords,
  signRecord,
  type RecordPayload,
  type RecordPlace,
  type RecordState
} from '../github/signed-record.js'
import { scanCommentsNewestFirst, type ListedThreadComment, type ThreadRef } from '../github/comment-pages.js'
import { findNotePlace } from '../github/note-place.js'
import type { Permission } from '../github/read-failure.js'
import type { GitHubReader } from '../github/reader.js'
import type { Runner } from '../github/runner.js'
import { readMarkedJobs } from './agent-note-record.js'
import type { TriggeringComment } from './trigger.js'
import type { Settings } from '../kernel/settings.js'

/** The thread's record of its job, signed into the reply by the live comment's stamp (see ThreadReply.keepRecord). */
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

/** How many pages of a thread's comments, newest first, are read for its record before the create. */
export const THREAD_RECORD_PAGES = 4

/** What the thread's newest record says: its job, whether it still takes requests, and the request it was asked by. */
export interface ThreadRecordRead {
  /** '' when no comment holds a verified record. */
  jobId: string
  /** `open` for a note on the agent's pull request or a note an earlier version left: they carry no state. */
  state: RecordState
  asked?: string
  /** Records and notes that did not verify, read on the way. */
  unverified: number
  /** Whether every page newer than the record (or than the oldest page read) was read. */
  complete: boolean
  /** The thread's first page of comments (its oldest), as read on the way. */
  firstPage: ListedThreadComment[]
}

/**
 * The newest record of the thread's job among its comments, read newest page first: the action's
 * reply that holds a record bound to it, or the note on the agent's pull request (or one an earlier
 * version left on the thread), whichever is newer, within THREAD_RECORD_PAGES pages. Throws the read's ReadFailure.
 */
export async function readThreadRecord(
  reader: GitHubReader,
  request: TriggeringComment,
  settings: Pick<Settings, 'apiKey' | 'projectId'>,
  runner: Pick<Runner, 'serverUrl'>
): Promise<ThreadRecordRead> {
  const thread = threadOf(request)
  const notePlace = findNotePlace(thread, settings, runner)
  const recordPlace = findRecordPlace(thread, settings, runner)
  const read: ThreadRecordRead = { jobId: '', state: 'open', unverified: 0, complete: true, firstPage: [] }
  if (!notePlace || !recordPlace) return read
  const permission: Permission = request.thread.kind === 'issue' ? 'issues: read' : 'pull-requests: read'
  const pages = { what: "the thread's comments", permission, maxPages: THREAD_RECORD_PAGES }
  const scan = await scanCommentsNewestFirst(reader, thread, pages, (comment) => {
    const records = readRecords(comment.body, {
      key: settings,
      place: recordPlace,
      kind: 'thread',
      commentId: comment.id
    })
    const notes = readMarkedJobs(comment.body, settings, notePlace)
    read.unverified += records.unverified + notes.filter((note) => !note.verified).length
    const record = records.records.at(-1)
    const note = notes.filter((n) => n.verified).at(-1)
    if (record) Object.assign(read, { jobId: record.job, state: record.state, asked: record.asked })
    else if (note) read.jobId = note.jobId
    return read.jobId !== ''
  })
  read.complete = scan.complete
  read.firstPage = scan.firstPage
  return read
}

/** The thread a request is on, as the comment pages read it. */
export function threadOf(request: TriggeringComment): ThreadRef {
  const [owner, repo] = request.repository.split('/')
  return { owner, repo, number: request.thread.number }
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
