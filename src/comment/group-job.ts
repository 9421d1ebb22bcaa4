// A group: runs with the same `group` input, for one repository and project, share one docs pull
// request while it is open. The service cannot list jobs, so the group's pull request is found on
// GitHub: the action labels the agent's pull request with the group's label when it leaves its note
// there, and one listing of the open pull requests with that label (the issues API, not the search
// API, whose index lags) names the candidates. A label proves nothing (anyone with triage rights can
// add one): the pull request is the group's only when a comment on it holds a group marker that
// verifies under this run's key. The marker's HMAC covers what the job marker's covers (this GitHub's
// host, the repository, the pull request's number, the project and the job id) and also the group and
// the mark: the last commit whose changes the group's job was given. So a copied label or marker,
// another project's, or another group's, routes nothing, and the mark cannot be moved without the key.
import { createHmac } from 'node:crypto'
import { asArray, asObject, count, sha, text } from '../github/json-shape.js'
import type { GitHubReader, ReadLimits } from '../github/reader.js'
import { openGitHubReader } from '../github/reader.js'
import { ReadFailure } from '../github/read-failure.js'
import type { Settings } from '../inputs/settings.js'
import type { GroupSettings } from '../inputs/group-settings.js'
import { Input } from '../inputs/action-names.js'
import { failureClause } from '../github/read-failure.js'
import { log } from '../runtime/log.js'
import { AGENT_PULL_REQUEST_READS, type PullRequestRef } from '../github/pull-request-details.js'
import { isJobId } from '../safety/job-id.js'
import { decodeId, encodeId, findNotePlace, sameText, type NoteKey, type NotePlace } from './agent-pull-request.js'
import type { Runner } from '../github/runner.js'

const GROUP_VERSION = 'docs-agent-group-v1'
/** The group marker: group, job id (both percent-encoded), the mark (a commit id, or `-`), the signature. */
const GROUP_MARKER =
  /<!-- docs-agent-group: ([^\s<>]{1,200}) ([^\s<>]{1,1200}) ([0-9a-f]{7,64}|-) g1\.([A-Za-z0-9_-]{1,100}) -->/g
/** GitHub's longest label is 50 characters; the group input is checked to fit after this. */
export const GROUP_LABEL_PREFIX = 'docs-agent:'

const { maxPages, perPage, requestTimeoutMs } = AGENT_PULL_REQUEST_READS
/**
 * The group's reads: one listing of the open pull requests with the group's label, then the comments
 * of at most `maxPulls` of them, newest first, each within the agent's pull request's page cap; all of
 * it within `totalMs`, like the note's reads.
 */
export const GROUP_READS = { maxPulls: 3, totalMs: 10_000 } as const
const { maxPulls, totalMs } = GROUP_READS
const LIMITS: ReadLimits = {
  maxRequests: 1 + maxPulls * maxPages,
  totalMs,
  requestMs: requestTimeoutMs,
  maxBodyBytes: 8 * 1024 * 1024
}

/** The group's pull request, as its verified marker names it. */
export interface GroupPullRequest {
  pr: PullRequestRef
  /** The pull request's page. */
  url: string
  jobId: string
  /** The last commit whose changes the job was given; '' when the marker holds none. */
  mark: string
  /** The comment that holds the marker: the mark moves by editing it. */
  commentId: number
  /** That comment's body as read. */
  body: string
}

/** What looking for the group's pull request found. */
export type GroupLookup =
  | { kind: 'found'; found: GroupPullRequest }
  /** No open pull request of the group; `unverified`: labelled pull requests whose markers did not verify. */
  | { kind: 'none'; unverified: number[] }
  | { kind: 'unreadable'; failure: ReadFailure }

/** The label the group's pull request carries. */
export function groupLabel(group: string): string {
  return `${GROUP_LABEL_PREFIX}${group}`
}

/** The signature of a group marker: HMAC-SHA256 under HMAC(apiKey, "docs-agent-group-v1"). */
export function groupSignature(
  { apiKey }: NoteKey,
  place: NotePlace,
  jobId: string,
  group: string,
  mark: string
): string {
  const key = createHmac('sha256', apiKey).update(GROUP_VERSION).digest()
  const covered = JSON.stringify([
    GROUP_VERSION,
    place.host.toLowerCase(),
    `${place.pr.owner}/${place.pr.repo}`.toLowerCase(),
    place.pr.number,
    place.projectId,
    jobId,
    group,
    mark
  ])
  return createHmac('sha256', key).update(covered).digest('base64url')
}

