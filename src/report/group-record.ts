// What a run with a group leaves on GitHub once it has ended: the group's mark moved on the docs pull
// request's note (only after a delivered message: a create's note carries its mark from the start,
// see agent-note.ts), the label that lets later runs find the pull request, the one comment on a code
// pull request that shows its docs, and the word on the docs pull request when the code pull request
// closes. Each GitHub call is bounded and none fails the step: a failure is one notice.
import {
  groupLabel,
  groupMarker,
  withGroupMarker,
  pullUrl,
  type CodePullRequest,
  type GroupPullRequest,
  type GroupRun
} from '../comment/group-job.js'
import { findNotePlace, parsePullRequestLink } from '../comment/agent-pull-request.js'
import { AGENT_PULL_REQUEST_READS, type PullRequestRef } from '../github/pull-request-details.js'
import { codePullRequestOf } from '../comment/group-job.js'
import { formatDuration } from '../runtime/duration.js'
import { loadOctokit, type Octokit } from '../github/octokit.js'
import { keepLiveComment, type CommentPlace } from './live-comment.js'
import { wordWriteFailure } from './post-note.js'
import { Input } from '../inputs/action-names.js'
import type { Settings } from '../inputs/settings.js'
import { timeLimit } from '../runtime/deadline.js'
import { log } from '../runtime/log.js'
import { oneLineCodeSpan } from '../safety/quote-for-agent.js'
import { blankSecrets } from '../safety/run-secrets.js'
import type { RunOutcome } from './run-ending.js'
import type { Runner } from '../github/runner.js'

const { requestTimeoutMs, maxPages, perPage } = AGENT_PULL_REQUEST_READS

type Keys = Pick<Settings, 'githubToken' | 'apiKey' | 'projectId'>

/** Runs a GitHub call within its time limit (held for the whole call, see timeLimit). */
async function bounded<T>(signal: AbortSignal, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const limit = timeLimit(requestTimeoutMs, signal)
  try {
    return await call(limit.signal)
  } finally {
    limit.clear()
  }
}

/** Puts the group's label on the pull request its note names (GitHub makes the label if the repository has none). */
export async function labelGroupPullRequest(
  octokit: Octokit,
  pr: PullRequestRef,
  group: string,
  signal: AbortSignal
): Promise<void> {
  const where = `pull request #${pr.number} of ${pr.owner}/${pr.repo}`
  try {
    await bounded(signal, (limited) =>
      octokit.rest.issues.addLabels({
        owner: pr.owner,
        repo: pr.repo,
        issue_number: pr.number,
        labels: [groupLabel(group)],
        request: { signal: limited }
      })
    )
    log.info(`Labelled ${where} ${groupLabel(group)}: later runs with ${Input.group} ${group} find it by that label.`)
  } catch (error) {
    log.notice(
      `Could not label ${where} ${groupLabel(group)}: ${wordWriteFailure(error)} Later runs with ${Input.group} ${group} ` +
        `do not find it, and each creates a job of its own.`
    )
  }
}

/**
 * Moves the group's mark to this run's commit, by editing the marker in the note on the group's pull
 * request: only after a message the service took (a run whose message was not delivered leaves it, so
 * the next run sends those changes too).
 */
export async function moveGroupMark(
  found: GroupPullRequest,
  group: GroupRun,
  settings: Keys,
  signal: AbortSignal,
  runner: Runner
): Promise<void> {
  const place = findNotePlace(found.pr, settings, runner)
  if (!place || !group.mark || group.mark === found.mark) return
  const where = `pull request #${found.pr.number} of ${found.pr.owner}/${found.pr.repo}`
  const marker = groupMarker(settings, place, found.jobId, group.settings.name, group.mark)
  try {
    const { octokit } = await loadOctokit(settings.githubToken)
    await bounded(signal, (limited) =>
      octokit.rest.issues.updateComment({
        owner: found.pr.owner,
        repo: found.pr.repo,
        comment_id: found.commentId,
        body: withGroupMarker(found.body, group.settings.name, marker),
        request: { signal: limited }
      })
    )
    log.info(`The note on ${where} now says the group's docs cover the changes up to ${group.mark.slice(0, 7)}.`)
  } catch (error) {
    log.notice(
      `Could not update the note on ${where} to say the docs cover the changes up to ${group.mark.slice(0, 7)}: ` +
        `${wordWriteFailure(error)} The next run of the group sends this run's changes again.`
    )
  }
}

