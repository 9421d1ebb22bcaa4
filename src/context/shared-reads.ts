// The reads more than one event needs: a range of commits, and a pull request's changed files.
import { COMPARE_FILE_CAP, readComparison, readFiles, type ChangedFile, type Comparison } from './facts.js'
import { refSegment, type Gathering } from './gather-session.js'
import { sha } from '../github/json-shape.js'
import { ReadFailure } from '../github/read-failure.js'
import { mayReadAgain } from '../github/read-again.js'

/** The compare API's answer for `base...head` (commit ids, branch or tag names), or the failure. */
export async function compareRange(
  gathering: Gathering,
  base: string,
  head: string,
  what: string
): Promise<Comparison | ReadFailure> {
  const answer = await gathering.tryRead(`/compare/${refSegment(base)}...${refSegment(head)}`, what, 'contents: read')
  return answer instanceof ReadFailure ? answer : readComparison(answer)
}

/** compareRange, tried once more when GitHub failed in a way that may not happen twice (a 502, a reset). */
export async function compareRangeTwice(
  gathering: Gathering,
  base: string,
  head: string,
  what: string
): Promise<Comparison | ReadFailure> {
  const first = await compareRange(gathering, base, head, what)
  if (!mayReadAgain(first) || !gathering.canRead) return first
  return compareRange(gathering, base, head, what)
}

/** The compare page on the server, for the section's link: bare between commit ids, quoted when it names a branch or tag. */
export function compareLink(gathering: Gathering, base: string, head: string): string {
  const path = `compare/${refSegment(base)}...${refSegment(head)}`
  return sha(base) === base && sha(head) === head ? gathering.link(path) : gathering.namedLink(path)
}

/** Whether GitHub may have left files out of a comparison's list. */
export function mayListMoreFiles(comparison: Comparison): boolean {
  return comparison.files.length >= COMPARE_FILE_CAP
}

const FILES_PER_PAGE = 100

/**
 * A pull request's changed files, a page of 100 at a time while the request count allows and more
 * are expected (`expected`, the count the event gives, when it gives one). Undefined when the first
 * page could not be read; the failure is recorded.
 */
export async function readPullFiles(
  gathering: Gathering,
  number: number,
  expected: number | undefined
): Promise<ChangedFile[] | undefined> {
  const files: ChangedFile[] = []
  for (let page = 1; ; page++) {
    const answer = await gathering.read(
      `/pulls/${number}/files?per_page=${FILES_PER_PAGE}&page=${page}`,
      `the changed files of pull request #${number}`,
      'pull-requests: read'
    )
    if (answer === undefined) return page === 1 ? undefined : files
    const pageFiles = readFiles(answer)
    files.push(...pageFiles)
    const more = expected !== undefined ? files.length < expected : pageFiles.length === FILES_PER_PAGE
    if (!more || pageFiles.length === 0 || !gathering.canRead) return files
  }
}
