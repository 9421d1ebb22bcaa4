// The agent's own pull request: the note the action leaves on it when a job opens it, and how a
// later comment on it finds that job again. The note's hidden marker names the job and carries a
// signature (an HMAC keyed from the API key) over this GitHub's host, the repository, the pull
// request's number, the project and the job id: a comment goes to a job only when a marker on its
// pull request verifies for all five. Who wrote the comment that holds it does not matter, and is
// not guessed: a marker written without the key, copied to another pull request or repository, or
// left for another project, names no job here. What the signature proves, and what it does not, is
// in docs/security.md.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { asArray, asObject, login, sha, text } from './change-context/json-shape.js'
import { codeSpan } from './change-context/outside-text.js'
import { readEventPayload } from './change-context/from-runner.js'
import { GitHubReader, type ReadLimits } from './change-context/github-reader.js'
import { failureClause, ReadFailure } from './change-context/read-failure.js'
import { loadOctokit, runLink } from './comment-reply.js'
import type { TriggeringComment } from './comment-trigger.js'
import { FRESH_FLAG } from './comment-trigger.js'
import { Input } from './constants.js'
import { timeLimit } from './deadline.js'
import { ActionError } from './errors.js'
import { readTriggerForNote, type Settings } from './inputs.js'
import { isJobId } from './job-record.js'
import { log } from './log.js'
import { blankSecrets } from './redact.js'
import { RetryPolicy } from './retry-policy.js'
import type { RunOutcome } from './run-ending.js'
import { neutralise } from './untrusted-text.js'

/** A pull request on the GitHub the workflow runs on. */
export interface PullRequestRef {
  owner: string
  repo: string
  number: number
}

/** What a note's signature covers besides the job: where the note is, and for which project. */
export interface NotePlace {
  /** The host of the GitHub the workflow runs on (GITHUB_SERVER_URL's). */
  host: string
  pr: PullRequestRef
  projectId: string
}

/** Who may sign and check notes: the project's API key, from which the note key is derived. */
type NoteKey = Pick<Settings, 'apiKey'>

// The marker: the job id percent-encoded (so no id can end the HTML comment or hold a blank), then
// the signature's version and the signature, base64url.
const NOTE_VERSION = 'docs-agent-note-v1'
const MARKER = /<!-- docs-agent-job: ([^\s<>]{1,1200})(?: v1\.([A-Za-z0-9_-]{1,100}))? -->/g
const { maxPages, perPage, requestTimeoutMs, totalMs } = RetryPolicy.agentPullRequest
const LIMITS: ReadLimits = {
  maxRequests: maxPages + 1,
  totalMs,
  requestMs: requestTimeoutMs,
  maxBodyBytes: 8 * 1024 * 1024
}

/**
 * The signature of a note: HMAC-SHA256 under a key derived from the API key (never the key itself:
 * HMAC(apiKey, "docs-agent-note-v1")), over the host, the repository, the pull request's number, the
 * project and the job id. Names are compared as GitHub does, whatever their case.
 */
export function noteSignature({ apiKey }: NoteKey, place: NotePlace, jobId: string): string {
  const noteKey = createHmac('sha256', apiKey).update(NOTE_VERSION).digest()
  const covered = JSON.stringify([
    NOTE_VERSION,
    place.host.toLowerCase(),
    `${place.pr.owner}/${place.pr.repo}`.toLowerCase(),
    place.pr.number,
    place.projectId,
    jobId
  ])
  return createHmac('sha256', noteKey).update(covered).digest('base64url')
}

/** The hidden marker that names the job in the action's note, signed for its place. */
export function marker(key: NoteKey, place: NotePlace, jobId: string): string {
  return `<!-- docs-agent-job: ${encodeId(jobId)} v1.${noteSignature(key, place, jobId)} -->`
}

/**
 * The job ids the markers in `body` name, each with whether its signature verifies for `place`
 * under this key. A marker whose id cannot be a job id names none.
 */
