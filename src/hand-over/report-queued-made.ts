// A queued create the service made: its record becomes open (without its prompt, whose parts are
// deleted, the claim kept: a made create's claim is never given up), a pending status goes on its
// commit, and the thread's reply says the job was created and records it as the thread's job, so
// that a request there meanwhile goes to it.
import { findRecordPlace, signRecord, withRecord, type RecordPayload } from '../github/signed-record.js'
import { describeWriteFailure } from '../github/write-failure.js'
import { WRITE_ACCESS } from '../kernel/write-access.js'
import { timeLimit } from '../runtime/deadline.js'
import { log } from '../runtime/log.js'
import type { Job } from '../service/job-record.js'
import { writeOutcomeReply } from '../thread/reply-text.js'
import { setCommitStatus, statusOfJob } from './commit-status.js'
import type { IndexedRecord } from './index-records.js'
import { dropQueuedPrompt } from './queued-prompt-parts.js'
import type { ReportPlace } from './report-job.js'
import { partsPlace, REPLY_CALL_MS } from './report-queued-place.js'

/**
 * The made job's record: open, without its prompt (whose parts are deleted), the claim kept; then a
 * pending status on its commit, and the thread's reply, which now records the job and says it was made.
 */
export async function recordMade(place: ReportPlace, { commentId, record }: IndexedRecord, job: Job): Promise<void> {
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