/**
 * Tells the group's docs pull request that the code pull request it documents was merged or closed
 * without merging; returns the sentence that says what the run did (it creates and sends nothing).
 */
export async function tellDocsCodeClosed(
  code: CodePullRequest,
  group: GroupRun,
  settings: Keys,
  signal: AbortSignal,
  runner: Runner
): Promise<string> {
  const how = code.merged ? 'was merged' : 'was closed without merging'
  const codeWhere = `pull request #${code.pr.number}`
  const nothing = 'Nothing was sent to the documentation agent job service.'
  const { lookup } = group
  if (lookup.kind !== 'found') {
    return `The code ${codeWhere} ${how}, and group ${group.settings.name} has no open docs pull request to tell. ${nothing}`
  }
  const { found } = lookup
  const docsWhere = `pull request #${found.pr.number} of ${found.pr.owner}/${found.pr.repo}`
  const link = pullUrl(code.pr, runner)
  const body = blankSecrets(
    `📝 The code pull request [${code.pr.owner}/${code.pr.repo}#${code.pr.number}](${link}) that this docs pull request ` +
      `documents ${how}. ` +
      (code.merged
        ? 'Review and merge this pull request to publish its docs.'
        : 'Its changes may not land: review this pull request, or close it.')
  )
  try {
    const { octokit } = await loadOctokit(settings.githubToken)
    await bounded(signal, (limited) =>
      octokit.rest.issues.createComment({
        owner: found.pr.owner,
        repo: found.pr.repo,
        issue_number: found.pr.number,
        body,
        request: { signal: limited }
      })
    )
    return `The code ${codeWhere} ${how}: said so on the group's docs ${docsWhere}. ${nothing}`
  } catch (error) {
    return `The code ${codeWhere} ${how}, but the group's docs ${docsWhere} could not be told: ${wordWriteFailure(error)} ${nothing}`
  }
}

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
}

/** The hidden marker by which the code pull request's one comment for a group is found again. */
export function groupStatusMarker(group: string): string {
  return `<!-- docs-agent-group-status: ${group} -->`
}

/** The comment's text: the action's words, outside values in code spans. */
export function groupStatusBody(status: GroupStatus): string {
  const docs = status.docs ? `[#${status.docs.number}](${status.docs.url}), open` : 'none open yet'
  const job = status.jobId
    ? `${oneLineCodeSpan(status.jobId)}, ${status.status ? oneLineCodeSpan(status.status, 40) : 'status not read'}`
    : 'none yet'
  const covered = status.coveredUpTo ? `the changes up to ${status.coveredUpTo.slice(0, 7)}` : 'no changes yet'
  return blankSecrets(
    `${groupStatusMarker(status.group)}\n📝 **Docs for this pull request** (group ${oneLineCodeSpan(status.group)})\n\n` +
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
export function startGroupStatusComment(group: GroupRun, settings: Keys, runner: Runner): GroupStatusComment | null {
  const code = codePullRequestOf(runner)
  if (!code || code.closed || group.lookup.kind === 'unreadable' || !settings.githubToken) return null
  const { owner, repo, number } = code.pr
  const marker = groupStatusMarker(group.settings.name)
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
    load: (call) => call('load the GitHub client', () => loadOctokit(settings.githubToken)).then((c) => c ?? null),
    place,
    what: 'docs status',
    where: `pull request #${number}`,
    requestTimeoutMs: STATUS_CALL_MS
  })
  let posted: Promise<unknown> = Promise.resolve()
  let first = true
  return {
    show: (status) => {
      if (!first) return live.show(groupStatusBody(status))
      first = false
      posted = live.client.then((client) => client && live.post(client, groupStatusBody(status)))
    },
    finish: (status, bound) => live.finish(() => groupStatusBody(status), posted, bound)
  }
}

/** The earlier runs' comment for the group on the code pull request: the first whose body has the marker. */
async function findStatusComment(
  octokit: Octokit,
  pr: PullRequestRef,
  marker: string,
  signal: AbortSignal
): Promise<number | undefined> {
  for (let page = 1; page <= maxPages; page++) {
    const { data } = await octokit.rest.issues.listComments({
      owner: pr.owner,
      repo: pr.repo,
      issue_number: pr.number,
      per_page: perPage,
      page,
      request: { signal }
    })
    const found = data.find((comment) => typeof comment.body === 'string' && comment.body.includes(marker))
    if (found) return found.id
    if (data.length < perPage) return undefined
  }
  return undefined
}

