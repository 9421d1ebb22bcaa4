// The group as a run's ending tells it: in the job summary (its docs pull request, and the commits this
// run sent with their comparison on this GitHub) and in the note a new job of the group gets, which
// makes that job's pull request the group's. Both read the group the look-up found and what reached
// the service; the stage that tells the ending (follow/tell-ending.ts) hands them on.
import type { Runner } from '../github/runner.js'
import { compareUrl, groupWasRead, type GroupEnding, type GroupRun } from '../kernel/group.js'

/** A group as its run's summary names it. */
export interface GroupShown {
  name: string
  /** The group's docs pull request (the open one the run sent to, or the one its job opened); null for none. */
  pullRequest: string | null
  /** The changes this run sent the group's job: after `from` (the group's mark; '' for none) up to `to`; null when it sent none. */
  sent: { from: string; to: string; compare: string | null } | null
}

/** What reached the service: a create, a message to the group's job, or nothing. */
export type Delivered = 'create' | 'message' | undefined

/**
 * The group as the summary names it: its pull request (the open one, or the one this run's job
 * opened) and the commits this run sent, with their comparison on this GitHub.
 */
export function groupShown(group: GroupRun, outcome: GroupEnding, delivered: Delivered, runner: Runner): GroupShown {
  const opened = delivered === 'create' ? (outcome.job?.prLink ?? null) : null
  const { mark, covers } = group
  const compare =
    mark && covers && runner.serverUrl && runner.repository
      ? compareUrl(runner.serverUrl, runner.repository, { from: mark, to: covers })
      : null
  return {
    name: group.settings.name,
    // A job created for the group (its pull request closed, or its job ended) opened the group's next one.
    pullRequest: opened ?? group.open?.url ?? null,
    // A request on the code pull request carries no commits (covers is the mark): it sent none.
    sent: delivered && covers && covers !== mark ? { from: mark, to: covers, compare } : null
  }
}

/**
 * What the note on a new job's pull request says of the group, when this run's create made it the
 * group's (with the mark in the note); undefined when the run sent a message, or nothing, or its
 * group could not be looked for.
 */
export function groupNoteOf(
  group: GroupRun | null,
  delivered: Delivered
): { name: string; mark: string; repository: string } | undefined {
  return group && delivered === 'create' && groupWasRead(group)
    ? { name: group.settings.name, mark: group.covers, repository: group.settings.repository }
    : undefined
}
