// What a run with a group leaves on GitHub once it has ended: the group's mark moved on the docs pull
// request's note (only after a delivered message, and only forward: a create's note carries its mark
// from the start, see thread/agent-note.ts), the label that lets later runs find the pull request, the one
// comment on a code pull request that shows its docs, and the word on the docs pull request when the
// code pull request closes. Each GitHub call is bounded and tried once more after a failure GitHub may
// not repeat; none fails the step: what could not be written is a warning that names the pull request
// and what the next run does.
import { codePullRequestOf, groupLabel, type CodePullRequest } from './group-job.js'
import { groupMarker, markedGroups, withGroupMarker } from './group-marker.js'
import { readAncestry, type GroupKeys } from './group-lookup.js'
import { compareUrl, groupWasRead, type GroupEnding, type GroupRun } from '../kernel/group.js'
import { readTwice } from '../github/read-again.js'
import { pullRequestName, pullRequestUrl, repositoryPath } from '../github/pull-request-ref.js'
import { findNotePlace, openReader, parsePullRequestLink } from '../github/note-place.js'
import type { PullRequestRef } from '../github/pull-request-details.js'
import { asObject, text } from '../github/json-shape.js'
import type { Octokit } from '../github/octokit.js'
import { ReadFailure } from '../github/read-failure.js'
import { writeTwice } from '../github/post-note.js'
import { describeWriteFailure } from '../github/write-failure.js'
import { WRITE_ACCESS } from '../kernel/write-access.js'
import { Input } from '../kernel/action-names.js'
import { log } from '../runtime/log.js'
import { hasCompleted } from '../service/job-record.js'
import { blankSecrets } from '../safety/run-secrets.js'
import { groupStatusAfter, type GroupStatusComment } from './group-status.js'
import type { GitHubRun } from '../github/session.js'
import type { NoteGroup } from '../thread/agent-note.js'

/**
 * The group's part in the note on the pull request its new job opened (thread/agent-note.ts leaves the
 * note): the group's marker, with the mark the job's changes start from, and the group's label.
 */
export function groupNotePart({
  name,
  mark,
  repository
}: {
  name: string
  mark: string
  repository?: string
}): NoteGroup {
  return {
    name,
    ...(repository === undefined ? {} : { repository }),
    marker: (key, place, jobId) => groupMarker(key, place, { jobId, group: name, mark }),
    label: (octokit, pr, signal) => labelGroupPullRequest(octokit, pr, name, signal)
  }
}

/** Puts the group's label on the pull request its note names (GitHub makes the label if the repository has none); whether it is on. */
export async function labelGroupPullRequest(
  octokit: Octokit,
  pr: PullRequestRef,
  group: string,
  signal: AbortSignal
): Promise<boolean> {
  const where = `pull request ${pullRequestName(pr)}`
  try {
    await writeTwice(signal, (limited) =>
      octokit.rest.issues.addLabels({
        owner: pr.owner,
        repo: pr.repo,
        issue_number: pr.number,
        labels: [groupLabel(group)],
        request: { signal: limited }
      })
    )
    log.info(`Labelled ${where} ${groupLabel(group)}: later runs with ${Input.group} ${group} find it by that label.`)
    return true
  } catch (error) {
    log.warning(
      `Could not label ${where} ${groupLabel(group)}: ${describeWriteFailure(error, WRITE_ACCESS.pullRequest)} The next run with ${Input.group} ${group} ` +
        `does not find it and creates a job of its own: add the label ${groupLabel(group)} to ${where} by hand.`
    )
    return false
  }
}

/**
 * Moves the group's mark to this run's commit, by editing the marker in the note on the group's open
 * pull request: only after a message the service took (a run whose message was not delivered leaves
 * it, so the next run sends those changes), and only forward. The note is read again first: when
 * another run moved the mark meanwhile, it moves only if this run's commit is ahead of that one.
 */
export async function moveGroupMark(
  group: GroupRun,
  settings: GroupKeys,
  signal: AbortSignal,
  { runner, github }: GitHubRun
): Promise<void> {
  const { open: found, covers } = group
  const place = found && findNotePlace(found.pr, settings, runner)
  const name = group.settings.name
  if (!found || !place || !covers || covers === found.mark) return
  const where = `pull request ${pullRequestName(found.pr)}`
  const short = covers.slice(0, 7)
  const reader = openReader(github, signal)
  try {
    if (!reader) throw new ReadFailure('unreachable', 'the group note', 'pull-requests: read')
    const { owner, repo } = found.pr
    // Read again for a run that moved the mark meanwhile; when GitHub cannot say, the note as the
    // look-up read it (this run's commit was ahead of its mark then) is what is edited.
    const body = await readTwice(
      reader,
      `${repositoryPath({ owner, repo })}/issues/comments/${found.commentId}`,
      "the group's note",
      'pull-requests: read'
    ).then(
      (answer) => text(asObject(answer).body),
      (error: unknown) => {
        if (error instanceof ReadFailure && error.kind !== 'cancelled') return found.body
        throw error
      }
    )
    const now = markedGroups(body, settings, place, name)
      .filter((m) => m.verified && m.jobId === found.jobId)
      .at(-1)
    if (!now) {
      log.warning(
        `The note of group ${name} on ${where} no longer holds the group's signed marker, so its mark was not moved to ` +
          `${short}. The next run of the group does not find the pull request and creates a job of its own.`
      )
      return
    }
    if (now.mark && now.mark !== found.mark) {
      // Another run moved the mark meanwhile: only a commit after it moves it on.
      const { ancestry } = await readAncestry(reader, now.mark, covers, runner)
      if (ancestry !== 'ahead') {
        log.info(`The group's mark on ${where} is at ${now.mark.slice(0, 7)} already, after another run: left there.`)
        return
      }
    }
    const marker = groupMarker(settings, place, { jobId: found.jobId, group: name, mark: covers })
    const octokit = await github.client()
    await writeTwice(signal, (limited) =>
      octokit.rest.issues.updateComment({
        owner,
        repo,
        comment_id: found.commentId,
        body: withGroupMarker(body, name, marker),
        request: { signal: limited }
      })
    )
    log.info(`The note on ${where} now says the group's docs cover the changes up to ${short}.`)
  } catch (error) {
    log.warning(
      `Could not update the note on ${where} to say the docs cover the changes up to ${short}: ` +
        `${describeWriteFailure(error, WRITE_ACCESS.pullRequest)} The next run of group ${name} sends this run's changes to the job again.`
    )
  } finally {
    await reader?.close()
  }
}

