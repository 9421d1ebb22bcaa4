// A queued create (the rate limit refused it in a run that handed it over): a reporting run sends it
// exactly once, never before the service's Retry-After, and never once it was withdrawn. In order:
// the create is claimed first (a 👀 reaction on the record, which GitHub gives once per identity: a
// claim of its own, apart from the 🚀 of telling the ending), then the record is read again, so that
// whatever a run before this claim wrote is seen; the time and the thread are checked under the
// claim; the record is marked `sending` with the claim's id, then the create goes out. A made
// create's claim is never given up: a run that listed the record as queued and claims after it gets
// the claim refused. A create refused again is queued again and its claim given up; a claim older
// than the lease whose record says it was sending means the create may have gone out: it is told as
// such and never sent again. A made job becomes the thread's job at once: its reply gets the thread's
// record and says the job was created, so a request there meanwhile goes to it.
import { asObject, text } from '../github/json-shape.js'
import { repositoryPath } from '../github/pull-request-ref.js'
import { failureClause, ReadFailure } from '../github/read-failure.js'
import type { GitHubReader } from '../github/reader.js'
import { describeWriteFailure } from '../github/write-failure.js'
import { Input } from '../kernel/action-names.js'
import { WRITE_ACCESS } from '../kernel/write-access.js'
import { findRecordPlace, signRecord, withRecord, type RecordPayload } from '../github/signed-record.js'
import { writeOutcomeReply } from '../thread/comment-reply.js'
import { writeWithdrawnReply } from '../ending/thread-words.js'
import { setCommitStatus, statusOfJob } from './commit-status.js'
import type { IndexedRecord } from './job-index.js'
import { dropQueuedPrompt, readQueuedPrompt, type PartsPlace } from './queued-prompt-parts.js'
import { wordServiceFailure } from '../ending/service-failure-words.js'
import { timeLimit, type Deadline } from '../runtime/deadline.js'
import { log } from '../runtime/log.js'
import type { Job } from '../service/job-record.js'
import type { JobService } from '../service/job-service.js'
import { ServiceError } from '../service/service-error.js'
import { CLAIM_LEASE_MS, tellRecordedEnding, type ReportPlace, type Telling } from './report-job.js'

/** What became of a queued create: made (the record is open now), still queued, or told as an ending. */
export type QueuedResult = { made: string; status: string } | { queued: true } | { told: Telling; reason: string }

/** The reaction that claims a queued create: apart from the telling's, which the made job's ending takes later. */
const CREATE_CLAIM = 'eyes'

/** The reads around one queued create: the thread and its asking comment, and a long prompt's parts. */
const QUEUED_READS = { maxRequests: 16, totalMs: 30_000, requestMs: 10_000, maxBodyBytes: 4 * 1024 * 1024 }

/** One GitHub call's own limit for the thread's reply. */
const REPLY_CALL_MS = 10_000

/** A claim on a record's create, as GitHub answered it. */
interface Claim {
  claimed: boolean
  since: number
  reactionId: number
}

/** Sends the queued create of `indexed`, exactly once (see the file's opening comment). */
export async function createQueued(
  place: ReportPlace,
  creator: JobService,
  indexed: IndexedRecord,
  deadline: Deadline
): Promise<QueuedResult> {
  if (notYet(indexed.record)) return { queued: true }
  const reader = place.github.reader(QUEUED_READS, place.signal)
  if (!reader) return { queued: true }
  try {
    return await createClaimed(place, { creator, indexed, deadline, reader })
  } finally {
    await reader.close()
  }
}

