// The agent's own pull request: how a comment on it finds the job that opened it, from the note the
// action left there when the job ended (report/agent-note.ts writes it). The job is found from the action's own note only: a
// comment by the identity the workflow's token writes as, carrying a hidden marker with a job id of
// the right shape. The same text by anyone else, or in the pull request's body, is not read.
import { asArray, asObject, login, text } from '../github/json-shape.js'
import { openGitHubReader, type GitHubReader, type ReadLimits } from '../github/reader.js'
import { failureClause, ReadFailure } from '../github/read-failure.js'
import type { TriggeringComment } from './trigger.js'
import { FRESH_FLAG } from './trigger.js'
import { Input } from '../inputs/action-names.js'
import { ActionError } from '../runtime/errors.js'
import { readTriggerForNote } from '../inputs/comment-settings.js'
import type { Settings } from '../inputs/settings.js'
import { isJobId } from '../safety/job-id.js'
import { log } from '../runtime/log.js'
import { RetryPolicy } from '../net/retry-policy.js'

/** Who the workflow's token writes as, when the run already knows it: the author of the reply it posted. */
export interface TokenAuthor {
  author(): Promise<string | null>
}

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
  replies: TokenAuthor | undefined,
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

/** The login the token writes as: from the run's reply, else GET /user, which an installation token (GITHUB_TOKEN) may not read. */
export async function tokenLogin(reader: GitHubReader, replyAuthor: Promise<string | null>): Promise<string> {
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
export async function notesOn(reader: GitHubReader, pr: PullRequestRef, author: Promise<string>): Promise<string[]> {
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

/** A reader of GitHub's API within the agent's pull request's limits; null when GITHUB_API_URL is unusable. */
export function openReader(token: string, signal: AbortSignal, env: NodeJS.ProcessEnv): GitHubReader | null {
  return openGitHubReader(env.GITHUB_API_URL, token, LIMITS, signal)
}
