// The note on the agent's own pull request, written and read here: the note's text (leaveAgentNote in
// agent-note.ts posts it when the job has ended) and its hidden marker, which a comment on that pull
// request (thread-job.ts, through thread-record.ts) reads back to find the job that opened it. The
// marker names the job and carries an HMAC keyed from the API key over this GitHub's host, the
// repository, the pull request's number, the project and the job id: a comment goes to a job only when
// a marker on its pull request verifies for all five. Who wrote the comment that holds it does not
// matter, and is not guessed: a marker written without the key, copied to another pull request or
// repository, or left for another project, names no job here. What the signature proves, and what it
// does not, is in docs/security.md.
import { signFields } from '../safety/sign-fields.js'
import { listCommentsOldestFirst } from '../github/comment-pages.js'
import type { GitHubReader } from '../github/reader.js'
import type { Permission } from '../github/read-failure.js'
import { AGENT_PULL_REQUEST_READS, type PullRequestRef } from '../github/pull-request-details.js'
import { isJobId, MAX_JOB_ID_LENGTH } from '../safety/job-id.js'
import { decodeId, encodeId, sameText, type NoteKey, type NotePlace } from '../github/note-place.js'
import { eventNameOf } from '../github/event.js'
import { login } from '../github/json-shape.js'
import { runLink } from '../github/octokit.js'
import type { Runner } from '../github/runner.js'
import { FRESH_FLAG } from '../kernel/comment-settings.js'
import { neutralise } from '../safety/neutralise.js'
import { oneLineCodeSpan } from '../safety/quote-for-agent.js'
import { blankSecrets } from '../safety/run-secrets.js'
import type { TriggeringComment } from './trigger.js'

// The marker: the job id percent-encoded (so no id can end the HTML comment or hold a blank), then
// the signature's version and the signature, base64url. Its pattern takes any id a job may have: a
// character takes at most 4 bytes of UTF-8, each written as 3 characters (`%F0`), so 200 of them
// (safety/job-id.ts) at most 2,400.
const NOTE_VERSION = 'docs-agent-note-v1'
const MAX_ENCODED_ID = MAX_JOB_ID_LENGTH * 4 * 3
const MARKER = new RegExp(
  `<!-- docs-agent-job: ([^\\s<>]{1,${MAX_ENCODED_ID}})(?: v1\\.([A-Za-z0-9_-]{1,100}))? -->`,
  'g'
)
const { maxPages } = AGENT_PULL_REQUEST_READS

/**
 * The signature of a note: HMAC-SHA256 under a key derived from the API key (never the key itself:
 * HMAC(apiKey, "docs-agent-note-v1")), over the host, the repository, the pull request's number, the
 * project and the job id. Names are compared as GitHub does, whatever their case.
 */
export function noteSignature({ apiKey }: NoteKey, place: NotePlace, jobId: string): string {
  return signFields(apiKey, NOTE_VERSION, [
    place.host.toLowerCase(),
    `${place.pr.owner}/${place.pr.repo}`.toLowerCase(),
    place.pr.number,
    place.projectId,
    jobId
  ])
}

/** The hidden marker that names the job in the action's note, signed for its place. */
export function signMarker(key: NoteKey, place: NotePlace, jobId: string): string {
  return `<!-- docs-agent-job: ${encodeId(jobId)} v1.${noteSignature(key, place, jobId)} -->`
}

/**
 * The job ids the markers in `body` name, each with whether its signature verifies for `place`
 * under this key. A marker whose id cannot be a job id names none.
 */
export function readMarkedJobs(body: string, key: NoteKey, place: NotePlace): { jobId: string; verified: boolean }[] {
  const found: { jobId: string; verified: boolean }[] = []
  for (const [, encoded, signature] of body.matchAll(MARKER)) {
    const jobId = decodeId(encoded)
    if (jobId === null || !isJobId(jobId)) {
      found.push({ jobId: '', verified: false })
      continue
    }
    found.push({ jobId, verified: signature !== undefined && sameText(signature, noteSignature(key, place, jobId)) })
  }
  return found
}

/**
 * Whether a job's source (`source.repository`, a full URL) is the pull request's repository on this
 * GitHub: `https://host/owner/repo`, with or without `.git` or a trailing slash, in any case.
 */
export function isSourceOf(sourceRepository: string | null, pr: PullRequestRef, serverUrl: string): boolean {
  if (!sourceRepository) return false
  try {
    const source = new URL(sourceRepository)
    const server = new URL(serverUrl)
    const path = source.pathname.replace(/\/+$/, '').replace(/\.git$/, '')
    return (
      source.protocol === 'https:' &&
      source.host.toLowerCase() === server.host.toLowerCase() &&
      !source.username &&
      !source.search &&
      !source.hash &&
      path.toLowerCase() === `/${pr.owner}/${pr.repo}`.toLowerCase()
    )
  } catch {
    return false
  }
}