async function createClaimed(
  place: ReportPlace,
  {
    creator,
    indexed,
    deadline,
    reader
  }: { creator: JobService; indexed: IndexedRecord; deadline: Deadline; reader: GitHubReader }
): Promise<QueuedResult> {
  const { index, issue, signal } = place
  const { commentId } = indexed
  let claim: Claim
  try {
    claim = await claimCreate(place, commentId)
  } catch (error) {
    // GitHub may have given the claim despite its failure: then it holds the create for its lease, and
    // is taken over after it (nothing was sent under it), never sent twice.
    log.warning(
      `Could not claim the queued create: ${describeWriteFailure(error, WRITE_ACCESS.index)} The next reporting run tries it.`
    )
    return { queued: true }
  }
  // Read after the claim: what the run before it wrote (made, told, queued again) is seen.
  const now = await index.reread(issue, commentId)
  if (!now || now.state !== 'queued') return { told: 'done', reason: '' }
  if (!claim.claimed) {
    if (Date.now() - claim.since < CLAIM_LEASE_MS) return { told: 'claimed', reason: '' }
    if (now.sending === claim.reactionId) {
      // The run that claimed it started the create and never finished: it may have gone out, and is never sent again.
      log.warning(QUEUED_UNSURE)
      const told = await tellRecordedEnding(place, { commentId, record: now }, { unknown: QUEUED_UNSURE }, true)
      await dropQueuedPrompt(partsPlace(place), now, signal)
      return { told, reason: QUEUED_UNSURE }
    }
    // The claim's run never sent it (or was refused, and ended before giving its claim up): the claim goes.
    await dropCreateClaim(place, commentId, claim.reactionId)
    claim = await claimCreate(place, commentId)
    if (!claim.claimed) return { told: 'claimed', reason: '' }
  }
  if (notYet(now)) {
    await dropCreateClaim(place, commentId, claim.reactionId)
    return { queued: true }
  }
  let withdrawn: string | null
  let prompt: string | null
  try {
    withdrawn = await findWithdrawal(place, reader, now)
    prompt = withdrawn ? null : await readQueuedPrompt(reader, partsPlace(place), now)
  } catch (error) {
    if (!(error instanceof ReadFailure) || error.kind === 'cancelled') throw error
    // Unread, so unchecked: nothing is sent, and the next reporting run reads them again.
    log.warning(
      `Could not read the queued request before its create: ${failureClause(error, Input.githubToken)}. The next reporting run tries it.`
    )
    await dropCreateClaim(place, commentId, claim.reactionId)
    return { queued: true }
  }
  if (withdrawn) {
    await tellWithdrawal(place, { commentId, record: now }, withdrawn)
    return { told: 'told', reason: withdrawn }
  }
  if (!prompt) {
    const told = await tellRecordedEnding(place, { commentId, record: now }, { unknown: UNREADABLE_PROMPT }, true)
    await dropQueuedPrompt(partsPlace(place), now, signal)
    return { told, reason: UNREADABLE_PROMPT }
  }
  if (!(await markSending(place, commentId, { ...now, sending: claim.reactionId }))) {
    await dropCreateClaim(place, commentId, claim.reactionId)
    return { queued: true }
  }
  try {
    const job = await creator.createJob(prompt, deadline)
    await recordMade(place, { commentId, record: now }, job)
    return { made: job.id, status: job.status }
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error
    if (error.kind === 'notTaken') {
      const notBefore = error.retryAfterMs ? new Date(Date.now() + error.retryAfterMs).toISOString() : undefined
      const { sending: _sending, ...queued } = now
      const again = { ...queued, ...(notBefore ? { notBefore } : {}) }
      // Queued again before the claim goes: a record left marked as sending would read as maybe sent.
      await index.write(issue, commentId, again, signal).catch(() => index.write(issue, commentId, again, signal))
      await dropCreateClaim(place, commentId, claim.reactionId)
      log.info(`The queued create was refused again (${wordServiceFailure(error)}): the next reporting run tries it.`)
      return { queued: true }
    }
    // Refused for good, or its answer lost (a job may exist): told, and never sent again.
    const why = wordServiceFailure(error)
    const told = await tellRecordedEnding(place, { commentId, record: now }, { unknown: why }, true)
    await dropQueuedPrompt(partsPlace(place), now, signal)
    return { told, reason: why }
  }
}

/** Whether the service's Retry-After has not passed yet. */
function notYet(record: RecordPayload): boolean {
  return !!record.notBefore && Date.parse(record.notBefore) > Date.now()
}

/**
 * The made job's record: open, without its prompt (whose parts are deleted), the claim kept; then a
 * pending status on its commit, and the thread's reply, which now records the job and says it was made.
 */
