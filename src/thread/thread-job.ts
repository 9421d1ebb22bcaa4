// A thread keeps its job: an issue or pull request where a request (a /docs comment, a label) asked
// for a job holds the action's reply to it, and the reply carries the thread's record of the job
// (github/signed-record.ts), signed as soon as the job is known and bound to the reply's comment. A
// later request on that thread goes to the job as a follow-up while the record is open and the job
// can still take one: not archived or failed, and its pull request (if it opened one) still open. A
// record the run's ending made final (no changes, failed, archived) sends the next request to a new
// job. The newest comment holding a verified record (or the note on the agent's own pull request, or
// a note left on the thread by an earlier version) wins, read newest page first on a thread of any
// length. Only the signature counts: a copied or forged record routes nothing.
import type { ListedThreadComment } from '../github/comment-pages.js'
import { repositoryPath } from '../github/pull-request-ref.js'
import { asObject } from '../github/json-shape.js'
import type { GitHubReader, ReadLimits } from '../github/reader.js'
import { failureClause, ReadFailure } from '../github/read-failure.js'
import { Input } from '../kernel/action-names.js'
import { FRESH_FLAG } from '../kernel/comment-settings.js'
import type { Settings } from '../kernel/settings.js'
import type { PullRequestRef } from '../github/pull-request-details.js'
import { ActionError } from '../runtime/errors.js'
import { formatDuration } from '../runtime/duration.js'
import { log } from '../runtime/log.js'
import { parsePullRequestLink } from '../github/note-place.js'
import { readThreadRecord, threadOf, THREAD_RECORD_PAGES } from './thread-record.js'
import type { TriggeringComment } from './trigger.js'
import type { Runner } from '../github/runner.js'
import type { GitHubSession } from '../github/session.js'
import { endedForGood } from '../service/job-record.js'

/** What the routing needs to know of a job: the service is a later layer, so main.ts hands the read down. */
export type ReadJob = (jobId: string, signal: AbortSignal) => Promise<{ status: string; prLink: string | null }>

/** What the run's reads of the thread may cost the create: a share of the timeout, never all of it. */
const THREAD_READS = {
  maxPages: THREAD_RECORD_PAGES,
  requestMs: 5000,
  totalMs: 8000,
  shareOfTimeout: 1 / 4,
  leastMs: 1000
} as const

/**
 * What the request's thread says of where it goes: `kept`, the job it keeps, to send the request to as
 * a follow-up (`via: 'note'` on the job's own pull request, `'thread'` elsewhere); `none`, no job of the
 * thread's takes it (`left`: why the job it had does not, for the caller to say with what it does
 * instead; null when no record verifies there; `firstPage`: the thread's oldest comments, as read on
 * the way, where a group's status comment is); `unseen`, GitHub did not answer within the reads'
 * share of the timeout (said): the request starts a new job, with nothing more read.
 */
export type ThreadJob =
  | { kind: 'kept'; jobId: string; via: 'note' | 'thread' }
  | { kind: 'none'; left: string | null; firstPage: ListedThreadComment[] }
  | { kind: 'unseen' }

const NONE: Extract<ThreadJob, { kind: 'none' }> = { kind: 'none', left: null, firstPage: [] }

/**
 * The job the request's thread keeps (see ThreadJob): none when no record verifies there, the thread's
 * job is done with, has ended, or its pull request is closed. `readJob` is null in a dry run: the record
 * alone then names the job. The thread is read within a share of the timeout (threadReadMs); when
 * GitHub does not answer within it, the request starts a new job, saying so. When a pull request's
 * comments cannot be read otherwise, it throws: the run sends nothing rather than guess; on an issue,
 * the request starts a new job, with a notice.
 */
