// A run with a group, around its send. Before the prompt: a run whose changes the group's job has had
// already (a re-run), or whose group GitHub could not show, is held (it sends nothing, and the group's
// mark stays, so the next run sends its changes); a code pull request closed without merging, or
// merged with nothing left to send, tells the group's docs pull request and sends nothing (merged with
// changes the docs have not seen, they are sent first, and the docs pull request is told at the end).
// After the prompt: a context that could not read the changes since the mark holds the run too, since
// sending less would move the mark over changes never sent. On an open code pull request, the one
// comment showing its docs is shown at once (the ending stage gives it its final words).
import { routedGroup, type Route } from '../kernel/route.js'
import { failureClause } from '../github/read-failure.js'
import { Input } from '../kernel/action-names.js'
import type { Settings } from '../kernel/settings.js'
import type { Prepared } from '../prompt/assemble.js'
import type { GroupStatusComment } from './group-status.js'
import { wordUnreadAncestry, wordUnreadSinceMark } from '../ending/hold-words.js'
import type { RunOutcome } from '../kernel/run-outcome.js'
import type { GitHubRun } from '../github/session.js'

const NO_JOB = { job: null, jobId: '' } as const

/**
 * The ending of a run with a group that sends nothing, decided before its prompt is made: its code
 * pull request closed (the docs pull request is told), its commit covered already, or its group
 * unreadable for a while (a 502, no answer); null when the run goes on to send.
 */
export async function holdGroupRun(route: Route, signal: AbortSignal, onGitHub: GitHubRun): Promise<RunOutcome | null> {
  const { runner } = onGitHub
  const group = routedGroup(route)
  if (!group) return null
  // The group's code loads for a run with a group only: any other sends its create without it.
  const [{ codePullRequestOf }, { isLasting }, { tellDocsCodeClosed }] = await Promise.all([
    import('./group-job.js'),
    import('./group-lookup.js'),
    import('./group-record.js')
  ])
  const name = group.settings.name
  const code = codePullRequestOf(runner)
  const sends = group.ancestry !== 'covered'
  if (code?.closed && !(code.merged && sends)) {
    const told = await tellDocsCodeClosed({ code, group }, signal, onGitHub)
    return {
      ending: 'held',
      ...NO_JOB,
      hold: { why: 'code-closed', group: name, code: code.pr.number, merged: code.merged, ...told }
    }
  }
  const { lookup } = group
  if (lookup.kind === 'unreadable' && lookup.failure.kind !== 'cancelled' && !isLasting(lookup.failure)) {
    const problem = failureClause(lookup.failure, Input.githubToken)
    return { ending: 'held', ...NO_JOB, hold: { why: 'unread', group: name, mark: group.mark, problem } }
  }
  if (group.ancestry === 'unread' && group.ancestryFailure?.kind !== 'cancelled') {
    const problem = group.ancestryFailure
      ? failureClause(group.ancestryFailure, Input.githubToken)
      : wordUnreadAncestry(group.covers)
    return { ending: 'held', ...NO_JOB, hold: { why: 'unread', group: name, mark: group.mark, problem } }
  }
  if (group.ancestry === 'covered') {
    const jobId = group.open?.jobId ?? ''
    return {
      ending: 'held',
      job: null,
      jobId,
      hold: { why: 'covered', group: name, mark: group.mark, covers: group.covers }
    }
  }
  return null
}

/**
 * The ending of a run with a group whose context could not read the changes since the group's mark
 * (the comparison failed twice): sending less would leave those changes unsent for good, so nothing
 * is sent. Null when the prompt tells of them all, or has no context (`context: none`).
 */
export function holdUnreadContext(route: Route, prepared: Prepared): RunOutcome | null {
  const group = routedGroup(route)
  if (!group?.mark || prepared.since !== 'unread') return null
  const problem = wordUnreadSinceMark(group.mark, group.settings.name)
  return { ending: 'held', ...NO_JOB, hold: { why: 'unread', group: group.settings.name, mark: group.mark, problem } }
}

/** The code pull request's comment for the route's group, shown at once; null when there is none to keep. */
export async function showGroupOnCodePullRequest(
  route: Route,
  settings: Settings,
  onGitHub: GitHubRun
): Promise<GroupStatusComment | null> {
  const group = routedGroup(route)
  if (!group || settings.dryRun) return null
  const { groupStatusBefore, startGroupStatusComment } = await import('./group-status.js')
  const comment = startGroupStatusComment(group, settings, onGitHub)
  if (comment) comment.show(groupStatusBefore(group))
  return comment
}
