// A thread keeps its job: an issue or pull request where a request (a /docs comment, a label) started
// a job holds the action's signed note naming it (report/thread-note.ts writes it; the note on the
// agent's own pull request is the same kind of marker). A later request on that thread goes to the
// job as a follow-up while the job can still take one: not archived or failed, and its pull request
// (if it opened one) still open. The newest note that verifies wins, so a job started with
// `/docs --new` is the one the thread keeps from then on. Only the signature counts, as for the
// agent's pull request (comment/agent-pull-request.ts): a copied or forged marker routes nothing.
import { asObject } from '../github/json-shape.js'
import type { GitHubReader } from '../github/reader.js'
import { failureClause, ReadFailure, type Permission } from '../github/read-failure.js'
import { Input } from '../inputs/action-names.js'
import { FRESH_FLAG } from '../inputs/comment-settings.js'
import type { Settings } from '../inputs/settings.js'
import type { PullRequestRef } from '../github/pull-request-details.js'
import { ActionError } from '../runtime/errors.js'
import { log } from '../runtime/log.js'
import {
  readNotesOn,
  openReader,
  findNotePlace,
  parsePullRequestLink,
  type NoteKey,
  type NotePlace
} from './agent-pull-request.js'
import type { TriggeringComment } from './trigger.js'
import type { Runner } from '../github/runner.js'

/** What the routing needs to know of a job: the service is a later layer, so main.ts hands the read down. */
export type ReadJob = (jobId: string, signal: AbortSignal) => Promise<{ status: string; prLink: string | null }>

/** Statuses of a job that takes no more messages. */
const ENDED = new Set(['archived', 'failed'])

/**
 * The job the request's thread keeps, to send the request to as a follow-up (`via: 'note'` on the
 * job's own pull request, `'thread'` elsewhere); null to start a new one (no note verifies there, or
 * its job has ended or its pull request is closed). `readJob` is null in
 * a dry run: the note alone then names the job. When a pull request's comments cannot be read, it
 * throws: the run sends nothing rather than guess; on an issue, the request starts a new job, with a notice.
 */
export async function findThreadJob(
  request: TriggeringComment,
  settings: Pick<Settings, 'githubToken' | 'apiKey' | 'projectId' | 'noteTrigger'>,
  readJob: ReadJob | null,
  signal: AbortSignal,
  runner: Runner
): Promise<{ jobId: string; via: 'note' | 'thread' } | null> {
  const { githubToken: token } = settings
  if (!token) return null
  const [owner, repo] = request.repository.split('/')
  const thread: PullRequestRef = { owner, repo, number: request.thread.number }
  const place = findNotePlace(thread, settings, runner)
  const reader = openReader(token, signal, runner)
  if (!reader || !place) return null
  const where = `${request.thread.kind === 'issue' ? 'Issue' : 'Pull request'} #${thread.number}`
  const trigger = settings.noteTrigger
  try {
    const notes = await notesOnThread(reader, request, settings, place)
    const jobId = notes.filter((note) => note.verified).at(-1)?.jobId ?? ''
    if (!jobId) {
      if (notes.length > 0) log.notice(unverifiedNotice(where, settings.projectId, trigger))
      return null
    }
    const kept = await stillTakesMessages(jobId, thread, reader, readJob, signal, runner)
    if (kept === 'own pull request') {
      log.info(
        `Pull request #${thread.number} was opened by job ${jobId} (from the action's signed note on it): the instruction ` +
          `goes to that job as a follow-up. A comment starting with "${FRESH_FLAG}" after the trigger starts a new job instead.`
      )
      return { jobId, via: 'note' }
    }
    if (kept !== 'yes') {
      log.info(`${where} kept job ${jobId}, ${kept}: this request starts a new job, which the thread then keeps.`)
      return null
    }
    log.info(
      `${where} keeps job ${jobId} (from the action's signed note there): this request goes to it as a follow-up ` +
        `message. "${trigger} ${FRESH_FLAG} <instruction>" starts a new job instead, which the thread then keeps.`
    )
    return { jobId, via: 'thread' }
  } catch (error) {
    if (!(error instanceof ReadFailure)) throw error
    if (error.kind === 'cancelled') return null
    // An issue's request started a new job before threads kept jobs, and GitHub's trouble must not
    // stop it now: it still does, saying so.
    if (request.thread.kind === 'issue') {
      log.notice(
        `Could not tell whether issue #${thread.number} keeps a job: ${failureClause(error, Input.githubToken)}. ` +
          `This request starts a new job; to send it to the issue's job instead, ask again once GitHub answers.`
      )
      return null
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

/** Every marker in the thread's comments (see readNotesOn), with the thread's own permission named on failure. */
function notesOnThread(
  reader: GitHubReader,
  request: TriggeringComment,
  key: NoteKey,
  place: NotePlace
): Promise<{ jobId: string; verified: boolean }[]> {
  const permission: Permission = request.thread.kind === 'issue' ? 'issues: read' : 'pull-requests: read'
  return readNotesOn(reader, place.pr, key, place, { what: "the thread's comments", permission })
}

/**
 * Whether the noted job still takes the thread's requests: always on its own pull request (as
 * before threads kept jobs); elsewhere unless it has ended or its pull request is closed. A read that
 * fails keeps the job: the message itself then says whether the job takes it.
 */
async function stillTakesMessages(
  jobId: string,
  thread: PullRequestRef,
  reader: GitHubReader,
  readJob: ReadJob | null,
  signal: AbortSignal,
  runner: Runner
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
  if (ENDED.has(job.status)) return `but that job is ${job.status} and takes no more messages`
  if (!pr) return 'yes'
  try {
    const path = `/repos/${encodeURIComponent(pr.owner)}/${encodeURIComponent(pr.repo)}/pulls/${pr.number}`
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

function unverifiedNotice(where: string, projectId: string, trigger: string): string {
  return (
    `${where} has a note naming a documentation agent job that does not verify for this ` +
    `repository, thread and project (${projectId}): another project's note, one signed with an ` +
    `API key since rotated, a copy, or a forgery. It is ignored, and this request starts a new job. To send an ` +
    `instruction to a job you know instead, run the workflow with ${Input.jobId} set to its id; ` +
    `"${trigger} ${FRESH_FLAG} <instruction>" starts a new job without looking for a note.`
  )
}
