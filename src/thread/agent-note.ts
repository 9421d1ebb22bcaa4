// Leaving the note on a pull request a job opened (its marker and words: agent-note-record.ts), when
// the run has ended: once per job, and only on a pull request in the repository the job's record names
// as its source; a group's new job adds the group's part (its marker and label) that the caller passes.
import type { TriggeringComment } from './trigger.js'
import { isSourceOf, noteBody, readNotesOn, signMarker, type Asker } from './agent-note-record.js'
import { openReader, findNotePlace, parsePullRequestLink, type NoteKey, type NotePlace } from '../github/note-place.js'
import type { Octokit } from '../github/octokit.js'
import { pullRequestName, type PullRequestRef } from '../github/pull-request-ref.js'
import { Input } from '../kernel/action-names.js'
import type { Settings } from '../kernel/settings.js'
import { log } from '../runtime/log.js'
import { hasCompleted } from '../service/job-record.js'
import type { RunOutcome } from '../kernel/run-outcome.js'
import { noteCutBy, postNote } from '../github/post-note.js'
import { describeWriteFailure } from '../github/write-failure.js'
import { WRITE_ACCESS } from '../kernel/write-access.js'
import { mayReadAgain } from '../github/read-again.js'
import type { Runner } from '../github/runner.js'
import type { GitHubSession } from '../github/session.js'

/**
 * Leaves the note on the pull request a job opened: its id (in the signed marker too), what asked for
 * it, and how to ask for changes. Only on a pull request on this GitHub, in the repository the job's
 * record names as its source (a link elsewhere is reported, never written to); once per job: a pull
 * request that has the job's note already (after a follow-up) gets none. It needs "pull-requests:
 * write" there; without it, one notice. Never throws: true when the note is there (or is not
 * wanted), false when it could not be left.
 */
/** What the note is left with: the ending, the settings, the comment that asked, the bound, the runner and the session. */
export interface AgentNote {
  outcome: RunOutcome
  settings: Pick<Settings, 'githubToken' | 'apiKey' | 'projectId' | 'noteTrigger'> | null
  comment: TriggeringComment | null
  signal: AbortSignal
  runner: Runner
  github: GitHubSession
  /** A run with a group that created this job: the note makes the pull request the group's. */
  group?: NoteGroup
  /** A reporting run's note: who asked, as the run that handed the job over worded it (its record keeps it). */
  asker?: Asker
  /**
   * The note may be there already, a group's too: a reporting run telling an ending again, after a
   * write of an earlier try failed (a note GitHub made despite a 5xx is found, not posted twice).
   */
  lookFirst?: boolean
}

/**
 * A group's part in the note, made by the group's room (group/group-record.ts, groupNotePart): its
 * signed marker beside the job's (group/group-marker.ts) and its label on the pull request.
 */
export interface NoteGroup {
  name: string
  /** The one repository the group is looked for in, when the run knows it. */
  repository?: string
  /** The group's signed marker for the note's place, naming the job and the group's mark. */
  marker(key: NoteKey, place: NotePlace, jobId: string): string
  /** Puts the group's label on the pull request; whether it is on. */
  label(octokit: Octokit, pr: PullRequestRef, signal: AbortSignal): Promise<boolean>
}

export async function leaveAgentNote({
  outcome,
  settings,
  comment,
  signal,
  runner,
  github,
  group,
  asker,
  lookFirst = false
}: AgentNote): Promise<boolean> {
  const { job } = outcome
  if (!settings || outcome.ending !== 'final' || !job || !hasCompleted(job.status) || !job.prLink) return true
  const jobId = job.id
  const { serverUrl } = github
  const pr = parsePullRequestLink(job.prLink, serverUrl)
  if (!pr) return true
  const trigger = settings.noteTrigger
  const where = `pull request ${pullRequestName(pr)}`
  // The group is looked for in one repository (docsRepository, or this one): a pull request elsewhere
  // would be labelled where no later run of the group looks, and each would open one of its own.
  const lookedIn = group?.repository
  if (group && lookedIn && `${pr.owner}/${pr.repo}`.toLowerCase() !== lookedIn.toLowerCase()) {
    log.warning(
      `Job ${jobId}'s pull request is in ${pr.owner}/${pr.repo}, but group ${group.name} is looked for in ${lookedIn}: ` +
        `later runs of the group would not find it, and each would open a docs pull request of its own. Set ` +
        `${Input.docsRepository}: ${pr.owner}/${pr.repo} in the workflow (the token must read and write there).`
    )
  }
  if (!isSourceOf(job.sourceRepository, pr, serverUrl)) {
    log.notice(
      `No note was left on ${where}: it is not in the repository job ${jobId} names as its source ` +
        `(${job.sourceRepository ?? 'none given'}), so the action does not write there. A later ${trigger} comment ` +
        `there starts a new job; to send the job an instruction, run this action with ${Input.jobId}.`
    )
    return true
  }
  const { githubToken: token } = settings
  if (!token) {
    log.debug(`No note on ${where}: ${Input.githubToken} is empty.`)
    return true
  }
  const place = findNotePlace(pr, settings, runner)
  const reader = openReader(github, signal)
  if (!reader || !place) return true
  try {
    // A job this run's group created is new: its pull request holds no note of it yet, and the group's
    // record must not hang on one read. Otherwise the note is left once per job (a read GitHub failed
    // once is tried again).
    if (!group || lookFirst) {
      const notes = await readNotesOn(reader, pr, { key: settings, place }).catch((error: unknown) => {
        if (mayReadAgain(error)) return readNotesOn(reader, pr, { key: settings, place })
        throw error
      })
      if (notes.some((note) => note.verified && note.jobId === jobId)) {
        // Left by an earlier try: a group's label may not be (adding it again changes nothing).
        return !group || (await group.label(await github.client(), pr, signal))
      }
    }
    const signed = group
      ? `${signMarker(settings, place, jobId)}\n${group.marker(settings, place, jobId)}`
      : signMarker(settings, place, jobId)
    const body = (server: string) =>
      noteBody({ signedMarker: signed, jobId, comment, trigger, serverUrl: server, runner, group: group?.name, asker })
    const octokit = await postNote(github, pr, body, signal)
    log.info(`Left a note on ${where} naming job ${jobId}, for follow-ups with ${trigger}.`)
    return !group || (await group.label(octokit, pr, signal))
  } catch (error) {
    // Cut by the end of the run's time for GitHub (ending-bound.ts): that is what happened, not a cancel.
    const cut = noteCutBy(signal)
    const why = cut ? `${cut}.` : describeWriteFailure(error, WRITE_ACCESS.pullRequest)
    if (group) {
      log.warning(
        `Could not leave group ${group.name}'s note on ${where} naming job ${jobId}: ${why} The group's next run does ` +
          `not find this pull request, and creates a job (and a docs pull request) of its own: merge or close ${where} ` +
          `first, or run the workflow again to send its changes there.`
      )
      return false
    }
    log.notice(
      `Could not leave a note on ${where} naming job ${jobId}: ${why} ` +
        `A later ${trigger} comment there then starts a new job instead of a follow-up. The run is not affected.`
    )
    return false
  } finally {
    await reader.close()
  }
}
