// Telling a handed-over job's ending, as a held run tells it at its end: the thread's reply edited
// with the outcome, the note on the agent's pull request (with the group's label and mark), the
// commit status completed, then the record marked final. Exactly once: the record is read again
// right before, a final record is done, and a reaction on it claims the telling (GitHub answers 201
// to the first only). The record is marked final last, in one edit, and only once every write before
// it succeeded: a write that failed (or a cancel) leaves it open and its claim given up, and the next
// reporting run tells it again. Each step is one GitHub shows the same way twice, and a write GitHub
// may have made despite a 5xx is read back rather than made again: the reply's body, the note looked
// for first, the commit's newest status.
import { readRecords, signRecord, withRecord, findRecordPlace } from '../github/signed-record.js'
import { repositoryPath } from '../github/pull-request-ref.js'
import { asObject, text } from '../github/json-shape.js'
import { runLink, type Octokit } from '../github/octokit.js'
import type { GitHubReader } from '../github/reader.js'
import type { Runner } from '../github/runner.js'
import type { ReportSettings } from '../kernel/settings.js'
import { leaveAgentNote } from '../thread/agent-note.js'
import { groupNotePart } from '../group/group-record.js'
import { agentPullRequestShown } from '../ending/agent-pull-request-shown.js'
import { writeOutcomeReply } from '../thread/reply-text.js'
import { commitShows, setCommitStatus, statusOfJob } from './commit-status.js'
import type { JobIndex } from './job-index.js'
import type { IndexedRecord, JobRecord } from './index-records.js'
import { describeWriteFailure, mayHaveWritten } from '../github/write-failure.js'
import { WRITE_ACCESS } from '../kernel/write-access.js'
import { describeEnding } from '../ending/run-ending.js'
import type { RunOutcome } from '../kernel/run-outcome.js'
import { describeThreadEnding } from '../ending/thread-words.js'
import { timeLimit } from '../runtime/deadline.js'
import { log } from '../runtime/log.js'
import type { Job } from '../service/job-record.js'
import type { GitHubSession } from '../github/session.js'

/**
 * A claim older than this was left by a run that never finished (a reporter cancelled after its
 * claim): longer than a reporting run may take (REPORT_RUN_MS), so a live claim is never taken over.
 */
export const CLAIM_LEASE_MS = 20 * 60_000

/** One GitHub call's own limit while telling an ending. */
const TELL_CALL_MS = 10_000

/** Giving up a claim after a failed telling (or a cancel): well within the cancel's grace (runtime/cancel.ts). */
const GIVE_UP_MS = 3000

/** Where a reporting run tells endings: the index, the clients, and the links it gives. */
export interface ReportPlace {
  octokit: Octokit
  reader: GitHubReader
  index: JobIndex
  issue: number
  settings: ReportSettings
  /** owner/name of this repository. */
  repository: string
  serverUrl: string
  /** The reporting run's page, where its summary is. */
  runUrl: string
  signal: AbortSignal
  runner: Runner
  github: GitHubSession
}

/** The place endings are told from, once the index is read: this repository, this GitHub, this run's page. */
export function reportPlaceOf(read: Omit<ReportPlace, 'repository' | 'serverUrl' | 'runUrl'>): ReportPlace {
  const { repository, runId } = read.runner
  const { serverUrl } = read.github
  return { ...read, repository, serverUrl, runUrl: runLink(serverUrl, repository, runId) }
}

/**
 * How telling one record went: `told` by this run; `done`, already final (another run told it);
 * `claimed`, another run has claimed it (and tells it, or its claim lapses); `unfinished`, a write of
 * its telling failed: the record stays open for the next run.
 */
export type Telling = 'told' | 'done' | 'claimed' | 'unfinished'

/** The ending a record's job came to: the job as last read, or unknown to the service. */
export type JobEnding = { job: Job } | { unknown: string }

/** Tells the ending of the job `indexed` records, exactly once (see the file's opening comment). */
export async function tellRecordedEnding(
  place: ReportPlace,
  indexed: IndexedRecord,
  ending: JobEnding,
  /** The caller holds the claim already (a queued create's), and has read the record just now. */
  claimedAlready = false
): Promise<Telling> {
  let claim: { record: JobRecord; reactionId?: number } | 'done' | 'claimed'
  try {
    claim = claimedAlready ? { record: indexed.record } : await claimRecord(place, indexed)
  } catch (error) {
    if (place.signal.aborted) throw error
    // A claim GitHub may have given despite its error holds until it lapses: it is not taken for another's.
    log.warning(
      `Could not claim the telling of job ${indexed.record.job}: ${describeWriteFailure(error, WRITE_ACCESS.index)} ` +
        'Its record stays open: a later reporting run tells it.'
    )
    return 'unfinished'
  }
  if (typeof claim === 'string') return claim
  const told = await tellClaimed(place, { ...indexed, record: claim.record }, ending, claim.reactionId)
  return told ? 'told' : 'unfinished'
}

