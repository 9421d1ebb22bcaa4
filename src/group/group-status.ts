// The one comment on a code pull request that shows its docs, for a group: which docs pull request,
// which job, and up to which commit the docs were told of. Kept showing the newest status while the
// run goes (github/live-comment.ts), and found again on later runs.
import { WRITE_ACCESS } from '../kernel/write-access.js'
import { codePullRequestOf } from './group-job.js'
import { groupStatusMarker, statusSignature } from './group-status-marker.js'
import type { GroupKeys } from './group-lookup.js'
import { groupWasRead, type GroupEnding, type GroupRun } from '../kernel/group.js'
import { isWrittenBy, readAuthor } from '../github/author.js'
import { AGENT_PULL_REQUEST_READS, type PullRequestRef } from '../github/pull-request-details.js'
import type { Octokit } from '../github/octokit.js'
import { oneLineCodeSpan } from '../safety/quote-for-agent.js'
import { blankSecrets } from '../safety/run-secrets.js'
import { keepLiveComment, type CommentPlace } from '../github/live-comment.js'
import type { GitHubRun } from '../github/session.js'

const { maxPages, perPage } = AGENT_PULL_REQUEST_READS

/** What the code pull request's comment shows of its docs. */
export interface GroupStatus {
  group: string
  /** The docs pull request, when there is one. */
  docs: { url: string; number: number } | null
  jobId: string
  /** The job's status as last seen, or '' when it was not read. */
  status: string
  /** The last commit the docs cover, or '' when none is known yet. */
  coveredUpTo: string
  /** This run's changes were not sent (the group's job was busy): they go with the next run. */
  waiting: boolean
  /** The run is sending this push's changes now. */
  sending?: boolean
  /** The marker's signature (statusSignature). */
  signature?: string
}

/** The comment's text: the action's words, outside values in code spans. */
export function groupStatusBody(status: GroupStatus): string {
  const docs = status.docs ? `[#${status.docs.number}](${status.docs.url}), open` : 'none open yet'
  const job = status.jobId
    ? `${oneLineCodeSpan(status.jobId)}, ${status.status ? oneLineCodeSpan(status.status, 40) : 'status not read'}`
    : 'none yet'
  const covered = status.coveredUpTo ? `the changes up to ${status.coveredUpTo.slice(0, 7)}` : 'no changes yet'
  return blankSecrets(
    `${groupStatusMarker(status.group, status.signature)}\n📝 **Docs for this pull request** (group ${oneLineCodeSpan(status.group)})\n\n` +
      `- Docs pull request: ${docs}\n- Job: ${job}\n- The docs cover ${covered}.` +
      (status.waiting ? "\n- This push's changes go with the group's next run: the job was still busy." : '') +
      (status.sending ? "\n- ⏳ This push's changes are on their way to the job." : '')
  )
}

/** The code pull request's comment for a group, kept showing the newest status while the run goes. */
export interface GroupStatusComment {
  /** Shows the status at once (the comment is posted, or the earlier run's edited). */
  show(status: GroupStatus): void
  /** Shows the final status, within `bound` (the run's end's time for GitHub). */
  finish(status: GroupStatus, bound: AbortSignal): Promise<void>
}

// The comment is a courtesy, like the reply on a thread: each call bounded, the last one within the ending's bound.
const STATUS_CALL_MS = 10_000

/**
 * The one comment on the code pull request that shows its docs: found by the group's marker (the
 * earlier runs' comment, within the page cap) and edited, or posted once; from then on edited as the
 * run goes (see live-comment.ts). Null when the run is not for an open code pull request, or its
 * group could not be looked for (said once already), or there is no token.
 */
