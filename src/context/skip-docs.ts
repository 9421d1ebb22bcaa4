// `[skip docs]` or `[docs skip]` in a commit message keeps that commit out of the agent's view, the
// way `[skip ci]` keeps a commit from starting workflows. A range whose every commit says it starts
// no job at all. The range itself is untouched: this run still succeeds, so the next one starts
// after it.
import { readPushedCommits, type ChangeFacts } from './facts.js'
import type { Runner } from '../github/runner.js'

const MARK = /\[(?:skip docs|docs skip)\]/i

export function skipsDocs(message: string): boolean {
  return MARK.test(message)
}

/** What leaving the marked commits out did to the facts. */
export interface SkipDocs {
  /** Commits left out. */
  skipped: number
  /** Every commit of the range is marked (and GitHub listed them all): no job should start. */
  all: boolean
}

/** Takes the marked commits out of the facts' list, and says so in the summary lines. */
export function leaveOutSkipDocs(facts: ChangeFacts): SkipDocs {
  const commits = facts.commits
  if (!commits?.list.length) return { skipped: 0, all: false }
  const kept = commits.list.filter((commit) => !skipsDocs(commit.message))
  const skipped = commits.list.length - kept.length
  if (skipped === 0) return { skipped, all: false }
  const all = kept.length === 0 && commits.total <= commits.list.length
  facts.commits = { list: kept, total: commits.total - skipped }
  facts.summary.push(
    `${skipped === 1 ? '1 commit is' : `${skipped.toLocaleString('en-US')} commits are`} marked [skip docs] and left ` +
      "out of the commit list (the changed files are the range's as a whole)."
  )
  return { skipped, all }
}

/** The notice when every commit of the range is marked. */
export function allSkippedNotice(commits: number): string {
  return (
    `Every commit of the range (${commits === 1 ? '1 commit' : `${commits.toLocaleString('en-US')} commits`}) is ` +
    'marked [skip docs] or [docs skip]: there is nothing for the agent to document, so no job is started.'
  )
}

// A push event lists at most 20 commits: with 20, there may be more, unmarked.
const PUSH_EVENT_COMMITS_MAX = 20

/**
 * With `context: none` nothing is read, but a push whose every commit (as the event lists them) is
 * marked still starts no job: the notice saying so, for the caller to stop on, or null.
 */
export function allSkippedWithoutContext({ event }: Pick<Runner, 'event'>): string | null {
  if (event.name !== 'push') return null
  const { commits } = readPushedCommits(event.commits)
  const complete = commits.length > 0 && commits.length < PUSH_EVENT_COMMITS_MAX
  if (!complete || !commits.every((commit) => skipsDocs(commit.message))) return null
  return allSkippedNotice(commits.length)
}