async function recordMade(place: ReportPlace, { commentId, record }: IndexedRecord, job: Job): Promise<void> {
  const { index, issue, signal } = place
  const { prompt: _p, promptParts: _pp, promptDigest: _pd, notBefore: _n, sending: _s, asking: _a, ...kept } = record
  const opened: RecordPayload = { ...kept, job: job.id, state: 'open' }
  try {
    await index.write(issue, commentId, opened, signal)
  } catch (error) {
    // Written despite the failure, perhaps: read back before writing again.
    const back = await index.reread(issue, commentId).catch(() => null)
    if (back?.job !== job.id) await index.write(issue, commentId, opened, signal)
    log.debug(`The record of queued job ${job.id} was written again after: ${String(error)}`)
  }
  log.info(`Created the queued job ${job.id}: it is reported like the others.`)
  await dropQueuedPrompt(partsPlace(place), record, signal)
  if (record.commit) {
    await setCommitStatus(place.octokit, {
      repository: place.repository,
      commit: record.commit,
      status: statusOfJob('active'),
      targetUrl: place.runUrl,
      signal
    }).catch((error: unknown) =>
      log.warning(
        `Could not set the pending status of commit ${record.commit?.slice(0, 7)} for job ${job.id}: ` +
          describeWriteFailure(error, WRITE_ACCESS.status)
      )
    )
  }
  await tellMadeOnThread(place, record, job)
}

/**
 * The thread's reply says the job was created, and records it (the thread's signed record, as a held
 * run's reply does): a request on the thread while it works goes to it. A failure is a warning.
 */
async function tellMadeOnThread(place: ReportPlace, record: RecordPayload, job: Job): Promise<void> {
  const reply = record.thread
  if (!reply) return
  const [owner, repo] = place.repository.split('/')
  const limit = timeLimit(REPLY_CALL_MS, place.signal)
  try {
    const outcome = { ending: 'created' as const, job, jobId: job.id, fromQueue: true }
    const elapsedMs = Math.max(0, Date.now() - (Date.parse(record.created) || Date.now()))
    let body = writeOutcomeReply(outcome, { runUrl: place.runUrl, serverUrl: place.serverUrl, elapsedMs })
    const threadPlace = findRecordPlace({ owner, repo, number: reply.number }, place.settings, place.runner)
    if (threadPlace) {
      const address = { key: place.settings, place: threadPlace, kind: 'thread' as const, commentId: reply.comment }
      const payload: RecordPayload = { job: job.id, state: 'open', created: new Date().toISOString(), thread: reply }
      body = withRecord(body, 'thread', signRecord(address, payload))
    }
    await place.octokit.rest.issues.updateComment({
      owner,
      repo,
      comment_id: reply.comment,
      body,
      request: { signal: limit.signal }
    })
  } catch (error) {
    log.warning(
      `Could not tell on the reply on #${reply.number} that queued job ${job.id} was created: ` +
        `${describeWriteFailure(error, WRITE_ACCESS.thread)} A request there meanwhile starts a new job.`
    )
  } finally {
    limit.clear()
  }
}

/**
 * Why the request was withdrawn, read right before its create; null while it stands. Withdrawn: the
 * comment that asked is gone (deleted), or the thread was closed as not planned, or closed and locked.
 */
async function findWithdrawal(place: ReportPlace, reader: GitHubReader, record: RecordPayload): Promise<string | null> {
  const asking = record.asking
  if (!asking) return null
  const repo = repositoryPath(ownerAndRepo(place.repository))
  if (asking.comment !== undefined) {
    const path = `${repo}/${asking.onDiff ? 'pulls' : 'issues'}/comments/${asking.comment}`
    if (await isGone(reader, path, 'the comment that asked')) return withdrawnSentence(asking.number, 'deleted')
  }
  const thread = asObject(await reader.get(`${repo}/issues/${asking.number}`, 'the thread that asked', 'issues: read'))
  if (thread.state !== 'closed') return null
  if (text(thread.state_reason) === 'not_planned') return withdrawnSentence(asking.number, 'not planned')
  if (thread.locked === true) return withdrawnSentence(asking.number, 'locked')
  return null
}

/**
 * Tells a withdrawal: the reply says why no job was made, the record is finished (listed on the
 * dashboard, then leaves the index), its prompt's parts are deleted. A queued request set no commit
 * status, so none is left pending. A failed reply is a warning: the record is finished all the same.
 */
