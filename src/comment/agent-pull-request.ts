// The agent's own pull request: the note the action leaves on it when a job opens it, and how a
// later comment on it finds that job again. The job is found from the action's own note only: a
// comment by the identity the workflow's token writes as, carrying a hidden marker with a job id of
// the right shape. The same text by anyone else, or in the pull request's body, is not read.
import { asArray, asObject, login, sha, text } from '../github/json-shape.js'
import { codeSpan } from '../safety/quote-for-agent.js'
import { readEventPayload } from '../github/event.js'
import { GitHubReader, type ReadLimits } from '../github/reader.js'
import { failureClause, ReadFailure } from '../github/read-failure.js'
import { loadOctokit, runLink, type CommentReplies } from '../report/comment-reply.js'
import type { TriggeringComment } from './trigger.js'
import { FRESH_FLAG } from './trigger.js'
import { Input } from '../inputs/action-names.js'
import { ActionError } from '../runtime/errors.js'
import { readTriggerForNote, type Settings } from '../inputs/settings.js'
import { isJobId } from '../service/job-record.js'
import { log } from '../runtime/log.js'
import { blankSecrets } from '../safety/run-secrets.js'
import { RetryPolicy } from '../net/retry-policy.js'
import type { RunOutcome } from '../report/run-ending.js'
import { neutralise } from '../safety/neutralise.js'

/** A pull request on the GitHub the workflow runs on. */
export interface PullRequestRef {
  owner: string
  repo: string
  number: number
}

// The login GitHub shows for comments written with a workflow's GITHUB_TOKEN.
const GITHUB_TOKEN_LOGIN = 'github-actions[bot]'
const MARKER = /<!-- docs-agent-job: (\S{1,128}) -->/
const { maxPages, perPage, requestTimeoutMs, totalMs } = RetryPolicy.agentPullRequest
const LIMITS: ReadLimits = {
  maxRequests: maxPages + 1,
  totalMs,
  requestMs: requestTimeoutMs,
  maxBodyBytes: 8 * 1024 * 1024
}

/** The hidden marker that names the job in the action's note. */
export function marker(jobId: string): string {
  return `<!-- docs-agent-job: ${jobId} -->`
}

/** The job id a note's marker names, when it has the shape of one; null otherwise. */
export function markedJobId(body: string): string | null {
  const found = MARKER.exec(body)
  return found && isJobId(found[1]) ? found[1] : null
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
 * The job whose note is on the pull request a comment is on, for an instruction that asks for changes
 * there; '' when the comment is not on a pull request, or the pull request is not the agent's. When its
 * comments cannot be read, it throws: the run sends nothing rather than guess.
 */
export async function findAgentJob(
  comment: TriggeringComment,
  { githubToken: token }: Pick<Settings, 'githubToken'>,
  /** The run's reply: the token's login is the author of the reply it posted. */
  replies: Pick<CommentReplies, 'author'> | undefined,
  signal: AbortSignal,
  env: NodeJS.ProcessEnv = process.env
): Promise<string> {
  if (!token || comment.thread.kind !== 'pull request') return ''
  const [owner, repo] = comment.repository.split('/')
  const pr = { owner, repo, number: comment.thread.number }
  const reader = openReader(token, signal, env)
  if (!reader) return ''
  try {
    const notes = await notesOn(reader, pr, tokenLogin(reader, replies?.author() ?? Promise.resolve(null)))
    const jobId = notes.at(-1) ?? ''
    if (jobId) {
      log.info(
        `Pull request #${pr.number} was opened by job ${jobId} (from the action's note on it): the instruction goes ` +
          `to that job as a follow-up. A comment starting with "${FRESH_FLAG}" after the trigger starts a new job instead.`
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
 * Leaves the note on the pull request a job opened: its id (in the marker too), what asked for it,
 * and how to ask for changes. Once per job: a pull request that has the job's note already (after a
 * follow-up) gets none. It needs "pull-requests: write" there; without it, one notice. Never throws.
 */
export async function leaveAgentNote(
  outcome: RunOutcome,
  token: string,
  comment: TriggeringComment | null,
  replies: Pick<CommentReplies, 'author'> | undefined,
  signal: AbortSignal,
  env: NodeJS.ProcessEnv = process.env
): Promise<void> {
  const { job } = outcome
  if (outcome.ending !== 'final' || job?.status !== 'completed' || !job.prLink) return
  const jobId = job.id
  const pr = pullRequestOf(job.prLink, env.GITHUB_SERVER_URL || 'https://github.com')
  if (!pr) return
  const trigger = readTriggerForNote()
  const where = `pull request #${pr.number} of ${pr.owner}/${pr.repo}`
  if (!token) {
    log.debug(`No note on ${where}: ${Input.githubToken} is empty.`)
    return
  }
  const reader = openReader(token, signal, env)
  if (!reader) return
  try {
    const author = tokenLogin(reader, replies?.author() ?? Promise.resolve(null))
    if ((await notesOn(reader, pr, author)).includes(jobId)) return
    const { octokit, serverUrl } = await loadOctokit(token)
    const body = noteBody(jobId, comment, trigger, serverUrl, env)
    await octokit.rest.issues.createComment({
      owner: pr.owner,
      repo: pr.repo,
      issue_number: pr.number,
      body,
      request: { signal: AbortSignal.any([signal, AbortSignal.timeout(requestTimeoutMs)]) }
    })
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
    `${marker(jobId)}\n📝 Documentation agent job ${codeSpan(jobId)} opened this pull request, asked for by a ${run}` +
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

/** The login the token writes as: from the run's reply, else GET /user, which an installation token (GITHUB_TOKEN) may not read. */
async function tokenLogin(reader: GitHubReader, replyAuthor: Promise<string | null>): Promise<string> {
  let timer: NodeJS.Timeout | undefined
  const replied = await Promise.race([
    replyAuthor,
    new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), requestTimeoutMs)))
  ]).finally(() => clearTimeout(timer))
  if (replied) return replied
  try {
    const user = login(asObject(await reader.get('/user', "the token's login", 'pull-requests: read')).login)
    if (user) return user
    throw new ReadFailure('malformed', "the token's login", 'pull-requests: read', 200, 'no login in it')
  } catch (error) {
    // GitHub answers 403 to an installation token, which GITHUB_TOKEN is: it writes as github-actions[bot].
    if (error instanceof ReadFailure && error.kind === 'forbidden') return GITHUB_TOKEN_LOGIN
    throw error
  }
}

/**
 * The job ids of the notes `author` left on the pull request, oldest first, within the page cap. The
 * pages are read while the author is still being found out (the run's reply may be on its way).
 */
async function notesOn(reader: GitHubReader, pr: PullRequestRef, author: Promise<string>): Promise<string[]> {
  // Handled here, awaited below: a failure of either must not go unheard while the other is awaited.
  author.catch(() => {})
  const marked: { login: unknown; jobId: string }[] = []
  const path = `/repos/${encodeURIComponent(pr.owner)}/${encodeURIComponent(pr.repo)}/issues/${pr.number}/comments`
  for (let page = 1; page <= maxPages; page++) {
    const comments = asArray(
      await reader.get(`${path}?per_page=${perPage}&page=${page}`, "the pull request's comments", 'pull-requests: read')
    )
    for (const entry of comments) {
      const comment = asObject(entry)
      const jobId = markedJobId(text(comment.body))
      if (jobId) marked.push({ login: asObject(comment.user).login, jobId })
    }
    if (comments.length < perPage) break
  }
  const login = await author
  return marked.filter((note) => note.login === login).map((note) => note.jobId)
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
