// The reporting run's stage: the index's open records, at most REPORT_JOBS_PER_RUN of them in turn
// (the share starts after the record the previous run read last, the cursor kept in the index, and
// wraps round: every open record is read within ceil(open / 20) runs, whatever the others do; the
// rest are left for the next run, as actions/stale's operations-per-run), each job read once, and each
// that has ended told where it was asked for (report-job.ts). A job the service no longer knows is
// told as such after UNKNOWN_AFTER_MISSES runs in a row read it so: a record is never dropped untold.
// A run started by a pull request's event (the agent's pull request opened or updated) also looks
// past its share for the job that opened that pull request, and tells it at once. Then the index's
// dashboard is kept, the told records leave it, and the reporting workflow is turned off when
// nothing is left open (reporting-workflow.ts).
import type { Runner } from '../github/runner.js'
import type { ReportSettings } from '../inputs/report-settings.js'
import type { OpenEntry } from './index-marker.js'
import { openJobIndex, openIndexReader, type IndexedRecord, type IndexRead, type JobIndex } from './job-index.js'
import { setReportedOutput, type ReportedRow } from './reporting-summary.js'
import { switchWorkflow, workflowOfRun } from './reporting-workflow.js'
import { wordServiceFailure } from '../ending/service-failure-words.js'
import { describeWriteFailure } from '../github/write-failure.js'
import { WRITE_ACCESS } from '../kernel/write-access.js'
import { ActionError } from '../runtime/errors.js'
import { log } from '../runtime/log.js'
import { isFinal, type Job } from '../service/job-record.js'
import type { JobService } from '../service/job-service.js'
import { ServiceError } from '../service/service-error.js'
import { reportPlaceOf, tellRecordedEnding, type JobEnding, type ReportPlace } from './report-job.js'
import { createQueued } from './report-queued.js'
import type { Deadline } from '../runtime/deadline.js'
import type { GitHubSession } from '../github/session.js'

/** The most jobs one reporting run reads: each is a read of the service and, once ended, a few GitHub writes. */
export const REPORT_JOBS_PER_RUN = 20

/**
 * The most records past a run's share read to find the job of the pull request whose event started
 * the run: a read each, and nothing told but that job.
 */
export const PULL_REQUEST_SCAN = 100

/** Reporting runs in a row that read a job as unknown (404) before its ending is told as such. */
export const UNKNOWN_AFTER_MISSES = 3

/** One job a reporting run read, as the summary and the outputs show it. */
export type ReadJob = ReportedRow

/**
 * What became of the reporting workflow: `on` (a job is open), `off` (turned off: nothing is open),
 * `refused` (GitHub refused to turn it off: no actions: write), `failed` (another failure, worded in a
 * warning), `unknown` (this run's workflow could not be named).
 */
export type WorkflowSwitch = 'on' | 'off' | 'refused' | 'failed' | 'unknown'

/** What a reporting run found and did. */
export interface ReportRun {
  jobs: ReadJob[]
  /** Records that failed to verify, or named another project or repository: ignored. */
  ignored: number
  /** Open records beyond this run's share, left for the next. */
  left: number
  /** Other open issues with the index's label: not the index, not read. */
  otherIssues: number[]
  /** The index's issue (null when it could not be made). */
  issue: number | null
  workflow: { file: string | null; switch: WorkflowSwitch }
}

