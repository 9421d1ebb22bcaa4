// A group's shapes as every room reads them: the group a run found (its docs pull request, its mark,
// how this run's commit stands to it), what the group's record reads of the ending, and the pure
// helpers over them. group/ finds and records the group; the route, the ending, the thread and the
// prompt only read these.
import type { ReadFailure } from '../github/read-failure.js'
import type { PullRequestRef } from '../github/pull-request-details.js'
import type { GroupSettings } from './settings.js'
import type { Ending, GroupHold } from './run-outcome.js'
import type { Job } from '../service/job-record.js'

/** A pull request of the group, as its verified marker names it. */
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
  /** Whether it was open when listed. */
  open: boolean
}

/** What looking for the group's pull request found. */
export type GroupLookup =
  /** The group's open docs pull request. */
  | { kind: 'found'; found: GroupPullRequest }
  /**
   * No open pull request of the group. `previous`: its newest merged or closed one (its mark is where
   * a new job starts); `unverified`: labelled pull requests whose markers did not verify; `bound`: the
   * look-up stopped at its bound, with labelled entries left unread.
   */
  | { kind: 'none'; previous: GroupPullRequest | null; unverified: number[]; bound: string | null }
  | { kind: 'unreadable'; failure: ReadFailure }

/**
 * How this run's commit stands to the group's mark: `ahead`, it has changes the group's job was not
 * told of; `covered`, the mark is this commit or after it (a re-run, or an older run run again):
 * nothing to send; `fresh`, the group has no mark yet; `gone`, the mark is no longer in the history
 * (force-pushed away); `unread`, the comparison could not be read; `asked`, the run is a request (a
 * comment on the group's code pull request) that carries no commits: the mark stays where it is.
 */
export type Ancestry = 'ahead' | 'covered' | 'fresh' | 'gone' | 'unread' | 'asked'

/** A run's group as the stages found it. */
export interface GroupRun {
  settings: GroupSettings
  lookup: GroupLookup
  /** The group's open docs pull request (the look-up's `found`), or null. */
  open: GroupPullRequest | null
  /** The group's mark: where the changes this run tells of start; '' when the group has none. */
  mark: string
  /** The commit whose changes this run tells of: the group's mark once they are delivered. */
  covers: string
  ancestry: Ancestry
  /** Why the comparison could not be read, when `ancestry` is `unread`. */
  ancestryFailure?: ReadFailure
}

/**
 * What the group's record reads of how the run ended: the run's RunOutcome (kernel/run-outcome.ts)
 * carries all of it, and is passed as it is.
 */
export interface GroupEnding {
  ending: Ending
  /** Why a `held` run sent nothing. */
  hold?: { why: GroupHold['why'] }
  /** The job's id; empty when no job is known. */
  jobId: string
  /** The job as last seen; null if it was never read. */
  job: Pick<Job, 'status' | 'prLink'> | null
  /** The run sent (or was sending) the prompt to the group's job as a follow-up message. */
  followUp?: boolean
}

/**
 * Whether GitHub showed the group (its open docs pull request, or that it has none): a run whose group
 * could not be looked for went on as without one (said once, by sayLookup), and leaves the group
 * nothing: no note of the group, no mark, no code pull request comment.
 */
export function groupWasRead(group: GroupRun): boolean {
  return group.lookup.kind !== 'unreadable'
}

/** The comparison of a range of commits (`from`...`to`) in `repository` (owner/repo), on the GitHub at `serverUrl`. */
export function compareUrl(serverUrl: string, repository: string, { from, to }: { from: string; to: string }): string {
  return `${serverUrl}/${repository}/compare/${from}...${to}`
}