/** A code pull request merged or closed, for its group's docs pull request to be told. */
export interface CodeClosed {
  code: CodePullRequest
  group: GroupRun
  /** The range of changes the run could not send to the group's job; none by default. */
  unsent?: { from: string; to: string } | null
}

/**
 * Tells the group's docs pull request that the code pull request it documents was merged or closed
 * without merging, naming what the docs were not told of (`unsent`). Returns the docs pull request
 * told (or null when the group has none open) and, when it could not be told, why.
 */
export async function tellDocsCodeClosed(
  { code, group, unsent = null }: CodeClosed,
  signal: AbortSignal,
  { runner, github }: GitHubRun
): Promise<{ docs: string | null; untold: string | null }> {
  const how = code.merged ? 'was merged' : 'was closed without merging'
  const { open } = group
  if (!open) return { docs: null, untold: null }
  const docs = pullRequestName(open.pr)
  const server = runner.serverUrl
  const link = pullRequestUrl(code.pr, server)
  const compare = unsent && compareUrl(server, `${code.pr.owner}/${code.pr.repo}`, unsent)
  const body = blankSecrets(
    `📝 The code pull request [${code.pr.owner}/${code.pr.repo}#${code.pr.number}](${link}) that this docs pull request ` +
      `documents ${how}. ` +
      (unsent
        ? `Its last changes, [${unsent.from.slice(0, 7)}...${unsent.to.slice(0, 7)}](${compare}), were not sent to the ` +
          `job (it was still working on the ones before): ask for them here before merging. `
        : '') +
      (code.merged
        ? 'Review and merge this pull request to publish its docs.'
        : 'Its changes may not land: review this pull request, or close it.')
  )
  try {
    const octokit = await github.client()
    await writeTwice(signal, (limited) =>
      octokit.rest.issues.createComment({
        owner: open.pr.owner,
        repo: open.pr.repo,
        issue_number: open.pr.number,
        body,
        request: { signal: limited }
      })
    )
    return { docs, untold: null }
  } catch (error) {
    return { docs, untold: describeWriteFailure(error, WRITE_ACCESS.pullRequest) }
  }
}

/** A run with a group that has ended, for its record. */
export interface EndedGroupRun {
  /** How the run ended (the run's RunOutcome). */
  outcome: GroupEnding
  group: GroupRun
  /** What reached the service: a create, a message to the group's job, or nothing. */
  delivered: 'create' | 'message' | undefined
  settings: GroupKeys
  /** The code pull request's comment for the group, shown while the run went; null when there is none. */
  statusComment: GroupStatusComment | null
}

/**
 * What a run with a group leaves once it has ended: the mark moved after a delivered message; on a
 * merged code pull request, the word on the docs pull request (naming what its job was not sent, when
 * the run waited out); on an open code pull request's event, the one comment that shows its docs.
 * Never throws.
 */
export async function recordGroupRun(
  { outcome, group, delivered, settings, statusComment }: EndedGroupRun,
  signal: AbortSignal,
  onGitHub: GitHubRun
): Promise<void> {
  const { runner } = onGitHub
  if (!groupWasRead(group)) return
  const { open } = group
  if (delivered === 'message' && open) await moveGroupMark(group, settings, signal, onGitHub)
  const code = codePullRequestOf(runner)
  // A merged code pull request whose last changes this run sent, or could not send: its docs pull
  // request is told now (a run that sent nothing at all told it before, as its ending).
  const toldAlready = outcome.ending === 'held' && outcome.hold?.why === 'code-closed'
  if (code?.closed && !toldAlready) {
    const unsent = delivered ? null : { from: group.mark, to: group.covers }
    const told = await tellDocsCodeClosed({ code, group, unsent }, signal, onGitHub)
    if (told.untold) {
      log.warning(
        `Could not tell group ${group.settings.name}'s docs pull request ${told.docs} that the code pull request ` +
          `#${code.pr.number} ${code.merged ? 'was merged' : 'was closed without merging'}: ${told.untold}`
      )
    }
  }
  if (!statusComment) return
  const prLink = delivered === 'create' && outcome.job && hasCompleted(outcome.job.status) ? outcome.job.prLink : null
  const pr = prLink ? parsePullRequestLink(prLink, runner.serverUrl) : null
  const fromJob = pr && { pr, url: pullRequestUrl(pr, runner.serverUrl) }
  await statusComment.finish(groupStatusAfter(outcome, group, delivered !== undefined, fromJob), signal)
}