/** Reads the index and tells each ended job's ending (see the file's opening comment). */
export async function reportJobs(
  settings: ReportSettings,
  services: { reader: JobService; creator: JobService },
  deadline: Deadline,
  { runner, github }: { runner: Runner; github: GitHubSession }
): Promise<ReportRun> {
  const { signal } = deadline
  const { repository } = runner
  if (!/^[\w.-]+\/[\w.-]+$/.test(repository)) {
    throw new ActionError(
      'GITHUB_REPOSITORY is not set to owner/name: a reporting run runs in a workflow of the repository.'
    )
  }
  const reader = openIndexReader(github, signal)
  if (!reader) throw new ActionError('GITHUB_API_URL is not an address the token may go to: nothing can be reported.')
  try {
    const { index, octokit } = await openJobIndex(github, reader, { key: settings, repository })
    const found = await index.read()
    const file = workflowOfRun(runner)
    const run: ReportRun = {
      jobs: [],
      ignored: found.ignored,
      left: 0,
      otherIssues: found.others,
      issue: found.issue,
      workflow: { file, switch: file ? 'on' : 'unknown' }
    }
    // A new reporting workflow, before any hand-over: it makes the index to record itself there.
    const issue = found.issue ?? (await makeIndex(index, file, signal))
    run.issue = issue
    if (issue === null) return run
    if (found.issue !== null && !found.locked) await lockIndex(index, issue, signal)
    index.sweep(found.records.filter(({ record }) => record.state === 'final'))
    const pending = found.records.filter(({ record }) => record.state !== 'final')
    const share = shareOf(pending, found.state.cursor)
    run.left = pending.length - share.length
    const place = reportPlaceOf({ octokit, reader, index, issue, settings, signal, runner, github })
    const rows = new Map<number, ReadJob>()
    for (const indexed of share) {
      signal.throwIfAborted()
      const queued = indexed.record.state === 'queued'
      const row = await (queued
        ? reportQueued(place, services, indexed, deadline)
        : reportOne(place, services.reader, indexed))
      rows.set(indexed.commentId, row)
      run.jobs.push(row)
      // Listed as soon as told: a run cancelled or failing later still lists the endings it told.
      if (row.outcome === 'told') setReportedOutput(run.jobs)
    }
    const asking = pullRequestOfEvent(runner)
    if (asking && !run.jobs.some((job) => job.prLink === asking)) {
      const rest = pending.filter((r) => !rows.has(r.commentId))
      const scanned = await reportPullRequestJob(place, services.reader, rest, asking)
      if (scanned) {
        rows.set(scanned.commentId, scanned.row)
        run.jobs.push(scanned.row)
        if (scanned.row.outcome === 'told') setReportedOutput(run.jobs)
        run.left -= 1
      }
    }
    const stillOpen = pending.filter((r) => !isClosed(rows.get(r.commentId)))
    const cursor = pending.length > REPORT_JOBS_PER_RUN ? (share.at(-1)?.commentId ?? 0) : 0
    const open = stillOpen.map((r) => openEntryOf(r, rows.get(r.commentId), found))
    run.workflow.switch = await keepIndex(index, { issue, file, open, cursor, found, repository }, { octokit, signal })
    return run
  } finally {
    await reader.close()
  }
}

/**
 * The share of this run: the open records after `cursor` (the last the previous run read), oldest
 * first, then from the first again, at most REPORT_JOBS_PER_RUN.
 */
export function shareOf(pending: readonly IndexedRecord[], cursor: number): IndexedRecord[] {
  const after = pending.filter((r) => r.commentId > cursor)
  const before = pending.filter((r) => r.commentId <= cursor)
  return [...after, ...before].slice(0, REPORT_JOBS_PER_RUN)
}

/** Whether a row's record leaves the open list: told by this run, or by another (final already). */
function isClosed(row: ReadJob | undefined): boolean {
  return row?.outcome === 'told' || row?.outcome === 'done'
}

function openEntryOf(indexed: IndexedRecord, row: ReadJob | undefined, found: IndexRead): OpenEntry {
  const { commentId, record } = indexed
  const before = found.state.open.find((e) => e.comment === commentId)
  const status =
    row && row.status !== 'unread' ? row.status : (before?.status ?? (record.state === 'queued' ? 'queued' : ''))
  return {
    comment: commentId,
    job: row?.id || record.job,
    since: record.created,
    status,
    ...(record.thread ? { thread: record.thread } : {}),
    ...(record.commit ? { commit: record.commit } : {})
  }
}

/** Makes the index for a reporting run that finds none; null (and a warning) when GitHub refuses. */
async function makeIndex(index: JobIndex, file: string | null, signal: AbortSignal): Promise<number | null> {
  try {
    return await index.makeIssue(signal, {
      workflow: file,
      on: true,
      switchable: true,
      cursor: 0,
      open: [],
      recent: []
    })
  } catch (error) {
    if (signal.aborted) throw error
    log.warning(
      `Could not make the index issue, where this reporting workflow records itself: ${describeWriteFailure(error, WRITE_ACCESS.index)}`
    )
    return null
  }
}

/** Locks an index made before it was locked; a refusal is a notice (outsiders' comments are not read anyway). */
async function lockIndex(index: JobIndex, issue: number, signal: AbortSignal): Promise<void> {
  try {
    await index.lock(issue, signal)
  } catch (error) {
    if (signal.aborted) throw error
    log.notice(`Could not lock the index issue #${issue}: ${describeWriteFailure(error, WRITE_ACCESS.index)}`)
  }
}