export async function findThreadJob(
  request: TriggeringComment,
  settings: Pick<Settings, 'githubToken' | 'apiKey' | 'projectId' | 'noteTrigger' | 'timeoutMs'>,
  { readJob, signal, github }: { readJob: ReadJob | null; signal: AbortSignal; github: GitHubSession }
): Promise<ThreadJob> {
  const reader = openThreadReader(settings, signal, github)
  if (!reader) return NONE
  const thread = threadOf(request)
  const where = `${request.thread.kind === 'issue' ? 'Issue' : 'Pull request'} #${thread.number}`
  const trigger = settings.noteTrigger
  try {
    const found = await readThreadRecord(reader, request, settings, github)
    const { jobId } = found
    if (!jobId) {
      if (found.unverified > 0) log.notice(unverifiedNotice(where, settings.projectId, trigger))
      if (!found.complete) log.notice(unreadPagesNotice(where))
      return { ...NONE, firstPage: found.firstPage }
    }
    const { firstPage } = found
    if (found.state !== 'open') {
      const left = `${where}'s last job, ${jobId}, is done with (its reply there says how it ended)`
      return { kind: 'none', left, firstPage }
    }
    const kept = await stillTakesMessages(jobId, thread, { reader, readJob, signal, runner: github })
    if (kept === 'own pull request') {
      log.info(
        `Pull request #${thread.number} was opened by job ${jobId} (from the action's signed note on it): the instruction ` +
          `goes to that job as a follow-up. A comment starting with "${FRESH_FLAG}" after the trigger starts a new job instead.`
      )
      return { kind: 'kept', jobId, via: 'note' }
    }
    if (kept !== 'yes') return { kind: 'none', left: `${where} kept job ${jobId}, ${kept}`, firstPage }
    log.info(
      `${where} keeps job ${jobId} (from the action's signed record there): this request goes to it as a follow-up ` +
        `message. "${trigger} ${FRESH_FLAG} <instruction>" starts a new job instead, which the thread then keeps.`
    )
    return { kind: 'kept', jobId, via: 'thread' }
  } catch (error) {
    if (!(error instanceof ReadFailure)) throw error
    if (error.kind === 'cancelled') return { kind: 'unseen' }
    // GitHub silent: its silence must not change the job's outcome. The create goes out, in time.
    if (error.kind === 'timeout') {
      log.warning(
        `Could not see ${where.toLowerCase()}'s earlier job: GitHub did not answer within ` +
          `${formatDuration(threadReadMs(settings.timeoutMs))}, the most reading the thread may hold up the create. ` +
          `This request starts a new job; if the thread had a job working, it now has two.`
      )
      return { kind: 'unseen' }
    }
    // An issue's request started a new job before threads kept jobs, and GitHub's trouble must not
    // stop it now: it still does, saying so.
    if (request.thread.kind === 'issue') {
      log.notice(
        `Could not tell whether issue #${thread.number} keeps a job: ${failureClause(error, Input.githubToken)}. ` +
          `This request starts a new job; to send it to the issue's job instead, ask again once GitHub answers.`
      )
      return { kind: 'unseen' }
    }
    // On a pull request, undecided, nothing is sent: a new job beside the agent's could open a second pull request.
    throw new ActionError(
      `Could not tell whether ${where.toLowerCase()} keeps a job: ${failureClause(error, Input.githubToken)}. ` +
        `Nothing was sent to the service. Ask again, or start a new job there with "${trigger} ${FRESH_FLAG} <instruction>".`
    )
  } finally {
    await reader.close()
  }
}

/**
 * The job the thread's newest record names when it was asked for by this same request text (a
 * label's request: GitHub sends both `opened` and `labeled` for an issue opened with its label); ''
 * otherwise, or when the thread cannot be read within its bound (the request then goes on).
 */
export async function findRepeatedAsk(
  request: TriggeringComment,
  asked: string,
  {
    settings,
    signal,
    github
  }: {
    settings: Pick<Settings, 'githubToken' | 'apiKey' | 'projectId' | 'timeoutMs'>
    signal: AbortSignal
    github: GitHubSession
  }
): Promise<string> {
  const reader = openThreadReader(settings, signal, github)
  if (!reader) return ''
  try {
    const found = await readThreadRecord(reader, request, settings, github)
    return found.jobId && found.asked === asked ? found.jobId : ''
  } catch (error) {
    if (!(error instanceof ReadFailure)) throw error
    return ''
  } finally {
    await reader.close()
  }
}