/** What the code pull request's comment shows while the run goes: the job it is sending to, or that it creates one. */
export function groupStatusBefore(group: GroupRun): GroupStatus {
  const found = group.lookup.kind === 'found' ? group.lookup.found : null
  return {
    group: group.settings.name,
    docs: found ? { url: found.url, number: found.pr.number } : null,
    jobId: found?.jobId ?? '',
    status: '',
    coveredUpTo: found?.mark ?? '',
    waiting: false,
    sending: true
  }
}

/** The group's status after the run, from how it ended and what the group had. */
export function groupStatusAfter(
  outcome: RunOutcome,
  group: GroupRun,
  delivered: boolean,
  /** The pull request the job opened, with its link, when the run's create made it the group's. */
  fromJob: { pr: PullRequestRef; url: string } | null
): GroupStatus {
  const found = group.lookup.kind === 'found' ? group.lookup.found : null
  const docs = delivered && !outcome.followUp ? fromJob : found
  return {
    group: group.settings.name,
    docs: docs ? { url: docs.url, number: docs.pr.number } : null,
    jobId: outcome.jobId || found?.jobId || '',
    status: outcome.job?.status ?? '',
    coveredUpTo: delivered ? group.mark : (found?.mark ?? ''),
    waiting: outcome.ending === 'skipped' && !delivered && found !== null
  }
}

/** What the run does with the group's job, as one line: in a dry run, or before a wait or a create. */
export function groupSendLine(
  group: GroupRun,
  dryRun: boolean,
  why?: 'busy' | 'archived' | 'failed' | 'gone' | 'refused'
): string {
  const { name } = group.settings
  const found = group.lookup.kind === 'found' ? group.lookup.found : null
  if (dryRun) {
    return found
      ? `Dry run: group ${name}'s job ${found.jobId} (docs pull request #${found.pr.number} of ${found.pr.owner}/${found.pr.repo}) ` +
          `would get this prompt as a follow-up message.`
      : `Dry run: group ${name} has no open docs pull request, so a job would be created.`
  }
  const jobId = found?.jobId ?? ''
  const creates = `this run creates a job, and its pull request becomes the group's.`
  switch (why) {
    case 'busy':
      return `Job ${jobId}, group ${name}'s, is still working on the group's last message: the prompt is sent once it has finished, within the ${Input.timeout}.`
    case 'archived':
    case 'failed':
      return `Group ${name}'s job ${jobId} ended ${why} and takes no more messages: ${creates}`
    case 'gone':
      return `Group ${name}'s job ${jobId} was not found in the project (HTTP 404): ${creates}`
    case 'refused':
      return `Group ${name}'s job ${jobId} refused the follow-up message, so the service did not take it: ${creates}`
    default:
      return `Group ${name}: ${creates}`
  }
}

/** Why a run whose group's job stayed busy past the timeout sent nothing, and what becomes of its changes. */
export function waitedOutReason(group: GroupRun, timeoutMs: number): string {
  const found = group.lookup.kind === 'found' ? group.lookup.found : null
  return (
    `Group ${group.settings.name}'s job ${found?.jobId ?? ''} was still working on the group's last message when the ` +
    `${Input.timeout} (${formatDuration(timeoutMs)}) ran out, so this run sent nothing. Its changes go with the group's ` +
    `next run: the note still marks ${found?.mark ? found.mark.slice(0, 7) : 'the last commit the job was told of'} as the last commit the job was told of.`
  )
}

/**
 * What a run with a group leaves once it has ended: the mark moved after a delivered message, and on
 * a code pull request's event the one comment that shows its docs. Never throws.
 */
export async function recordGroupRun(
  outcome: RunOutcome,
  group: GroupRun,
  delivered: 'create' | 'message' | undefined,
  settings: Keys,
  signal: AbortSignal,
  statusComment: GroupStatusComment | null,
  runner: Runner
): Promise<void> {
  if (group.lookup.kind === 'unreadable') return
  const found = group.lookup.kind === 'found' ? group.lookup.found : null
  if (delivered === 'message' && found) await moveGroupMark(found, group, settings, signal, runner)
  if (!statusComment) return
  const prLink = delivered === 'create' && outcome.job?.status === 'completed' ? outcome.job.prLink : null
  const pr = prLink ? parsePullRequestLink(prLink, runner.serverUrl) : null
  const fromJob = pr && { pr, url: pullUrl(pr, runner) }
  await statusComment.finish(groupStatusAfter(outcome, group, delivered !== undefined, fromJob), signal)
}