/** The hidden marker that makes a pull request the group's, signed for its place. */
export function groupMarker(key: NoteKey, place: NotePlace, jobId: string, group: string, mark: string): string {
  const shown = mark || '-'
  const signature = groupSignature(key, place, jobId, group, mark)
  return `<!-- docs-agent-group: ${encodeId(group)} ${encodeId(jobId)} ${shown} g1.${signature} -->`
}

/** The group markers in `body` for `group`, each with whether it verifies for `place` under this key. */
export function markedGroups(
  body: string,
  key: NoteKey,
  place: NotePlace,
  group: string
): { jobId: string; mark: string; verified: boolean }[] {
  const found: { jobId: string; mark: string; verified: boolean }[] = []
  for (const [, encodedGroup, encodedJob, shown, signature] of body.matchAll(GROUP_MARKER)) {
    if (decodeId(encodedGroup) !== group) continue
    const jobId = decodeId(encodedJob)
    const mark = shown === '-' ? '' : shown
    if (jobId === null || !isJobId(jobId)) {
      found.push({ jobId: '', mark, verified: false })
      continue
    }
    const verified = sameText(signature, groupSignature(key, place, jobId, group, mark))
    found.push({ jobId, mark, verified })
  }
  return found
}

/** Replaces the group's marker in a note's body with `marker`, or adds it at the top when it has none. */
export function withGroupMarker(body: string, group: string, marker: string): string {
  let replaced = false
  const next = body.replace(GROUP_MARKER, (whole: string, encodedGroup: string) => {
    if (replaced || decodeId(encodedGroup) !== group) return whole
    replaced = true
    return marker
  })
  return replaced ? next : `${marker}\n${body}`
}

/**
 * The commit whose changes this run tells of: a push's `after`, a pull request's head, or the run's
 * commit (GITHUB_SHA). It becomes the group's mark once the prompt is delivered.
 */
export function coveredCommit(runner: Runner): string {
  const payload = asObject(runner.payload)
  const event = runner.eventName
  if (event === 'push') return sha(payload.after) || sha(runner.sha)
  if (event === 'pull_request' || event === 'pull_request_target') {
    return sha(asObject(asObject(payload.pull_request).head).sha) || sha(runner.sha)
  }
  return sha(runner.sha)
}

/**
 * The group's open pull request in `repository` (owner/repo): the newest of the open pull requests
 * with the group's label (at most RetryPolicy.group.maxPulls of them) on which a group marker for this
 * group verifies; of several markers there, the last. Never throws: a read that fails is returned, for
 * the caller to say once.
 */
export async function findGroupPullRequest(
  settings: Pick<Settings, 'githubToken' | 'apiKey' | 'projectId'>,
  group: string,
  repository: string,
  signal: AbortSignal,
  runner: Runner
): Promise<GroupLookup> {
  const what = `the open pull requests labelled ${groupLabel(group)} in ${repository}`
  if (!settings.githubToken)
    return { kind: 'unreadable', failure: new ReadFailure('no-token', what, 'pull-requests: read') }
  const reader = openGitHubReader(runner.apiUrl, settings.githubToken, LIMITS, signal)
  if (!reader) return { kind: 'unreadable', failure: new ReadFailure('unreachable', what, 'pull-requests: read') }
  const [owner, repo] = repository.split('/')
  const base = `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`
  try {
    const listed = asArray(
      await reader.get(
        `${base}/issues?labels=${encodeURIComponent(groupLabel(group))}&state=open&per_page=${maxPulls}`,
        what,
        'pull-requests: read'
      )
    )
    const unverified: number[] = []
    for (const entry of listed.map(asObject).slice(0, maxPulls)) {
      const number = count(entry.number)
      // The issues API lists issues too: only a pull request can be the group's.
      if (number === undefined || number === 0 || !('pull_request' in entry)) continue
      const pr = { owner, repo, number }
      const place = findNotePlace(pr, settings, runner)
      if (!place) continue
      const found = await groupMarkerOn(reader, pr, settings, place, group)
      if (found) return { kind: 'found', found: { ...found, pr, url: pullUrl(pr, runner) } }
      unverified.push(number)
    }
    return { kind: 'none', unverified }
  } catch (error) {
    if (error instanceof ReadFailure) return { kind: 'unreadable', failure: error }
    throw error
  } finally {
    await reader.close()
  }
}

