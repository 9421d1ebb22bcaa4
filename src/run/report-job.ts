// Telling a handed-over job's ending, as a held run tells it at its end: the thread's reply edited
// with the outcome, the note on the agent's pull request (with the group's label and mark), the
// commit status completed, then the record marked final. Exactly once: the record is read again
// right before, a final record is done, and a reaction on it claims the telling (GitHub answers 201
// to the first only). The record is marked final last, in one edit: a run cancelled before that
// leaves it open, and the next reporting run tells it (each step is one GitHub shows the same way
// twice: the reply's body, the note looked for first, the newest status).
import { readRecords, signRecord, withRecord, findRecordPlace } from '../request/signed-record.js'
import { repositoryPath } from '../github/pull-request-ref.js'
import { asObject, text } from '../github/json-shape.js'
import { runLink, type Octokit } from '../github/octokit.js'
import type { GitHubReader } from '../github/reader.js'
import type { Runner } from '../github/runner.js'
import type { ReportSettings } from '../inputs/report-settings.js'
import { leaveAgentNote } from '../report/agent-note.js'
import { agentPullRequestShown } from '../report/agent-pull-request-shown.js'
import { writeOutcomeReply } from '../report/comment-reply.js'
import { setCommitStatus, statusOfJob } from '../report/commit-status.js'
import type { IndexedRecord, JobIndex, JobRecord } from '../report/job-index.js'
import { describeWriteFailure } from '../github/write-failure.js'
import { WRITE_ACCESS } from '../inputs/write-access.js'
import type { RunOutcome } from '../report/run-ending.js'
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
 * `claimed`, another run is telling it now.
 */
export type Telling = 'told' | 'done' | 'claimed'

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
  const claim = claimedAlready ? { record: indexed.record } : await claimRecord(place, indexed)
  if (typeof claim === 'string') return claim
  await tellClaimed(place, { ...indexed, record: claim.record }, ending)
  return 'told'
}

/**
 * Claims the telling of a record, after reading it again: its record as read when this run holds the
 * claim; `done` when it is final already; `claimed` when another run holds a claim that has not lapsed.
 */
export async function claimRecord(
  place: ReportPlace,
  indexed: IndexedRecord
): Promise<{ record: JobRecord } | 'done' | 'claimed'> {
  const { index, issue, signal } = place
  const now = await index.reread(issue, indexed.commentId)
  if (!now || now.state === 'final') return 'done'
  const claim = await index.claim(indexed.commentId, signal)
  if (!claim.claimed) {
    if (Date.now() - claim.since < CLAIM_LEASE_MS) return 'claimed'
    // The claim's run never finished: its claim goes, and whoever claims next tells it.
    await index.dropClaim(indexed.commentId, claim.reactionId, signal)
    if (!(await index.claim(indexed.commentId, signal)).claimed) return 'claimed'
  }
  return { record: now }
}

/** Tells a claimed record's ending (the reply, the note, the commit status), then marks it final. */
export async function tellClaimed(place: ReportPlace, indexed: IndexedRecord, ending: JobEnding): Promise<void> {
  const { index, issue, signal } = place
  const { record } = indexed
  const outcome = outcomeOf(record, ending)
  const told = 'job' in ending ? ending.job.status : 'unknown'
  await Promise.all([
    tellOnThread(place, record, outcome),
    leaveAgentNote({
      outcome,
      settings: place.settings,
      comment: null,
      signal,
      runner: place.runner,
      github: place.github,
      group: record.group && record.mark ? { name: record.group, mark: record.mark } : undefined,
      asker: record.askedBy && { what: record.askedBy.what, runId: record.askedBy.run }
    }),
    completeCommitStatus(place, record, 'job' in ending ? ending.job.status : null)
  ])
  const prLink = 'job' in ending ? ending.job.prLink : null
  await index.finish(issue, indexed, { status: told, prLink }, signal)
  log.info(`Reported the ending of job ${record.job} (${told}).`)
}

/** The outcome a held run would have ended with. */
export function outcomeOf(record: JobRecord, ending: JobEnding): RunOutcome {
  if ('job' in ending) return { ending: 'final', job: ending.job, jobId: record.job, followUp: false, requirePr: false }
  return { ending: 'error', job: null, jobId: record.job, reason: ending.unknown }
}

/**
 * Edits the thread's reply with the ending, keeping its signed thread record (now final). The reply
 * is the one the signed index record names, so it is the action's own; one GitHub no longer has is
 * left alone. A failure is a warning: the record is marked final all the same.
 */
async function tellOnThread(place: ReportPlace, record: JobRecord, outcome: RunOutcome): Promise<void> {
  const reply = record.thread
  if (!reply) return
  const [owner, repo] = place.repository.split('/')
  const where = `the reply on #${reply.number}`
  const limit = timeLimit(TELL_CALL_MS, place.signal)
  try {
    const shown = await agentPullRequestShown(outcome, place.github, limit.signal)
    const path = `${repositoryPath({ owner, repo })}/issues/comments/${reply.comment}`
    const before = text(asObject(await place.reader.get(path, 'the reply on the thread', 'issues: read')).body)
    const elapsedMs = Math.max(0, Date.now() - (Date.parse(record.created) || Date.now()))
    let body = writeOutcomeReply(outcome, {
      runUrl: place.runUrl,
      serverUrl: place.serverUrl,
      elapsedMs,
      pullRequest: shown
    })
    const threadPlace = findRecordPlace({ owner, repo, number: reply.number }, place.settings, place.runner)
    const address = threadPlace && {
      key: place.settings,
      place: threadPlace,
      kind: 'thread' as const,
      commentId: reply.comment
    }
    const kept = address && readRecords(before, address).records.at(-1)
    if (address && kept) body = withRecord(body, 'thread', signRecord(address, { ...kept, state: 'final' }))
    await place.octokit.rest.issues.updateComment({
      owner,
      repo,
      comment_id: reply.comment,
      body,
      request: { signal: limit.signal }
    })
    log.info(`Told the ending of job ${record.job} on ${where}.`)
  } catch (error) {
    log.warning(
      `Could not tell the ending of job ${record.job} on ${where}: ${describeWriteFailure(error, WRITE_ACCESS.thread)}`
    )
  } finally {
    limit.clear()
  }
}

/** Completes the commit's status: success, or failure with the job's status; its link the reporting run. */
async function completeCommitStatus(place: ReportPlace, record: JobRecord, status: string | null): Promise<void> {
  if (!record.commit) return
  try {
    await setCommitStatus(place.octokit, {
      repository: place.repository,
      commit: record.commit,
      status: statusOfJob(status),
      targetUrl: place.runUrl,
      signal: place.signal
    })
  } catch (error) {
    log.warning(
      `Could not complete the status of commit ${record.commit.slice(0, 7)} for job ${record.job}: ` +
        describeWriteFailure(error, WRITE_ACCESS.status)
    )
  }
}
