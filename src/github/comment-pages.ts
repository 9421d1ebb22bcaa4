// A thread's comments, newest first, within a bound. GitHub lists an issue's (or a pull request's)
// comments oldest first, at most 100 a page, and says in the `Link` header which page is the last:
// the first page is read (a short thread is then read whole in one request), and on a longer thread
// the pages from the last backwards, so that the newest comments (where the newest record is) are
// read first and a long thread costs a few requests, not all of its pages. Or oldest first, page
// after page (listCommentsOldestFirst), for what is written early in a thread: the agent's note, the
// group's marker.
import { asArray, asObject, text } from './json-shape.js'
import { repositoryPath } from './pull-request-ref.js'
import type { Permission } from './read-failure.js'
import { readTwice } from './read-again.js'
import type { GitHubReader } from './reader.js'

/** A thread: an issue or a pull request (their comments are the issue's). */
export interface ThreadRef {
  owner: string
  repo: string
  number: number
}

/** What is read of a listed comment: anything of another shape is skipped. */
export interface ListedThreadComment {
  id: number
  body: string
  /** Who wrote it ('' when GitHub did not say). */
  login: string
  /** Whether a person or a bot wrote it (`User`, `Bot`; '' when GitHub did not say). */
  type: string
}

/** What the listing is called in a read failure, the permission it needs, and how many pages it may read. */
export interface CommentPagesOptions {
  what: string
  permission: Permission
  maxPages: number
}

/**
 * How a scan ended: `stopped` when the visitor asked, `complete` when no page newer than where it
 * stopped went unread; `firstPage`, the thread's oldest comments (the first page, always read), for a
 * caller that looks for what is written early in a thread, at no further request.
 */
export interface CommentScan {
  stopped: boolean
  complete: boolean
  pagesRead: number
  firstPage: ListedThreadComment[]
}

export const COMMENTS_PER_PAGE = 100

/**
 * Visits the thread's comments newest first until `visit` returns true (stop) or `maxPages` pages
 * are read. The first page is read first (it says where the last is); on a longer thread the pages
 * from the last backwards follow, and the first page's comments are visited last (they are the
 * oldest), when no page between them went unread. A failed read throws its ReadFailure.
 */
export async function scanCommentsNewestFirst(
  reader: GitHubReader,
  thread: ThreadRef,
  { what, permission, maxPages }: CommentPagesOptions,
  visit: (comment: ListedThreadComment) => boolean
): Promise<CommentScan> {
  const path = `${repositoryPath(thread)}/issues/${thread.number}/comments`
  const pageAt = async (page: number) =>
    reader.getPage(`${path}?per_page=${COMMENTS_PER_PAGE}&page=${page}`, what, permission)
  const first = await pageAt(1)
  let pagesRead = 1
  const listPage = (items: unknown): ListedThreadComment[] =>
    asArray(items)
      .map(readComment)
      .filter((c): c is ListedThreadComment => c !== null)
  const firstPage = listPage(first.items)
  const visitPage = (listed: ListedThreadComment[]): boolean => {
    for (let i = listed.length - 1; i >= 0; i--) if (visit(listed[i])) return true
    return false
  }
  const last = Math.max(1, first.lastPage ?? 1)
  for (let page = last; page > 1; page--) {
    if (pagesRead >= maxPages) return { stopped: false, complete: false, pagesRead, firstPage }
    const { items } = await pageAt(page)
    pagesRead++
    if (visitPage(listPage(items))) return { stopped: true, complete: true, pagesRead, firstPage }
  }
  return { stopped: visitPage(firstPage), complete: true, pagesRead, firstPage }
}

/**
 * Visits the thread's comments oldest first, page after page, until a page that is not full or
 * `maxPages` pages; with `readAgain`, a page GitHub failed once (a 502, a reset) is read once more. A
 * failed read throws its ReadFailure.
 */
export async function listCommentsOldestFirst(
  reader: GitHubReader,
  thread: ThreadRef,
  { what, permission, maxPages, readAgain = false }: CommentPagesOptions & { readAgain?: boolean },
  visit: (comment: ListedThreadComment) => void
): Promise<void> {
  const path = `${repositoryPath(thread)}/issues/${thread.number}/comments`
  for (let page = 1; page <= maxPages; page++) {
    const pagePath = `${path}?per_page=${COMMENTS_PER_PAGE}&page=${page}`
    const items = asArray(
      readAgain ? await readTwice(reader, pagePath, what, permission) : await reader.get(pagePath, what, permission)
    )
    for (const entry of items) {
      const comment = readComment(entry)
      if (comment) visit(comment)
    }
    if (items.length < COMMENTS_PER_PAGE) return
  }
}

function readComment(entry: unknown): ListedThreadComment | null {
  const comment = asObject(entry)
  const { id } = comment
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) return null
  const user = asObject(comment.user)
  return { id, body: text(comment.body), login: text(user.login), type: text(user.type) }
}
