// The group's marker, written and read here: the hidden line in the action's note on the agent's pull
// request (thread/agent-note.ts leaves the note with it) that makes the pull request the group's and
// holds the group's mark, the last commit whose changes the group's job was given. A label proves
// nothing (anyone with triage rights can add one): the pull request is the group's only when a comment
// on it, written by the action's account, holds a group marker that verifies under this run's key. Its
// HMAC covers what the job marker's covers (this GitHub's host, the repository, the pull request's
// number, the project and the job id) and also the group and the mark: so a copied label or marker,
// another project's, or another group's, routes nothing, and the mark cannot be moved without the key.
import { signFields } from '../safety/sign-fields.js'
import { isJobId } from '../safety/job-id.js'
import { isWrittenBy, type Author } from '../github/author.js'
import { listCommentsOldestFirst } from '../github/comment-pages.js'
import { decodeId, encodeId, sameText, type NoteKey, type NotePlace } from '../github/note-place.js'
import type { PullRequestRef } from '../github/pull-request-ref.js'
import type { GitHubReader } from '../github/reader.js'

const GROUP_VERSION = 'docs-agent-group-v1'
/** The group marker: group, job id (both percent-encoded), the mark (a commit id, or `-`), the signature. */
const GROUP_MARKER =
  /<!-- docs-agent-group: ([^\s<>]{1,200}) ([^\s<>]{1,1200}) ([0-9a-f]{7,64}|-) g1\.([A-Za-z0-9_-]{1,100}) -->/g

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
 * The last verified group marker in a comment the action's account wrote (github/author.ts: a copy of
 * an older note re-posted by anyone else would otherwise pull the mark back), within `maxPages` pages.
 */
export async function readGroupMarkerOn(
  reader: GitHubReader,
  pr: PullRequestRef,
  where: { key: NoteKey; place: NotePlace; group: string; author: Author; maxPages: number }
): Promise<{ jobId: string; mark: string; commentId: number; body: string } | null> {
  const { key, place, group, author, maxPages } = where
  let last: { jobId: string; mark: string; commentId: number; body: string } | null = null
  const comments = { what: "the pull request's comments", permission: 'pull-requests: read' as const }
  await listCommentsOldestFirst(reader, pr, { ...comments, maxPages, readAgain: true }, (comment) => {
    if (!isWrittenBy(author, { login: comment.login, type: comment.type })) return
    for (const marked of markedGroups(comment.body, key, place, group)) {
      if (marked.verified) last = { jobId: marked.jobId, mark: marked.mark, commentId: comment.id, body: comment.body }
    }
  })
  return last
}
