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
import { signFields } from '../safety/sign-fields.js'
import { sha } from '../github/json-shape.js'
import type { PullRequestRef } from '../github/pull-request-details.js'
import { isJobId } from '../safety/job-id.js'
import { decodeId, encodeId, sameText, type NoteKey, type NotePlace } from '../github/note-place.js'
import type { Runner } from '../github/runner.js'

const GROUP_VERSION = 'docs-agent-group-v1'
/** The group marker: group, job id (both percent-encoded), the mark (a commit id, or `-`), the signature. */
const GROUP_MARKER =
  /<!-- docs-agent-group: ([^\s<>]{1,200}) ([^\s<>]{1,1200}) ([0-9a-f]{7,64}|-) g1\.([A-Za-z0-9_-]{1,100}) -->/g
/** GitHub's longest label is 50 characters; the group input is checked to fit after this. */
export const GROUP_LABEL_PREFIX = 'docs-agent:'

/** The label the group's pull request carries. */
export function groupLabel(group: string): string {
  return `${GROUP_LABEL_PREFIX}${group}`
}

/** What a group marker names besides its place: the group's job, the group, and its mark. */
export interface GroupMark {
  jobId: string
  group: string
  /** The last commit whose changes the group's job was given; '' when none yet. */
  mark: string
}

/** The signature of a group marker: HMAC-SHA256 under HMAC(apiKey, "docs-agent-group-v1"). */
export function groupSignature({ apiKey }: NoteKey, place: NotePlace, { jobId, group, mark }: GroupMark): string {
  return signFields(apiKey, GROUP_VERSION, [
    place.host.toLowerCase(),
    `${place.pr.owner}/${place.pr.repo}`.toLowerCase(),
    place.pr.number,
    place.projectId,
    jobId,
    group,
    mark
  ])
}

/** The hidden marker that makes a pull request the group's, signed for its place. */
export function groupMarker(key: NoteKey, place: NotePlace, marked: GroupMark): string {
  const { jobId, group, mark } = marked
  const shown = mark || '-'
  const signature = groupSignature(key, place, marked)
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
    const verified = sameText(signature, groupSignature(key, place, { jobId, group, mark }))
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
  const { event } = runner
  if (event.name === 'push') return event.after || sha(runner.sha)
  if (event.name === 'pull_request' || event.name === 'pull_request_target') {
    return event.pullRequest?.head.sha || sha(runner.sha)
  }
  return sha(runner.sha)
}

/** The comparison of a range of commits (`from`...`to`) in `repository` (owner/repo), on the GitHub at `serverUrl`. */
export function compareUrl(serverUrl: string, repository: string, { from, to }: { from: string; to: string }): string {
  return `${serverUrl}/${repository}/compare/${from}...${to}`
}

/** The code pull request a `pull_request` event is about, and whether it was closed (merged or not). */
export interface CodePullRequest {
  pr: PullRequestRef
  closed: boolean
  merged: boolean
}

/** The event's pull request, when the run is for a `pull_request` (or `pull_request_target`) event. */
export function codePullRequestOf(runner: Runner): CodePullRequest | null {
  const { event } = runner
  if (event.name !== 'pull_request' && event.name !== 'pull_request_target') return null
  const number = event.pullRequest?.number
  const [owner, repo] = runner.repository.split('/')
  if (!number || !owner || !repo) return null
  return { pr: { owner, repo, number }, closed: event.action === 'closed', merged: event.pullRequest?.merged === true }
}
