// The signed marker of the one comment a group keeps on its code pull request (group-status.ts writes
// the comment), and its reading. A `/docs` comment on that pull request asks the group's job,
// so the routing reads which group's comment is there: only a marker that verifies under this run's
// key for this pull request, in a comment the account the action writes as wrote (github/author.ts),
// names a group. A copy in anyone else's comment, or one signed for another place or key, names none.
import { isWrittenBy, type Author } from '../github/author.js'
import type { ListedThreadComment } from '../github/comment-pages.js'
import type { PullRequestRef } from '../github/pull-request-ref.js'
import type { Runner } from '../github/runner.js'
import { findNotePlace, sameText } from '../github/note-place.js'
import { groupSignature } from './group-marker.js'
import type { GroupKeys } from './group-lookup.js'

type Keys = Pick<GroupKeys, 'apiKey' | 'projectId'>

/** A group's name, as the group input takes it (group/group-settings.ts), then the signature. */
const STATUS_MARKER = /<!-- docs-agent-group-status: ([A-Za-z0-9][A-Za-z0-9._-]{0,38}) s1\.([A-Za-z0-9_-]{1,100}) -->/g

/**
 * The hidden marker by which the code pull request's one comment for a group is found again, signed
 * (`signature`: see statusSignature) so that a comment anyone else writes first, marker and all, is not
 * taken for the action's, nor edited by it.
 */
export function groupStatusMarker(group: string, signature = ''): string {
  return `<!-- docs-agent-group-status: ${group}${signature ? ` s1.${signature}` : ''} -->`
}

/**
 * The status marker's signature for the group on a code pull request: the group marker's HMAC (keyed
 * from the API key) over this GitHub's host, the repository, the pull request, the project and the
 * group, with no job and no mark. Only a run with the key writes it.
 */
export function statusSignature(
  settings: Keys,
  pr: PullRequestRef,
  group: string,
  runner: Pick<Runner, 'serverUrl'>
): string {
  const place = findNotePlace(pr, settings, runner)
  return place ? groupSignature(settings, place, { jobId: '', group, mark: '' }) : ''
}

/** The groups whose status marker in `body` verifies for the pull request `pr`, and how many markers did not. */
export function readStatusMarkers(
  body: string,
  settings: Keys,
  pr: PullRequestRef,
  runner: Pick<Runner, 'serverUrl'>
): { groups: string[]; unverified: number } {
  const groups: string[] = []
  let unverified = 0
  for (const [, group, signature] of body.matchAll(STATUS_MARKER)) {
    const expected = statusSignature(settings, pr, group, runner)
    if (expected && sameText(signature, expected)) groups.push(group)
    else unverified++
  }
  return { groups, unverified }
}

/** What the code pull request's comments say of a group: its name, and the markers that named none. */
export interface StatusGroupRead {
  /** The group whose status comment the action wrote there; '' when none. */
  group: string
  /** Status markers that did not verify (another place, project or key, or a forgery). */
  unverified: number
  /** Markers that verify, in comments by another author than the action's account (copies). */
  copies: number
}

/**
 * The group whose status comment is among `comments` (the pull request's first page: the comment is
 * posted at the group's first run there), oldest first: the first comment with a verified marker that
 * the account the action writes as wrote (`readAuthor`: one `GET /user`, read only once such a marker
 * is seen). Throws what `readAuthor` throws (a cancel).
 */
export async function findStatusGroup(
  comments: readonly ListedThreadComment[],
  pr: PullRequestRef,
  settings: Keys,
  { runner, readAuthor }: { runner: Pick<Runner, 'serverUrl'>; readAuthor: () => Promise<Author> }
): Promise<StatusGroupRead> {
  const read: StatusGroupRead = { group: '', unverified: 0, copies: 0 }
  let author: Author | null = null
  for (const comment of comments) {
    const { groups, unverified } = readStatusMarkers(comment.body, settings, pr, runner)
    read.unverified += unverified
    if (groups.length === 0) continue
    author ??= await readAuthor()
    if (!isWrittenBy(author, { login: comment.login, type: comment.type })) {
      read.copies++
      continue
    }
    read.group = groups[0]
    return read
  }
  return read
}
