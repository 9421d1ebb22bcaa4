// The index issue's body as a person reads it, as Renovate's Dependency Dashboard is read: the
// reporting workflow and whether it is on, the jobs still open (where each was asked, since when,
// its status as last read), then the endings told lately, newest first; below them the signed marker
// (index-marker.ts) the action reads back. Kept by reporting runs, and by hand-overs when they add a
// job. Every outside value (a job id, a status) is shown in a code span, pipes escaped for the table.
import { neutralise } from '../safety/neutralise.js'
import { oneLineCodeSpan } from '../safety/quote-for-agent.js'
import { pullRequestName } from '../service/pull-request-link.js'
import { hasCompleted } from '../service/job-record.js'
import { MAX_OPEN_SHOWN, type IndexState, type OpenEntry, type RecentEntry } from './index-marker.js'

export const INDEX_TITLE = 'Documentation jobs'

/** Where the dashboard's links go. */
export interface DashboardLinks {
  /** https://host/owner/name */
  repositoryUrl: string
}

/** The body: the dashboard, then `marker` (the signed line that holds the same state). */
export function dashboardBody(state: IndexState, marker: string, { repositoryUrl }: DashboardLinks): string {
  const lines = [
    `## 📋 ${INDEX_TITLE}`,
    '',
    'Kept by the documentation agent action: the jobs runs handed over (with `wait: false`, or when their ' +
      'timeout ran out) and the endings a reporting run (`report: pending`) told where each was asked. ' +
      'Leave this issue open and unedited; see docs/report-later.md in the action.',
    '',
    workflowLine(state, repositoryUrl),
    '',
    `### ⏳ Open (${state.open.length})`,
    '',
    ...openTable(state.open, repositoryUrl),
    '',
    '### 📬 Ended lately',
    '',
    ...recentTable(state.recent, repositoryUrl),
    '',
    marker
  ]
  return lines.join('\n')
}

/** The body of an index just made, before its number is known (its marker is signed for the number). */
export const INDEX_BODY_MAKING = `## 📋 ${INDEX_TITLE}\n\nBeing set up by the documentation agent action.`

function workflowLine(state: IndexState, repositoryUrl: string): string {
  if (!state.workflow) {
    return (
      '**Reporting workflow:** none has run yet. Add one with `report: pending` ' +
      '(examples/workflows/report-later.yml in the action): until it runs, no ending is told here.'
    )
  }
  const file = state.workflow.split('/').pop() ?? state.workflow
  const link = `[\`${file}\`](${repositoryUrl}/actions/workflows/${encodeURIComponent(file)})`
  const how = !state.switchable
    ? '🟢 on, on its schedule (its token may not turn it off while nothing is open: give it `actions: write`)'
    : state.on
      ? '🟢 on: a job is open'
      : '⏸️ off: nothing is open, and the next hand-over turns it on'
  return `**Reporting workflow:** ${link} · ${how}`
}

function openTable(open: readonly OpenEntry[], repositoryUrl: string): string[] {
  if (open.length === 0) return ['Nothing is open.']
  const rows = open
    .slice(0, MAX_OPEN_SHOWN)
    .map(
      (entry) =>
        `| ${jobCell(entry.job)} | ${askedCell(entry, repositoryUrl)} | ${timeCell(entry.since)} | ${cell(entry.status || 'not read yet')} |`
    )
  const more = open.length > MAX_OPEN_SHOWN ? [`\nAnd ${open.length - MAX_OPEN_SHOWN} more.`] : []
  return ['| Job | Asked on | Since | Last seen |', '| --- | --- | --- | --- |', ...rows, ...more]
}

function recentTable(recent: readonly RecentEntry[], repositoryUrl: string): string[] {
  if (recent.length === 0) return ['No ending told yet.']
  const rows = recent.map(
    (entry) =>
      `| ${jobCell(entry.job)} | ${mark(entry.status)} ${cell(entry.status)} | ${pullCell(entry.prLink)} | ` +
      `${askedCell(entry, repositoryUrl)} | ${timeCell(entry.at)} |`
  )
  return ['| Job | Status | Pull request | Asked on | Told |', '| --- | --- | --- | --- | --- |', ...rows]
}

/** An ending's mark, as a held run's summary shows it. */
function mark(status: string): string {
  return hasCompleted(status) ? '✅' : '❌'
}

function jobCell(job: string): string {
  return job ? cell(job) : 'not created yet (queued)'
}

function askedCell(entry: Pick<OpenEntry, 'thread' | 'commit'>, repositoryUrl: string): string {
  if (entry.thread) {
    const { number, comment } = entry.thread
    return `[#${number}](${repositoryUrl}/issues/${number}#issuecomment-${comment})`
  }
  if (entry.commit) return `commit [\`${entry.commit.slice(0, 7)}\`](${repositoryUrl}/commit/${entry.commit})`
  return 'a workflow run'
}

function pullCell(prLink: string | undefined): string {
  if (!prLink) return '–'
  return `[${pullRequestName(prLink).replace(/[[\]|]/g, '')}](${prLink})`
}

function timeCell(iso: string): string {
  const at = Date.parse(iso)
  return Number.isFinite(at) ? new Date(at).toISOString().slice(0, 16).replace('T', ' ') + ' UTC' : '–'
}

/** Outside text in a table cell: one code span, its pipes escaped (GitHub splits cells at a pipe even there). */
function cell(value: string): string {
  return oneLineCodeSpan(neutralise(value, 200)).replace(/\|/g, '\\|')
}