/** What a thread's comments are called in a read failure, and the permission reading them needs. */
export interface ThreadComments {
  what: string
  permission: Permission
}

const PULL_REQUEST_COMMENTS: ThreadComments = { what: "the pull request's comments", permission: 'pull-requests: read' }

/**
 * Every marker in a thread's comments (a pull request's, or an issue's), oldest first, within the page
 * cap, each with whether it verifies for this place: the one way the run lists a thread's comments
 * to find its notes. Whoever wrote the comment, only the signature counts.
 */
export async function readNotesOn(
  reader: GitHubReader,
  pr: PullRequestRef,
  {
    key,
    place,
    comments: { what, permission } = PULL_REQUEST_COMMENTS
  }: { key: NoteKey; place: NotePlace; comments?: ThreadComments }
): Promise<{ jobId: string; verified: boolean }[]> {
  const marked: { jobId: string; verified: boolean }[] = []
  await listCommentsOldestFirst(reader, pr, { what, permission, maxPages }, (comment) =>
    marked.push(...readMarkedJobs(comment.body, key, place))
  )
  return marked
}

/** Who asked for a job, kept for a note left later: the asking run's id, and what asked (requestedBy's words). */
export interface Asker {
  runId?: string
  what: string
}

/** What a note is written from. */
export interface NoteParts {
  /** The signed marker (and a group's) that a later run reads the job back from. */
  signedMarker: string
  jobId: string
  /** The comment (or label) that asked; null when the workflow's prompt did. */
  comment: TriggeringComment | null
  trigger: string
  /** The address of the GitHub the note is read on, for its links. */
  serverUrl: string
  runner: Runner
  /** The group the job works for, when it has one. */
  group?: string
  /** Who asked, when the note is left by another run than the one that asked (a reporting run). */
  asker?: Asker
}

/** The note's text. Its words are the action's own; the event's values only as checked tokens or code spans. */
export function noteBody({
  signedMarker,
  jobId,
  comment,
  trigger,
  serverUrl,
  runner,
  group,
  asker
}: NoteParts): string {
  const repository = comment?.repository ?? runner.repository
  const runId = asker ? asker.runId : runner.runId
  const run = /^[\w.-]+\/[\w.-]+$/.test(repository)
    ? `[workflow run](${runLink(serverUrl, repository, runId)})`
    : 'workflow run'
  const asked = asker ? asker.what : requestedBy(comment, runner)
  return blankSecrets(
    `${signedMarker}\n📝 Documentation agent job ${oneLineCodeSpan(neutralise(jobId))} opened this pull request, asked for by a ${run}` +
      `${asked ? ` (${asked})` : ''}.\n\n` +
      `To ask for changes, comment \`${trigger} <what to change>\` here: the instruction goes to the same job, ` +
      `which updates this pull request. \`${trigger} ${FRESH_FLAG} <instruction>\` starts a new job instead.` +
      (group
        ? `\n\nThis is the docs pull request of group ${oneLineCodeSpan(group)}: while it is open, later runs with that group ` +
          `send their changes to the same job.`
        : '')
  )
}

/** What started the run: the comment, or the push's range, or the event's name; the words a note says it with. */
export function requestedBy(comment: TriggeringComment | null, runner: Runner): string {
  if (comment?.kind === 'label') {
    const who = login(comment.author)
    return `${who ? `@${who}'s` : 'a'} label on [${comment.thread.kind} #${comment.thread.number}](${comment.thread.url})`
  }
  if (comment) {
    const anchor =
      comment.kind === 'review comment'
        ? `discussion_r${comment.id}`
        : comment.kind === 'review'
          ? `pullrequestreview-${comment.id}`
          : `issuecomment-${comment.id}`
    const who = login(comment.author)
    return `${who ? `@${who}'s` : 'a'} [${comment.kind}](${comment.thread.url}#${anchor}) on [${comment.thread.kind} #${comment.thread.number}](${comment.thread.url})`
  }
  const { event } = runner
  if (event.name === 'push') {
    const before = event.before.slice(0, 7)
    const after = event.after.slice(0, 7)
    const branch = runner.refName ? ` to ${oneLineCodeSpan(runner.refName, 100)}` : ''
    return before && after && !/^0+$/.test(before) ? `the push of ${before}..${after}${branch}` : `a push${branch}`
  }
  const name = eventNameOf(event)
  return /^[a-z_]{1,40}$/.test(name) ? `a ${name} event` : ''
}
