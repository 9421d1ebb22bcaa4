// Which open records one reporting run reads, and which stay open after it. A run reads at most
// REPORT_JOBS_PER_RUN records: its share starts after the record the previous run read last (the
// cursor kept in the index) and wraps round, so every open record is read within ceil(open / 20) runs
// whatever the others do; the rest are left for the next run, as actions/stale's operations-per-run.
import type { IndexRead } from './job-index.js'
import type { IndexedRecord } from './index-records.js'
import type { OpenEntry } from './index-marker.js'
import type { ReportedRow } from './reporting-summary.js'

/** The most jobs one reporting run reads: each is a read of the service and, once ended, a few GitHub writes. */
export const REPORT_JOBS_PER_RUN = 20

/**
 * The share of this run: the open records after `cursor` (the last the previous run read), oldest
 * first, then from the first again, at most REPORT_JOBS_PER_RUN.
 */
export function shareOf(pending: readonly IndexedRecord[], cursor: number): IndexedRecord[] {
  const after = pending.filter((r) => r.commentId > cursor)
  const before = pending.filter((r) => r.commentId <= cursor)
  return [...after, ...before].slice(0, REPORT_JOBS_PER_RUN)
}

/** Where the next run's share starts: after this run's last record, or from the first when all fit in one share. */
export function cursorAfter(pending: readonly IndexedRecord[], share: readonly IndexedRecord[]): number {
  return pending.length > REPORT_JOBS_PER_RUN ? (share.at(-1)?.commentId ?? 0) : 0
}

/** Whether a row's record leaves the open list: told by this run, or by another (final already). */
export function isClosed(row: ReportedRow | undefined): boolean {
  return row?.outcome === 'told' || row?.outcome === 'done'
}

/** A record still open, as the dashboard lists it: its job's status as this run read it, or as listed before. */
export function openEntryOf(indexed: IndexedRecord, row: ReportedRow | undefined, found: IndexRead): OpenEntry {
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