/**
 * How long reading the thread may hold up the create: a share of the timeout, at most the reads' own
 * bound. Finding the group's job of a code pull request takes as much again, at most (code-pull-group.ts).
 */
export function threadReadMs(timeoutMs: number): number {
  return Math.min(THREAD_READS.totalMs, Math.max(THREAD_READS.leastMs, timeoutMs * THREAD_READS.shareOfTimeout))
}

function openThreadReader(
  { timeoutMs }: Pick<Settings, 'timeoutMs'>,
  signal: AbortSignal,
  github: GitHubSession
): GitHubReader | null {
  if (!github.token) return null
  const totalMs = threadReadMs(timeoutMs)
  const limits: ReadLimits = {
    // The pages of the thread, then the job's pull request.
    maxRequests: THREAD_READS.maxPages + 1,
    totalMs,
    requestMs: Math.min(THREAD_READS.requestMs, totalMs),
    maxBodyBytes: 8 * 1024 * 1024
  }
  return github.reader(limits, signal)
}

/**
 * Whether the noted job still takes the thread's requests: always on its own pull request (as
 * before threads kept jobs); elsewhere unless it has ended or its pull request is closed. A read that
 * fails keeps the job: the message itself then says whether the job takes it.
 */
async function stillTakesMessages(
  jobId: string,
  thread: PullRequestRef,
  {
    reader,
    readJob,
    signal,
    runner
  }: { reader: GitHubReader; readJob: ReadJob | null; signal: AbortSignal; runner: Pick<Runner, 'serverUrl'> }
): Promise<'yes' | 'own pull request' | string> {
  if (!readJob) return 'yes'
  let job: { status: string; prLink: string | null }
  try {
    job = await readJob(jobId, signal)
  } catch {
    return 'yes'
  }
  const pr = job.prLink ? parsePullRequestLink(job.prLink, runner.serverUrl) : null
  if (pr && samePullRequest(pr, thread)) return 'own pull request'
  if (endedForGood(job.status)) return `but that job is ${job.status} and takes no more messages`
  if (!pr) return 'yes'
  try {
    const path = `${repositoryPath(pr)}/pulls/${pr.number}`
    const pull = asObject(await reader.get(path, "the job's pull request", 'pull-requests: read'))
    if (pull.state !== 'closed') return 'yes'
    return `but its pull request #${pr.number} is ${pull.merged === true ? 'merged' : 'closed'}`
  } catch (error) {
    if (!(error instanceof ReadFailure) || error.kind === 'cancelled') throw error
    return 'yes'
  }
}

function samePullRequest(a: PullRequestRef, b: PullRequestRef): boolean {
  return a.number === b.number && `${a.owner}/${a.repo}`.toLowerCase() === `${b.owner}/${b.repo}`.toLowerCase()
}

function unreadPagesNotice(where: string): string {
  return (
    `${where} has more comments than the ${THREAD_READS.maxPages} pages of them read before the create, newest first, ` +
    `and none of those holds a record of a job: this request starts a new job, which the thread then keeps.`
  )
}

function unverifiedNotice(where: string, projectId: string, trigger: string): string {
  return (
    `${where} has a record naming a documentation agent job that does not verify for this ` +
    `repository, thread, comment and project (${projectId}): another project's, one signed with an ` +
    `API key since rotated, a copy, or a forgery. It is ignored, and this request starts a new job. To send an ` +
    `instruction to a job you know instead, run the workflow with ${Input.jobId} set to its id; ` +
    `"${trigger} ${FRESH_FLAG} <instruction>" starts a new job without looking for a note.`
  )
}