/**
 * Claims the telling of a record, after reading it again: its record as read (and the claim's
 * reaction) when this run holds the claim; `done` when it is final already; `claimed` when another
 * run holds a claim that has not lapsed.
 */
export async function claimRecord(
  place: ReportPlace,
  indexed: IndexedRecord
): Promise<{ record: JobRecord; reactionId: number } | 'done' | 'claimed'> {
  const { index, issue, signal } = place
  const now = await index.reread(issue, indexed.commentId)
  if (!now || now.state === 'final') return 'done'
  let claim = await index.claim(indexed.commentId, signal)
  if (!claim.claimed) {
    if (Date.now() - claim.since < CLAIM_LEASE_MS) return 'claimed'
    // The claim's run never finished: its claim goes, and whoever claims next tells it.
    await index.dropClaim(indexed.commentId, claim.reactionId, signal)
    claim = await index.claim(indexed.commentId, signal)
    if (!claim.claimed) return 'claimed'
  }
  return { record: now, reactionId: claim.reactionId }
}

/**
 * Tells a claimed record's ending (the reply, the note, the commit status), then marks it final;
 * whether it did. When a write failed (or the run was cancelled meanwhile), the record stays open and
 * the claim (`reactionId`, when the caller knows it) is given up, so that the next run tells it again.
 */
export async function tellClaimed(
  place: ReportPlace,
  indexed: IndexedRecord,
  ending: JobEnding,
  reactionId?: number
): Promise<boolean> {
  const { index, issue, signal } = place
  const { record } = indexed
  const outcome = outcomeOf(record, ending)
  const told = 'job' in ending ? ending.job.status : 'unknown'
  const failed = (
    await Promise.all([
      tellOnThread(place, record, outcome),
      leaveNote(place, record, outcome),
      completeCommitStatus(place, record, 'job' in ending ? ending.job.status : null)
    ])
  ).filter((failure): failure is string => failure !== null)
  try {
    if (failed.length === 0) {
      await index.finish(issue, indexed, { status: told, prLink: 'job' in ending ? ending.job.prLink : null }, signal)
      log.info(`Reported the ending of job ${record.job} (${told}).`)
      return true
    }
  } catch (error) {
    failed.push(`its record in the index: ${describeWriteFailure(error, WRITE_ACCESS.index)}`)
  }
  await giveUpClaim(place, indexed, reactionId)
  log.warning(describeUnfinishedTelling(record, signal.aborted ? null : failed))
  return false
}

/**
 * The one warning when an ending could not be told in full: what failed (null: the run was stopped
 * meanwhile), and what happens next.
 */
function describeUnfinishedTelling(record: JobRecord, failed: string[] | null): string {
  const again =
    record.state === 'open'
      ? 'Its record stays open and unclaimed: the next reporting run tells the ending again, reading back what this one wrote.'
      : 'Its record stays as it was, and is told again once its claim lapses.'
  if (!failed) return `The run was stopped while it told the ending of job ${record.job}. ${again}`
  return `Could not tell all of the ending of job ${record.job}. Not written: ${failed.join(' ')} ${again}`
}

/**
 * Gives up this run's claim on a record it could not tell in full, within its own short bound (a
 * cancel has aborted the run's signal by now): the next run then tells it, rather than waiting for the
 * claim to lapse. A queued record's claim is kept: its create may have gone out, and is never sent again.
 */
async function giveUpClaim(place: ReportPlace, indexed: IndexedRecord, reactionId?: number): Promise<void> {
  if (indexed.record.state !== 'open') return
  const limit = timeLimit(GIVE_UP_MS)
  try {
    // GitHub answers a reaction this identity already gave with that reaction: its id, to delete.
    const id = reactionId ?? (await place.index.claim(indexed.commentId, limit.signal)).reactionId
    await place.index.dropClaim(indexed.commentId, id, limit.signal)
  } catch (error) {
    log.debug(`Could not give up the claim on job ${indexed.record.job}'s record: ${String(error)}`)
  } finally {
    limit.clear()
  }
}

/** Leaves the note on the agent's pull request (a group's with its label and mark); null when it is there, else what failed. */
async function leaveNote(place: ReportPlace, record: JobRecord, outcome: RunOutcome): Promise<string | null> {
  const left = await leaveAgentNote({
    outcome,
    settings: place.settings,
    comment: null,
    signal: place.signal,
    runner: place.runner,
    github: place.github,
    group: record.group && record.mark ? groupNotePart({ name: record.group, mark: record.mark }) : undefined,
    asker: record.askedBy && { what: record.askedBy.what, runId: record.askedBy.run },
    // An earlier try may have left it: a note (a group's too) is looked for before one is posted.
    lookFirst: true
  })
  return left ? null : "the note on the agent's pull request (said above)."
}