/** The last verified group marker on a pull request's comments (within the page cap), with its comment. */
async function groupMarkerOn(
  reader: GitHubReader,
  pr: PullRequestRef,
  key: NoteKey,
  place: NotePlace,
  group: string
): Promise<{ jobId: string; mark: string; commentId: number; body: string } | null> {
  let last: { jobId: string; mark: string; commentId: number; body: string } | null = null
  const path = `/repos/${encodeURIComponent(pr.owner)}/${encodeURIComponent(pr.repo)}/issues/${pr.number}/comments`
  for (let page = 1; page <= maxPages; page++) {
    const comments = asArray(
      await reader.get(`${path}?per_page=${perPage}&page=${page}`, "the pull request's comments", 'pull-requests: read')
    )
    for (const comment of comments.map(asObject)) {
      const commentId = count(comment.id)
      if (commentId === undefined) continue
      const body = text(comment.body)
      for (const marked of markedGroups(body, key, place, group)) {
        if (marked.verified) last = { jobId: marked.jobId, mark: marked.mark, commentId, body }
      }
    }
    if (comments.length < perPage) break
  }
  return last
}

/** A pull request's page on the GitHub the workflow runs on. */
export function pullUrl(pr: PullRequestRef, { serverUrl }: Pick<Runner, 'serverUrl'>): string {
  return `${serverUrl}/${pr.owner}/${pr.repo}/pull/${pr.number}`
}

/** A run's group as the stages found it: its settings, its pull request (or why none), the commit it covers. */
export interface GroupRun {
  settings: GroupSettings
  lookup: GroupLookup
  /** The commit whose changes this run tells of: the group's mark once they are delivered. */
  mark: string
}

/**
 * Looks for the group's pull request and says what was found, once: the job the run's prompt goes to,
 * or that a job is created (no open pull request of the group, or none that could be read).
 */
export async function lookUpGroup(
  group: GroupSettings,
  settings: Pick<Settings, 'githubToken' | 'apiKey' | 'projectId'>,
  signal: AbortSignal,
  runner: Runner
): Promise<GroupRun> {
  const lookup = await findGroupPullRequest(settings, group.name, group.repository, signal, runner)
  const { name, repository } = group
  switch (lookup.kind) {
    case 'found': {
      const { found } = lookup
      const since = found.mark ? ` since ${found.mark.slice(0, 7)}, the last commit it was told of,` : ''
      log.info(
        `Group ${name}'s docs pull request is #${found.pr.number} of ${repository}, opened by job ${found.jobId} ` +
          `(from the action's signed note there): this run's changes${since} go to that job as a follow-up message.`
      )
      break
    }
    case 'none':
      if (lookup.unverified.length > 0) {
        log.notice(
          `${lookup.unverified.map((n) => `#${n}`).join(', ')} of ${repository} ${lookup.unverified.length === 1 ? 'carries' : 'carry'} ` +
            `the label ${groupLabel(name)} but no note of group ${name} that verifies for this repository, pull request ` +
            `and project (${settings.projectId}): a copied label or note, another project's, or one signed with a key since ` +
            `rotated. ${lookup.unverified.length === 1 ? 'It is' : 'They are'} ignored, and this run creates a job.`
        )
      } else {
        log.info(
          `Group ${name} has no open docs pull request in ${repository}: this run creates a job, and its pull request ` +
            `becomes the group's.`
        )
      }
      break
    case 'unreadable':
      // A cancel or the timeout: the run is ending, and says so itself.
      if (lookup.failure.kind === 'cancelled') break
      log.notice(
        `Could not look for group ${name}'s docs pull request: ${failureClause(lookup.failure, Input.githubToken)}. ` +
          `This run creates a job, as without ${Input.group}; give the token "pull-requests: write" on ${repository} ` +
          `so that the group's runs share one pull request.`
      )
  }
  return { settings: group, lookup, mark: coveredCommit(runner) }
}

/** The code pull request a `pull_request` event is about, and whether it was closed (merged or not). */
export interface CodePullRequest {
  pr: PullRequestRef
  closed: boolean
  merged: boolean
}

/** The event's pull request, when the run is for a `pull_request` (or `pull_request_target`) event. */
export function codePullRequestOf(runner: Runner): CodePullRequest | null {
  const event = runner.eventName
  if (event !== 'pull_request' && event !== 'pull_request_target') return null
  const payload = asObject(runner.payload)
  const pull = asObject(payload.pull_request)
  const number = count(pull.number) ?? count(payload.number)
  const [owner, repo] = runner.repository.split('/')
  if (!number || !owner || !repo) return null
  return { pr: { owner, repo, number }, closed: payload.action === 'closed', merged: pull.merged === true }
}