export function markedJobs(body: string, key: NoteKey, place: NotePlace): { jobId: string; verified: boolean }[] {
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
 * The pull request a prLink names, when it is one on this GitHub (`serverUrl`'s host):
 * `https://host/owner/repo/pull/7`. A link to another host (GitLab, another GitHub) is not ours to note.
 */
export function pullRequestOf(prLink: string, serverUrl: string): PullRequestRef | null {
  let server: URL
  try {
    server = new URL(serverUrl)
  } catch {
    return null
  }
  const prefix = `https://${server.host}/`
  if (!prLink.startsWith(prefix)) return null
  const found = /^([A-Za-z0-9][A-Za-z0-9-]*)\/([A-Za-z0-9._-]+)\/pull\/([1-9][0-9]{0,9})$/.exec(
    prLink.slice(prefix.length)
  )
  return found ? { owner: found[1], repo: found[2], number: Number(found[3]) } : null
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

/**
 * The job whose note is on the pull request a comment is on, for an instruction that asks for changes
 * there; '' when the comment is not on a pull request, or no note there verifies for this repository,
 * pull request and project (a marker that does not verify is ignored, with one notice). When its
 * comments cannot be read, it throws: the run sends nothing rather than guess.
 */
export async function findAgentJob(
  comment: TriggeringComment,
  settings: Pick<Settings, 'githubToken' | 'apiKey' | 'projectId'>,
  signal: AbortSignal,
  env: NodeJS.ProcessEnv = process.env
): Promise<string> {
  const { githubToken: token } = settings
  if (!token || comment.thread.kind !== 'pull request') return ''
  const [owner, repo] = comment.repository.split('/')
  const pr = { owner, repo, number: comment.thread.number }
  const place = placeOf(pr, settings, env)
  const reader = openReader(token, signal, env)
  if (!reader || !place) return ''
  try {
    const notes = await notesOn(reader, pr, settings, place)
    const jobId = notes.filter((note) => note.verified).at(-1)?.jobId ?? ''
    if (jobId) {
      log.info(
        `Pull request #${pr.number} was opened by job ${jobId} (from the action's signed note on it): the instruction ` +
          `goes to that job as a follow-up. A comment starting with "${FRESH_FLAG}" after the trigger starts a new job instead.`
      )
    } else if (notes.length > 0) {
      const trigger = readTriggerForNote()
      log.notice(
        `Pull request #${pr.number} has a note naming a documentation agent job that does not verify for this ` +
          `repository, pull request and project (${settings.projectId}): another project's note, one signed with an ` +
          `API key since rotated, a copy, or a forgery. It is ignored, and this comment starts a new job. To send an ` +
          `instruction to a job you know instead, run the workflow with ${Input.jobId} set to its id; ` +
          `"${trigger} ${FRESH_FLAG} <instruction>" starts a new job without looking for a note.`
      )
    }
    return jobId
  } catch (error) {
    if (!(error instanceof ReadFailure)) throw error
    // A cancel, or the timeout: the run is ending, and says so itself.
    if (error.kind === 'cancelled') return ''
    // Undecided, nothing is sent: a new job beside the agent's pull request could open a second one,
    // and the instruction may have been meant for the job that opened it.
    throw new ActionError(
      `Could not tell whether pull request #${pr.number} is the agent's own: ${failureClause(error, Input.githubToken)}. ` +
        `Nothing was sent to the service. Ask again, or start a new job there with "${readTriggerForNote()} ${FRESH_FLAG} <instruction>".`
    )
  } finally {
    await reader.close()
  }
}

/**
 * Leaves the note on the pull request a job opened: its id (in the signed marker too), what asked for
 * it, and how to ask for changes. Only on a pull request on this GitHub, in the repository the job's
 * record names as its source (a link elsewhere is reported, never written to); once per job: a pull
 * request that has the job's note already (after a follow-up) gets none. It needs "pull-requests:
 * write" there; without it, one notice. Never throws.
 */
export async function leaveAgentNote(
  outcome: RunOutcome,
  settings: Pick<Settings, 'githubToken' | 'apiKey' | 'projectId'> | null,
  comment: TriggeringComment | null,
  signal: AbortSignal,
  env: NodeJS.ProcessEnv = process.env
): Promise<void> {
  const { job } = outcome
  if (!settings || outcome.ending !== 'final' || job?.status !== 'completed' || !job.prLink) return
  const jobId = job.id
  const serverUrl = env.GITHUB_SERVER_URL || 'https://github.com'
  const pr = pullRequestOf(job.prLink, serverUrl)
  if (!pr) return
  const trigger = readTriggerForNote()
  const where = `pull request #${pr.number} of ${pr.owner}/${pr.repo}`
  if (!isSourceOf(job.sourceRepository, pr, serverUrl)) {
    log.notice(
      `No note was left on ${where}: it is not in the repository job ${jobId} names as its source ` +
        `(${job.sourceRepository ?? 'none given'}), so the action does not write there. A later ${trigger} comment ` +
        `there starts a new job; to send the job an instruction, run this action with ${Input.jobId}.`
    )
    return
  }
  const { githubToken: token } = settings
  if (!token) {
    log.debug(`No note on ${where}: ${Input.githubToken} is empty.`)
    return
  }
  const place = placeOf(pr, settings, env)
  const reader = openReader(token, signal, env)
  if (!reader || !place) return
  try {
    const notes = await notesOn(reader, pr, settings, place)
    if (notes.some((note) => note.verified && note.jobId === jobId)) return
    const { octokit, serverUrl: server } = await loadOctokit(token)
    const body = noteBody(marker(settings, place, jobId), jobId, comment, trigger, server, env)
    // Held for the whole call (see timeLimit): a timeout signal held by a combined signal alone may be lost.
    const limit = timeLimit(requestTimeoutMs, signal)
    try {
      await octokit.rest.issues.createComment({
        owner: pr.owner,
        repo: pr.repo,
        issue_number: pr.number,
        body,
        request: { signal: limit.signal }
      })
    } finally {
      limit.clear()
    }
    log.info(`Left a note on ${where} naming job ${jobId}, for follow-ups with ${trigger}.`)
  } catch (error) {
    log.notice(
      `Could not leave a note on ${where} naming job ${jobId}: ${noteFailure(error)} ` +
        `A later ${trigger} comment there then starts a new job instead of a follow-up. The run is not affected.`
    )
  } finally {
    await reader.close()
  }
}

/** The note's text. Its words are the action's own; the event's values only as checked tokens or code spans. */
export function noteBody(
  signedMarker: string,
  jobId: string,
  comment: TriggeringComment | null,
  trigger: string,
  serverUrl: string,
  env: NodeJS.ProcessEnv = process.env
): string {
  const repository = comment?.repository ?? env.GITHUB_REPOSITORY ?? ''
  const run = /^[\w.-]+\/[\w.-]+$/.test(repository)
    ? `[workflow run](${runLink(serverUrl, repository, env.GITHUB_RUN_ID)})`
    : 'workflow run'
  const asked = requestedBy(comment, env)
  return blankSecrets(
    `${signedMarker}\n📝 Documentation agent job ${codeSpan(neutralise(jobId))} opened this pull request, asked for by a ${run}` +
      `${asked ? ` (${asked})` : ''}.\n\n` +
      `To ask for changes, comment \`${trigger} <what to change>\` here: the instruction goes to the same job, ` +
      `which updates this pull request. \`${trigger} ${FRESH_FLAG} <instruction>\` starts a new job instead.`
  )
}

/** What started the run: the comment, or the push's range, or the event's name. */
function requestedBy(comment: TriggeringComment | null, env: NodeJS.ProcessEnv): string {
  if (comment) {
    const anchor =
      comment.kind === 'review comment'
        ? `discussion_r${comment.id}`
        : comment.kind === 'review'
          ? `pullrequestreview-${comment.id}`
          : `issuecomment-${comment.id}`
    const who = login(comment.author)
    return `${who ? `@${who}'s` : 'a'} [${comment.kind}](${comment.thread.url}#${anchor}) on ${comment.thread.kind} #${comment.thread.number}`
  }
  const event = env.GITHUB_EVENT_NAME ?? ''
  if (event === 'push') {
    const payload = asObject(readEventPayload(env.GITHUB_EVENT_PATH))
    const before = sha(payload.before).slice(0, 7)
    const after = sha(payload.after).slice(0, 7)
    const branch = env.GITHUB_REF_NAME ? ` to ${codeSpan(env.GITHUB_REF_NAME, 100)}` : ''
    return before && after && !/^0+$/.test(before) ? `the push of ${before}..${after}${branch}` : `a push${branch}`
  }
  return /^[a-z_]{1,40}$/.test(event) ? `a ${event} event` : ''
}

/**
 * Every marker on the pull request's comments, oldest first, within the page cap, each with whether
 * it verifies for this place. Whoever wrote the comment, only the signature counts.
 */
async function notesOn(
  reader: GitHubReader,
  pr: PullRequestRef,
  key: NoteKey,
  place: NotePlace
): Promise<{ jobId: string; verified: boolean }[]> {
  const marked: { jobId: string; verified: boolean }[] = []
  const path = `/repos/${encodeURIComponent(pr.owner)}/${encodeURIComponent(pr.repo)}/issues/${pr.number}/comments`
  for (let page = 1; page <= maxPages; page++) {
    const comments = asArray(
      await reader.get(`${path}?per_page=${perPage}&page=${page}`, "the pull request's comments", 'pull-requests: read')
    )
    for (const entry of comments) marked.push(...markedJobs(text(asObject(entry).body), key, place))
    if (comments.length < perPage) break
  }
  return marked
}

/** Where a note is, for its signature: null when this GitHub's address cannot be read. */
function placeOf(
  pr: PullRequestRef,
  { projectId }: Pick<Settings, 'projectId'>,
  env: NodeJS.ProcessEnv
): NotePlace | null {
  try {
    return { host: new URL(env.GITHUB_SERVER_URL || 'https://github.com').host, pr, projectId }
  } catch {
    return null
  }
}

/** A job id as the marker holds it: percent-encoded, so no id can end the HTML comment or hold a blank. */
function encodeId(jobId: string): string {
  return encodeURIComponent(jobId).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}

function decodeId(encoded: string): string | null {
  try {
    return decodeURIComponent(encoded)
  } catch {
    return null
  }
}

/** Compares two signatures in constant time. */
function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

function openReader(token: string, signal: AbortSignal, env: NodeJS.ProcessEnv): GitHubReader | null {
  try {
    const url = new URL(env.GITHUB_API_URL || 'https://api.github.com')
    if (!/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash) return null
    return new GitHubReader(url.href, token, LIMITS, signal)
  } catch {
    return null
  }
}

function noteFailure(error: unknown): string {
  if (error instanceof ReadFailure) return `${failureClause(error, Input.githubToken)}.`
  const { status, message } = error as { status?: unknown; message?: unknown }
  const said = neutralise(typeof message === 'string' ? message : String(error), 200)
  if (status === 403 || status === 404) {
    return `HTTP ${status} (${said}); the token may not write there: the workflow needs "pull-requests: write" on that repository.`
  }
  return typeof status === 'number' ? `HTTP ${status} (${said}).` : `${said}.`
}