/** The outcome a held run would have ended with. */
export function outcomeOf(record: JobRecord, ending: JobEnding): RunOutcome {
  if ('job' in ending) return { ending: 'final', job: ending.job, jobId: record.job, followUp: false, requirePr: false }
  return { ending: 'error', job: null, jobId: record.job, reason: ending.unknown }
}

/**
 * Edits the thread's reply with the ending, keeping its signed thread record: what the thread keeps
 * after this ending, as a held run's reply keeps it (still the thread's job while its pull request is
 * open). The reply is the one the signed index record names, so it is the action's own; one GitHub no
 * longer has is left alone. Null when told (or gone), else what failed.
 */
async function tellOnThread(place: ReportPlace, record: JobRecord, outcome: RunOutcome): Promise<string | null> {
  const reply = record.thread
  if (!reply) return null
  const [owner, repo] = place.repository.split('/')
  const where = `the reply on #${reply.number}`
  const limit = timeLimit(TELL_CALL_MS, place.signal)
  try {
    const shown = await agentPullRequestShown(outcome, place.github, limit.signal)
    const path = `${repositoryPath({ owner, repo })}/issues/comments/${reply.comment}`
    const before = await readReply(place, path)
    if (before === null) {
      log.info(`The reply on #${reply.number} is gone: the ending of job ${record.job} is told elsewhere.`)
      return null
    }
    const elapsedMs = Math.max(0, Date.now() - (Date.parse(record.created) || Date.now()))
    const told = describeThreadEnding(outcome, place.settings.noteTrigger, describeEnding(outcome).next)
    let body = writeOutcomeReply(outcome, {
      runUrl: place.runUrl,
      serverUrl: place.serverUrl,
      elapsedMs,
      pullRequest: shown,
      told
    })
    const threadPlace = findRecordPlace({ owner, repo, number: reply.number }, place.settings, place.runner)
    const address = threadPlace && {
      key: place.settings,
      place: threadPlace,
      kind: 'thread' as const,
      commentId: reply.comment
    }
    const kept = address && readRecords(before, address).records.at(-1)
    // A job the service no longer knows is done with; any other keeps what its reply says of it.
    const keeps = outcome.ending === 'final' ? (told.keeps ?? 'final') : 'final'
    if (address && kept) body = withRecord(body, 'thread', signRecord(address, { ...kept, state: keeps }))
    await editReply(place, { path, id: reply.comment, body }, limit.signal)
    log.info(`Told the ending of job ${record.job} on ${where}.`)
    return null
  } catch (error) {
    return `${where}: ${describeWriteFailure(error, WRITE_ACCESS.thread)}`
  } finally {
    limit.clear()
  }
}

/** The reply's body as GitHub has it now; null when the comment is gone (404). */
async function readReply(place: ReportPlace, path: string): Promise<string | null> {
  try {
    return text(asObject(await place.reader.get(path, 'the reply on the thread', 'issues: read')).body)
  } catch (error) {
    if ((error as { status?: unknown }).status === 404) return null
    throw error
  }
}

/**
 * Edits the reply to show `body`. An edit GitHub answered with a 5xx (or not at all) may have been
 * made: the reply is read back, and the edit counts when it shows the body.
 */
async function editReply(
  place: ReportPlace,
  { path, id, body }: { path: string; id: number; body: string },
  signal: AbortSignal
): Promise<void> {
  const [owner, repo] = place.repository.split('/')
  try {
    await place.octokit.rest.issues.updateComment({ owner, repo, comment_id: id, body, request: { signal } })
  } catch (error) {
    if (!mayHaveWritten(error) || place.signal.aborted) throw error
    const now = await readReply(place, path).catch(() => null)
    if (now === null || now.replace(/\r\n/g, '\n').trim() !== body.replace(/\r\n/g, '\n').trim()) throw error
    log.debug(`GitHub answered the edit of reply ${id} with an error, but the reply shows the ending.`)
  }
}

/**
 * Completes the commit's status: success, or failure with the job's status; its link the reporting
 * run. Null when the commit shows it (set now, or already: read first, and read back after a 5xx, so
 * that a status GitHub set despite its error is not set twice), else what failed.
 */
async function completeCommitStatus(
  place: ReportPlace,
  record: JobRecord,
  status: string | null
): Promise<string | null> {
  if (!record.commit) return null
  const write = {
    repository: place.repository,
    commit: record.commit,
    status: statusOfJob(status),
    targetUrl: place.runUrl,
    signal: place.signal
  }
  try {
    if (await commitShows(place.reader, write)) return null
    try {
      await setCommitStatus(place.octokit, write)
    } catch (error) {
      if (!mayHaveWritten(error) || place.signal.aborted || !(await commitShows(place.reader, write))) throw error
    }
    return null
  } catch (error) {
    return `the status of commit ${record.commit.slice(0, 7)}: ${describeWriteFailure(error, WRITE_ACCESS.status)}`
  }
}