/**
 * The dashboard kept and the told records deleted; with nothing left open, the workflow turned off,
 * then the index read once more, and the workflow turned back on if a record appeared meanwhile (a
 * hand-over that read the index as on before it was off: its record is then seen here; one that reads
 * it after sees off, and turns it on itself).
 */
async function keepIndex(
  index: JobIndex,
  view: { issue: number; file: string | null; open: OpenEntry[]; cursor: number; found: IndexRead; repository: string },
  { octokit, signal }: { octokit: Awaited<ReturnType<GitHubSession['client']>>; signal: AbortSignal }
): Promise<WorkflowSwitch> {
  const { issue, file, open, cursor, repository } = view
  const readUpTo = Math.max(0, ...view.found.records.map((r) => r.commentId))
  const publish = async (update: Parameters<JobIndex['publish']>[1]): Promise<boolean> => {
    try {
      await index.publish(issue, { open, cursor, readUpTo, ...update }, signal)
      return true
    } catch (error) {
      if (signal.aborted) throw error
      log.warning(
        `Could not keep the index issue #${issue}'s list of jobs: ${describeWriteFailure(error, WRITE_ACCESS.index)} ` +
          'The next reporting run keeps it; every ending was told.'
      )
      return false
    }
  }
  if (!file) {
    await publish({})
    return 'unknown'
  }
  if (open.length > 0) {
    await publish({ workflow: file, on: true })
    return 'on'
  }
  const off = await switchWorkflow(octokit, { repository, workflow: file, on: false }, signal)
  if (!off.done) {
    if (!off.refused) {
      log.warning(
        `Could not turn off the reporting workflow ${file}: ${describeWriteFailure(off.error, WRITE_ACCESS.workflow)}`
      )
      // GitHub may have turned it off despite its error: turned on again (a 204 when it is on), as the index says.
      await switchWorkflow(octokit, { repository, workflow: file, on: true }, signal)
    }
    await publish({ workflow: file, on: true, switchable: !off.refused })
    return off.refused ? 'refused' : 'failed'
  }
  // The records read again after the disable (not only the body): a record a hand-over added
  // meanwhile is open, and the workflow goes on again. While they cannot be read, or "off" cannot be
  // written in the body, the workflow goes on again too (and the next run keeps the index).
  const kept = await publish({ workflow: file, on: false, switchable: true })
  const again = kept ? await readRecordsAgain(index, issue, signal) : null
  const appeared = again?.filter(({ record }) => record.state !== 'final') ?? []
  if (kept && again && appeared.length === 0) return 'off'
  const on = await switchWorkflow(octokit, { repository, workflow: file, on: true }, signal)
  if (!on.done) {
    const why = kept
      ? `A job was handed over while this run turned the reporting workflow ${file} off`
      : `The index issue could not be updated to say that the reporting workflow ${file} is off`
    log.warning(
      `${why}, and it could not be turned on again: ${describeWriteFailure(on.error, WRITE_ACCESS.workflow)} ` +
        'Turn it on in the Actions tab, or run it by hand: a job handed over meanwhile is told once it runs.'
    )
    return 'failed'
  }
  if (!kept) return 'failed'
  if (!again) {
    await publish({ workflow: file, on: true })
    return 'on'
  }
  await publish({ workflow: file, on: true, added: appeared.map((r) => openEntryOf(r, undefined, view.found)) })
  return 'on'
}

/** The index's records, read again after the disable; null (and a notice) when they cannot be read. */
async function readRecordsAgain(index: JobIndex, issue: number, signal: AbortSignal): Promise<IndexedRecord[] | null> {
  try {
    return (await index.readComments(issue)).records
  } catch (error) {
    if (signal.aborted) throw error
    log.notice(
      `Could not read the index issue #${issue} again after turning the reporting workflow off: ${String((error as Error).message ?? error)} ` +
        'It is turned on again, so that a job handed over meanwhile is told.'
    )
    return null
  }
}