async function tellWithdrawal(place: ReportPlace, indexed: IndexedRecord, reason: string): Promise<void> {
  const { record } = indexed
  const reply = record.thread
  if (reply) {
    const limit = timeLimit(REPLY_CALL_MS, place.signal)
    try {
      await place.octokit.rest.issues.updateComment({
        ...ownerAndRepo(place.repository),
        comment_id: reply.comment,
        body: writeWithdrawnReply(reason, place.settings.noteTrigger, place.runUrl),
        request: { signal: limit.signal }
      })
    } catch (error) {
      log.warning(
        `Could not tell on the reply on #${reply.number} that its queued request was withdrawn: ` +
          describeWriteFailure(error, WRITE_ACCESS.thread)
      )
    } finally {
      limit.clear()
    }
  }
  await place.index.finish(place.issue, indexed, { status: 'withdrawn', prLink: null }, place.signal)
  await dropQueuedPrompt(partsPlace(place), record, place.signal)
  log.info(reason)
}

async function isGone(reader: GitHubReader, path: string, what: string): Promise<boolean> {
  try {
    await reader.get(path, what, 'issues: read')
    return false
  } catch (error) {
    if (error instanceof ReadFailure && error.status === 404) return true
    throw error
  }
}

/** The ending of a queued request withdrawn before its create. */
function withdrawnSentence(thread: number, how: 'deleted' | 'not planned' | 'locked'): string {
  const why =
    how === 'deleted'
      ? `the comment that asked for it on #${thread} was deleted`
      : how === 'not planned'
        ? `#${thread}, where it was asked for, was closed as not planned`
        : `#${thread}, where it was asked for, was closed and locked`
  return `The queued request was withdrawn before its job was created: ${why}. No job was created, and none will be.`
}

/**
 * Marks the record as sending under the claim; false when the mark could not be written (nothing is
 * sent then). A write GitHub may have made despite its failure is read back.
 */
async function markSending(place: ReportPlace, commentId: number, marked: RecordPayload): Promise<boolean> {
  const { index, issue, signal } = place
  try {
    await index.write(issue, commentId, marked, signal)
    return true
  } catch (error) {
    const back = await index.reread(issue, commentId).catch(() => null)
    if (back?.sending === marked.sending && back?.state === 'queued') return true
    log.warning(
      `Could not mark the queued create as being sent: ${describeWriteFailure(error, WRITE_ACCESS.index)} ` +
        'It is not sent; the next reporting run tries it.'
    )
    return false
  }
}

/** Claims the create of a record (see the file's opening comment). */
async function claimCreate(place: ReportPlace, commentId: number): Promise<Claim> {
  const answer = await place.octokit.rest.reactions.createForIssueComment({
    ...ownerAndRepo(place.repository),
    comment_id: commentId,
    content: CREATE_CLAIM,
    request: { signal: place.signal }
  })
  const since = Date.parse(text(answer.data.created_at))
  return {
    claimed: answer.status === 201,
    since: Number.isFinite(since) ? since : Date.now(),
    reactionId: answer.data.id
  }
}

/**
 * Gives up a claim on a create that was not sent. One that cannot be given up holds the create for its
 * lease; the record was not marked as sending under it, so the run after the lease takes it over.
 */
async function dropCreateClaim(place: ReportPlace, commentId: number, reactionId: number): Promise<void> {
  try {
    await place.octokit.rest.reactions.deleteForIssueComment({
      ...ownerAndRepo(place.repository),
      comment_id: commentId,
      reaction_id: reactionId,
      request: { signal: place.signal }
    })
  } catch (error) {
    log.warning(
      `Could not give up the claim on a queued create: ${describeWriteFailure(error, WRITE_ACCESS.index)} ` +
        'It is tried again once the claim lapses (20 minutes).'
    )
  }
}

function partsPlace(place: ReportPlace): PartsPlace {
  return {
    octokit: place.octokit,
    key: place.settings,
    place: {
      host: new URL(place.serverUrl).host,
      thread: { ...ownerAndRepo(place.repository), number: place.issue },
      projectId: place.settings.projectId
    }
  }
}

function ownerAndRepo(repository: string): { owner: string; repo: string } {
  const [owner, repo] = repository.split('/')
  return { owner, repo }
}

const QUEUED_UNSURE =
  'A reporting run started this queued create and never finished, so the job may or may not have been created; ' +
  "it is not sent again. Look for it among the project's newest jobs before asking again."

const UNREADABLE_PROMPT =
  "The queued request's prompt could not be read back from the index (a part of it is gone or does not verify), " +
  'so it is not sent. No job was created: ask again.'
