// What a reporting run (`report: pending`) shows: one summary of the jobs it read (each ending it
// told, those told by another run, those still working), the records it ignored and those it left
// for the next run, the labelled issues that are not the index, and what became of the reporting
// workflow; and which rows the `reported` output lists (the endings this run told, each ending in one
// run's `reported` only) and the `working` output (the jobs it read still working), which
// ending/outputs.ts sets. Every value is escaped.
import * as core from '@actions/core'
import { log } from '../runtime/log.js'
import { plural } from '../runtime/plural.js'
import { pullRequestName } from '../service/pull-request-link.js'
import { INDEX_LABEL } from './index-issue.js'
import { escapeHtml } from '../ending/summary-html.js'
import { setReportedOutputs } from '../ending/outputs.js'

/** One job a reporting run read, as the summary and the `reported` output show it. */
export interface ReportedRow {
  id: string
  /** The job's status as read; `unknown` when the service no longer knows it; `unread` when the read failed. */
  status: string
  prLink: string | null
  /** The thread that asked, when one did. */
  thread: number | null
  /** The commit the job was asked for, when it was. */
  commit: string | null
  /**
   * What this run did with it: told its ending, found it told (or claimed) by another run, left it
   * working, or could not write all of its ending (told again next run).
   */
  outcome: 'told' | 'done' | 'claimed' | 'working' | 'unread' | 'queued' | 'unfinished'
}

/** What the summary tells besides the jobs. */
export interface ReportCounts {
  ignored: number
  left: number
  perRun: number
  /** The repository's address, https://host/owner/name: the threads and commits link there. */
  repositoryUrl: string
  /** The index issue, and other open issues with its label (not the index, not read). */
  issue?: number | null
  otherIssues?: readonly number[]
  /** The reporting workflow's file, and what became of it. */
  workflow?: { file: string | null; switch: 'on' | 'off' | 'refused' | 'failed' | 'unknown' }
}

const SAID: Record<ReportedRow['outcome'], string> = {
  told: 'told by this run',
  done: 'told by another run',
  // A claim may be left by a run that was stopped before it gave the claim up: it lapses, then a run tells it.
  claimed: 'claimed by another run: told by it, or by a run after its claim lapses (20 minutes)',
  unfinished: 'not all of its ending could be written: told again next run',
  working: 'still working',
  unread: 'not read: tried again next run',
  queued: 'create refused for the rate limit: tried again next run'
}

/** Whether a row is still working: read and not ended, or a create that waits. */
export function isWorking(row: ReportedRow): boolean {
  return row.outcome === 'working' || row.outcome === 'queued'
}

/**
 * The rows of the `reported` output (the endings this run told) and of the `working` output (the jobs
 * it read that still work, or wait to be created), set where every output is (ending/outputs.ts).
 */
export function setReportedOutput(rows: readonly ReportedRow[]): void {
  setReportedOutputs(
    rows.filter((r) => r.outcome === 'told'),
    rows.filter(isWorking)
  )
}

/** The heading, the table of jobs, and the lines on ignored and left records. */
export function reportingSummaryHtml(rows: readonly ReportedRow[], counts: ReportCounts): string {
  const told = rows.filter((r) => r.outcome === 'told').length
  const working = rows.filter(isWorking).length
  const heading =
    rows.length === 0
      ? '📭 No documentation jobs were waiting to be reported'
      : told === 0
        ? `⏳ ${plural(working, 'documentation job')} still working: no ending to report yet`
        : `📬 Reported the ending of ${plural(told, 'documentation job')}${working ? ` · ${working} still working` : ''}`
  const lead = told
    ? "<p>Each ending is told where the job was asked for: the reply on the thread, the note on the pull request, the commit's status.</p>"
    : ''
  const table = rows.length
    ? '<table><tr><th>Job</th><th>Status</th><th>Pull request</th><th>Asked on</th><th>This run</th></tr>' +
      rows.map((row) => rowHtml(row, counts.repositoryUrl)).join('') +
      '</table>'
    : ''
  const notes = [
    counts.left > 0
      ? `${plural(counts.left, 'more job')} left for the next reporting run: a run reads at most ${counts.perRun}.`
      : '',
    counts.ignored > 0
      ? `${plural(counts.ignored, 'record')} ignored: signed for another project, repository or comment, or not by this action's key.`
      : '',
    otherIssuesNote(counts),
    workflowNote(counts)
  ].filter(Boolean)
  return `<h3>${heading}</h3>\n${lead}${table}\n${notes.map((n) => `<p>${escapeHtml(n)}</p>`).join('\n')}\n`
}

/** The labelled issues that are not the index, named once. */
function otherIssuesNote({ otherIssues, issue }: ReportCounts): string {
  if (!otherIssues?.length) return ''
  const names = otherIssues.map((n) => `#${n}`).join(', ')
  const index = issue ? ` (the index is #${issue}, which the action made and signed)` : ''
  return (
    `Not read: ${otherIssues.length === 1 ? 'issue' : 'issues'} ${names} ${otherIssues.length === 1 ? 'has' : 'have'} the label ${INDEX_LABEL} ` +
    `but ${otherIssues.length === 1 ? 'is' : 'are'} not the index this action made for this project${index}. Take the label off to stop this line.`
  )
}

/** What became of the reporting workflow, and for a token that may not turn it off, the permission that would. */
function workflowNote({ workflow }: ReportCounts): string {
  if (!workflow?.file) return ''
  const file = workflow.file.split('/').pop()
  switch (workflow.switch) {
    case 'off':
      return `Nothing is open: the reporting workflow ${file} is turned off, and the next hand-over turns it on.`
    case 'refused':
      return (
        `Nothing is open, but the reporting workflow ${file} keeps running on its schedule: its token may not turn it off. ` +
        `Give the workflow "actions: write" in its permissions (and the workflows that hand jobs over too), and it runs only while a job is open.`
      )
    case 'failed':
      return `The reporting workflow ${file} could not be turned off or on (see the warning): it keeps its schedule.`
    default:
      return ''
  }
}

function rowHtml(row: ReportedRow, repositoryUrl: string): string {
  const pr = row.prLink ? `<a href="${escapeHtml(row.prLink)}">${escapeHtml(pullRequestName(row.prLink))}</a>` : '–'
  const asked =
    row.thread !== null
      ? `<a href="${escapeHtml(`${repositoryUrl}/issues/${row.thread}`)}">#${row.thread}</a>`
      : row.commit
        ? `commit <a href="${escapeHtml(`${repositoryUrl}/commit/${row.commit}`)}"><code>${escapeHtml(row.commit.slice(0, 7))}</code></a>`
        : '–'
  const id = row.id ? `<code>${escapeHtml(row.id)}</code>` : 'not created yet'
  return (
    `<tr><td>${id}</td><td><code>${escapeHtml(row.status)}</code></td>` +
    `<td>${pr}</td><td>${asked}</td><td>${SAID[row.outcome]}</td></tr>`
  )
}

/** Writes the summary; a missing summary file (a local run) is a debug line. */
export async function writeReportingSummary(rows: readonly ReportedRow[], counts: ReportCounts): Promise<void> {
  try {
    await core.summary.addRaw(reportingSummaryHtml(rows, counts), true).write()
  } catch (error) {
    log.debug(`No job summary written: ${(error as Error).message}`)
  } finally {
    core.summary.emptyBuffer()
  }
}
