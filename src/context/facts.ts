// What the context section tells, as plain data: the gatherers fill it from the event and GitHub's
// answers, the renderer fits it into the section. Outside text stays raw here; render.ts quotes it.
import type { PushedCommit } from '../github/event.js'
import { asArray, asObject, count, login, sha, text } from '../github/json-shape.js'

export interface Commit {
  /** The full commit id. */
  sha: string
  /** The message (render.ts shows its first line). */
  message: string
  /** `@login` when GitHub knows the account, else the author's name as git has it. */
  author: string
}

export interface ChangedFile {
  path: string
  /** added, modified, removed, renamed, copied, changed... as GitHub says it. */
  status: string
  /** For a renamed or copied file, where it came from. */
  previousPath?: string
  additions?: number
  deletions?: number
  /** The diff hunks; GitHub leaves them out for binaries and very large diffs. */
  patch?: string
}

export interface ChangeFacts {
  /**
   * Lines that say what happened, most important first. Built by the gatherers from known words and
   * outside text already passed through safety/quote-for-agent.ts.
   */
  summary: string[]
  /** Text written by people, shown fenced and cut short: a pull request's body, a release's notes. */
  writing?: { label: string; text: string }
  /** Commits, oldest first; `total` counts those GitHub did not list too. */
  commits?: { list: Commit[]; total: number }
  /** Changed files; `total` and `totalLines` count those GitHub did not list too, when known. */
  files?: { list: ChangedFile[]; total: number; totalLines?: number }
}

/** What GitHub's compare API says of a range. */
export interface Comparison {
  commits: Commit[]
  /** Commits in the range; the API lists at most 250. */
  totalCommits: number
  files: ChangedFile[]
  /** ahead, behind, identical or diverged. */
  status: string
}

/** The most files the compare API lists: a range may have more. */
export const COMPARE_FILE_CAP = 300

/** The summary line of a range whose files the compare API may not all list: the section and the summary say it. */
export const FILE_CAP_LINE = `GitHub lists at most ${COMPARE_FILE_CAP} files of a comparison: there may be more.`

export function readComparison(answer: unknown): Comparison {
  const body = asObject(answer)
  const commits = asArray(body.commits)
    .map(readApiCommit)
    .filter((c): c is Commit => c !== null)
  return {
    commits,
    totalCommits: Math.max(count(body.total_commits) ?? 0, commits.length),
    files: readFiles(body.files),
    status: text(body.status)
  }
}

/** The files of a compare or of a pull request, as the REST API lists them. */
export function readFiles(list: unknown): ChangedFile[] {
  return asArray(list)
    .map(asObject)
    .filter((file) => text(file.filename) !== '')
    .map((file) => ({
      path: text(file.filename),
      status: text(file.status) || 'changed',
      previousPath: text(file.previous_filename) || undefined,
      additions: count(file.additions),
      deletions: count(file.deletions),
      patch: text(file.patch) || undefined
    }))
}

function readApiCommit(value: unknown): Commit | null {
  const entry = asObject(value)
  const id = sha(entry.sha)
  if (!id) return null
  const commit = asObject(entry.commit)
  const who = login(asObject(entry.author).login)
  return {
    sha: id,
    message: text(commit.message),
    author: who ? `@${who}` : text(asObject(commit.author).name)
  }
}

/**
 * The commits and paths a push event carries itself: GitHub lists up to 20 commits, and their
 * added, removed and modified paths (without line counts) when the payload has them.
 */
export function readPushedCommits(pushed: readonly PushedCommit[]): { commits: Commit[]; files: ChangedFile[] } {
  const commits: Commit[] = []
  const files = new Map<string, ChangedFile>()
  for (const entry of pushed) {
    const who = login(entry.author.username)
    commits.push({ sha: entry.id, message: entry.message, author: who ? `@${who}` : entry.author.name })
    for (const status of ['added', 'removed', 'modified'] as const) {
      for (const path of entry[status]) {
        const earlier = files.get(path)
        // A file added and then changed in the same push is, for the push, added.
        const net = earlier?.status === 'added' && status === 'modified' ? 'added' : status
        files.set(path, { path, status: net })
      }
    }
  }
  return { commits, files: [...files.values()] }
}

/** Lines a set of files adds and removes, or undefined when GitHub did not count them. */
export function linesOf(files: readonly ChangedFile[]): number | undefined {
  let lines = 0
  for (const file of files) {
    if (file.additions === undefined || file.deletions === undefined) return undefined
    lines += file.additions + file.deletions
  }
  return lines
}
