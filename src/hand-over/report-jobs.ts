// The reporting run's stage, as a story: the index read (made when a new reporting workflow finds
// none, locked when it is not: report-keep-index.ts), the run's share of the open records chosen
// (report-share.ts), each read once and told when it has ended (report-one-record.ts), and, for a run
// a pull request's event started, the job of that pull request found past the share and told at once
// (report-pull-request-job.ts). Then the index is kept: the told records leave its dashboard, and the
// reporting workflow is turned off when nothing is left open (report-keep-index.ts).
import type { Runner } from '../github/runner.js'
import type { ReportSettings } from '../kernel/settings.js'
import { openJobIndex, openIndexReader } from './job-index.js'
import { setReportedOutput, type ReportedRow } from './reporting-summary.js'
import { workflowOfRun } from './reporting-workflow.js'
import { ActionError } from '../runtime/errors.js'
import type { JobService } from '../service/job-service.js'
import { isFinal, type Job } from '../service/job-record.js'
import { reportPlaceOf } from './report-job.js'
import { keepIndex, lockIndex, makeIndex, type WorkflowSwitch } from './report-keep-index.js'
import { reportOne, reportQueued } from './report-one-record.js'
import { pullRequestOfEvent, reportPullRequestJob } from './report-pull-request-job.js'
import { cursorAfter, isClosed, openEntryOf, shareOf } from './report-share.js'
import type { Deadline } from '../runtime/deadline.js'
import type { GitHubSession } from '../github/session.js'
import type { IndexedRecord } from './index-records.js'

/** What a reporting run found and did. */
export interface ReportRun {
  jobs: ReportedRow[]
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
    const rows = new Map<number, ReportedRow>()
    // A job handed over again (a follow-up message) has more than one record, each with its own claim:
    // its later records are told only after this run told its first, so that two runs never tell one
    // job at once (each claiming another of its records).
    const first = firstRecordOfJob(pending)
    const later = (r: IndexedRecord) => !!r.record.job && first.get(r.record.job) !== r.commentId
    // A later record is told with the ending its first was told with: read again, the job might read
    // as unread (the service failing a moment), and the record would be left for a run after this one.
    const ended = new Map<string, Job>()
    const jobReader = {
      getJob: async (id: string, jobSignal: AbortSignal): Promise<Job> => {
        const job = await services.reader.getJob(id, jobSignal)
        if (isFinal(job.status)) ended.set(id, job)
        return job
      }
    }
    const toldFirst = (r: IndexedRecord) => rows.get(first.get(r.record.job) ?? 0)?.outcome === 'told'
    for (const indexed of [...share.filter((r) => !later(r)), ...share.filter(later)]) {
      signal.throwIfAborted()
      if (later(indexed) && !toldFirst(indexed)) continue
      const queued = indexed.record.state === 'queued'
      const row = await (queued
        ? reportQueued(place, services, indexed, deadline)
        : reportOne(place, jobReader, indexed, later(indexed) ? ended.get(indexed.record.job) : undefined))
      rows.set(indexed.commentId, row)
      run.jobs.push(row)
      // Listed as soon as told: a run cancelled or failing later still lists the endings it told.
      if (row.outcome === 'told') setReportedOutput(run.jobs)
    }
    const asking = pullRequestOfEvent(runner)
    if (asking && !run.jobs.some((job) => job.prLink === asking)) {
      const rest = pending.filter((r) => !rows.has(r.commentId) && !later(r))
      const scanned = await reportPullRequestJob(place, services.reader, rest, asking)
      if (scanned) {
        rows.set(scanned.commentId, scanned.row)
        run.jobs.push(scanned.row)
        if (scanned.row.outcome === 'told') setReportedOutput(run.jobs)
        run.left -= 1
      }
    }
    const stillOpen = pending.filter((r) => !isClosed(rows.get(r.commentId)))
    const cursor = cursorAfter(pending, share)
    const open = stillOpen.map((r) => openEntryOf(r, rows.get(r.commentId), found))
    run.workflow.switch = await keepIndex(index, { issue, file, open, cursor, found, repository }, { octokit, signal })
    return run
  } finally {
    await reader.close()
  }
}

/** Each job's first open record (the oldest comment), by job id; queued records name no job yet. */
function firstRecordOfJob(pending: readonly IndexedRecord[]): Map<string, number> {
  const first = new Map<string, number>()
  for (const { commentId, record } of pending) {
    const before = first.get(record.job)
    if (record.job && (before === undefined || commentId < before)) first.set(record.job, commentId)
  }
  return first
}