/** Reads one record's job once (unless the caller just read it), and tells its ending when it has ended. */
async function reportOne(
  place: ReportPlace,
  service: JobService,
  indexed: IndexedRecord,
  read?: Job
): Promise<ReadJob> {
  const { record } = indexed
  const row = (status: string, outcome: ReadJob['outcome'], job: Job | null = null): ReadJob => ({
    id: record.job,
    status,
    prLink: job?.prLink ?? null,
    thread: record.thread?.number ?? null,
    commit: record.commit ?? null,
    outcome
  })
  let ending: JobEnding
  try {
    const job = read ?? (await service.getJob(record.job, place.signal))
    if (!isFinal(job.status)) {
      if (record.misses) await countMisses(place, indexed, 0)
      return row(job.status, 'working', job)
    }
    ending = { job }
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error
    if (error.kind !== 'notFound') {
      log.warning(
        `Could not read job ${record.job}: ${wordServiceFailure(error)} It is read again by the next reporting run.`
      )
      return row('unread', 'unread')
    }
    const misses = (record.misses ?? 0) + 1
    if (misses < UNKNOWN_AFTER_MISSES) {
      log.warning(
        `The service does not know job ${record.job} (read ${misses} of ${UNKNOWN_AFTER_MISSES} times): it is read again by the next reporting run.`
      )
      await countMisses(place, indexed, misses)
      return row('unread', 'unread')
    }
    ending = { unknown: unknownJobSentence(record.job, misses) }
  }
  const telling = await tellRecordedEnding(place, indexed, ending)
  const job = 'job' in ending ? ending.job : null
  return row(job?.status ?? 'unknown', telling, job)
}

/**
 * Writes how many runs in a row read the record's job as unknown. Never throws but for a cancel: a
 * count GitHub did not take is a warning, and the record stays open with the count it had (the job
 * is told as unknown a run later, never dropped).
 */
async function countMisses(place: ReportPlace, indexed: IndexedRecord, misses: number): Promise<void> {
  try {
    await place.index.write(place.issue, indexed.commentId, { ...indexed.record, misses }, place.signal)
  } catch (error) {
    if (place.signal.aborted) throw error
    log.warning(
      `Could not write in job ${indexed.record.job}'s record how many runs read it as unknown: ` +
        `${describeWriteFailure(error, WRITE_ACCESS.index)} Its record stays open, and the next reporting run reads it again.`
    )
  }
}

/** The page of the pull request whose event started the run (opened, synchronize), or null. */
function pullRequestOfEvent(runner: Runner): string | null {
  const { event } = runner
  if (event.name !== 'pull_request' && event.name !== 'pull_request_target') return null
  return event.pullRequest?.htmlUrl || null
}

/**
 * The job whose pull request is `prLink`, among the records past the run's share (at most
 * PULL_REQUEST_SCAN of them, each job read once): told as the share's are; null when none is.
 */
async function reportPullRequestJob(
  place: ReportPlace,
  service: JobService,
  rest: IndexedRecord[],
  prLink: string
): Promise<{ commentId: number; row: ReadJob } | null> {
  for (const indexed of rest.slice(0, PULL_REQUEST_SCAN)) {
    if (indexed.record.state !== 'open') continue
    place.signal.throwIfAborted()
    let job: Job
    try {
      job = await service.getJob(indexed.record.job, place.signal)
    } catch (error) {
      // Read again, and told as usual, by a run whose share it is in.
      if (error instanceof ServiceError) continue
      throw error
    }
    if (job.prLink === prLink)
      return { commentId: indexed.commentId, row: await reportOne(place, service, indexed, job) }
  }
  return null
}

/** A queued create, tried once; once made, its job is read as the others are. */
async function reportQueued(
  place: ReportPlace,
  services: { reader: JobService; creator: JobService },
  indexed: IndexedRecord,
  deadline: Deadline
): Promise<ReadJob> {
  const asked = { prLink: null, thread: indexed.record.thread?.number ?? null, commit: indexed.record.commit ?? null }
  let result: Awaited<ReturnType<typeof createQueued>>
  try {
    result = await createQueued(place, services.creator, indexed, deadline)
  } catch (error) {
    // A GitHub write of the queued path that failed (a 5xx): one record's, not the run's; the others are told.
    if (place.signal.aborted || error instanceof ActionError) throw error
    log.warning(
      `Could not finish the queued request of record ${indexed.commentId}: ${describeWriteFailure(error, WRITE_ACCESS.index)} ` +
        'Its record stays in the index, for a later reporting run.'
    )
    return { id: '', status: 'queued', ...asked, outcome: 'unfinished' }
  }
  if ('queued' in result) return { id: '', status: 'queued', ...asked, outcome: 'queued' }
  if ('told' in result) return { id: '', status: 'not created', ...asked, outcome: result.told }
  return { id: result.made, status: result.status, ...asked, outcome: 'working' }
}

/** The ending of a job the service no longer knows. */
export function unknownJobSentence(jobId: string, misses: number): string {
  return (
    `The service no longer knows job ${jobId}: ${misses} reporting runs in a row read it as not found (404). ` +
    `It may have been deleted, or the project or key changed. Ask again to start a new job.`
  )
}