export function startGroupStatusComment(
  group: GroupRun,
  settings: GroupKeys,
  { runner, github }: GitHubRun
): GroupStatusComment | null {
  const code = codePullRequestOf(runner)
  if (!code || code.closed || !groupWasRead(group) || !settings.githubToken) return null
  const { owner, repo, number } = code.pr
  const signature = statusSignature(settings, code.pr, group.settings.name, runner)
  const marker = groupStatusMarker(group.settings.name, signature)
  const body = (status: GroupStatus): string => groupStatusBody({ ...status, signature })
  const place: CommentPlace = {
    post: async (octokit, body, signal) => {
      const earlier = await findStatusComment(octokit, code.pr, marker, signal)
      if (earlier === undefined) {
        return octokit.rest.issues.createComment({ owner, repo, issue_number: number, body, request: { signal } })
      }
      return octokit.rest.issues.updateComment({ owner, repo, comment_id: earlier, body, request: { signal } })
    },
    edit: (octokit, id, body, signal) =>
      octokit.rest.issues.updateComment({ owner, repo, comment_id: id, body, request: { signal } }),
    list: (octokit, since, signal) =>
      octokit.rest.issues.listComments({ owner, repo, issue_number: number, since, per_page: 100, request: { signal } })
  }
  const live = keepLiveComment({
    load: (call) =>
      call('load the GitHub client', async () => ({ octokit: await github.client() })).then((c) => c ?? null),
    place,
    what: 'docs status',
    where: `pull request #${number}`,
    requestTimeoutMs: STATUS_CALL_MS,
    access: WRITE_ACCESS.pullRequest
  })
  let posted: Promise<unknown> = Promise.resolve()
  let first = true
  return {
    show: (status) => {
      if (!first) return live.show(body(status))
      first = false
      posted = live.client.then((client) => client && live.post(client, body(status)))
    },
    finish: (status, bound) => live.finish(() => body(status), posted, bound)
  }
}

/**
 * The earlier runs' comment for the group on the code pull request: the first whose body has the marker,
 * written by the account the action writes as (github/author.ts): another author's comment edited to hold a
 * copy of the marker is never taken for it, nor edited.
 */
async function findStatusComment(
  octokit: Octokit,
  pr: PullRequestRef,
  marker: string,
  signal: AbortSignal
): Promise<number | undefined> {
  const author = await readAuthor(
    () => octokit.rest.users.getAuthenticated({ request: { signal } }).then((answer) => answer.data),
    signal
  )
  for (let page = 1; page <= maxPages; page++) {
    const { data } = await octokit.rest.issues.listComments({
      owner: pr.owner,
      repo: pr.repo,
      issue_number: pr.number,
      per_page: perPage,
      page,
      request: { signal }
    })
    const found = data.find(
      (comment) =>
        typeof comment.body === 'string' && comment.body.includes(marker) && isWrittenBy(author, comment.user)
    )
    if (found) return found.id
    if (data.length < perPage) return undefined
  }
  return undefined
}

/** What the code pull request's comment shows while the run goes: the job it is sending to, or that it creates one. */
export function groupStatusBefore(group: GroupRun): GroupStatus {
  const { open } = group
  return {
    group: group.settings.name,
    docs: open ? { url: open.url, number: open.pr.number } : null,
    jobId: open?.jobId ?? '',
    status: '',
    coveredUpTo: group.mark,
    waiting: false,
    sending: true
  }
}

/** The group's status after the run, from how it ended and what the group had. */
export function groupStatusAfter(
  outcome: GroupEnding,
  group: GroupRun,
  delivered: boolean,
  /** The pull request the job opened, with its link, when the run's create made it the group's. */
  fromJob: { pr: PullRequestRef; url: string } | null
): GroupStatus {
  const { open } = group
  const docs = delivered && !outcome.followUp ? fromJob : open
  return {
    group: group.settings.name,
    docs: docs ? { url: docs.url, number: docs.pr.number } : null,
    jobId: outcome.jobId || open?.jobId || '',
    status: outcome.job?.status ?? '',
    coveredUpTo: delivered ? group.covers : group.mark,
    waiting: !delivered && outcome.ending === 'held' && outcome.hold?.why !== 'covered'
  }
}
