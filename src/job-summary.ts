import * as core from '@actions/core'
import { formatDuration } from './duration.js'
import { log } from './log.js'
import { describeEnding, type RunOutcome } from './run-ending.js'
import { safeLogLines } from './untrusted-text.js'

export interface SummaryDetails {
  outcome: RunOutcome
  /** The prompt as given (the input, or the comment's instruction). */
  prompt: string
  /** The context section sent after the prompt; empty when there was none. */
  context?: string
  elapsedMs: number
}

/**
 * Writes the job summary. Every value is escaped, and the prompt keeps its line breaks as <br>,
 * so nothing in it can inject HTML or break out of the block into Markdown. The job's texts are
 * neutralised when the record is read (job-record.ts), and so is the prompt here (it may be a
 * comment's text), secrets blanked. A missing or unwritable summary file (a local run) is a debug
 * line, never a failure.
 */
export async function writeSummary({ outcome, prompt, context, elapsedMs }: SummaryDetails): Promise<void> {
  const { job } = outcome
  const pr = job?.prLink ? `<a href="${escapeHtml(job.prLink)}">${escapeHtml(job.prLink)}</a>` : 'none'
  const source = job?.sourceRepository ? `${job.sourceRepository}${job.sourceRef ? ` @ ${job.sourceRef}` : ''}` : ''
  const rows: [string, string][] = [
    ['Job', escapeHtml(outcome.jobId || 'not created')],
    ['Status', escapeHtml(job?.status ?? 'unknown')],
    ['Outcome', escapeHtml(describeEnding(outcome).short)],
    ['Pull request', pr],
    ['Model', escapeHtml(job?.model ?? '')],
    ['Source', escapeHtml(source)],
    ['Followed for', formatDuration(elapsedMs)]
  ]
  const summary = core.summary.addHeading('Documentation agent job', 3).addTable([
    [
      { data: 'Field', header: true },
      { data: 'Value', header: true }
    ],
    ...rows
  ])
  if (prompt) {
    const label = outcome.followUp ? 'Follow-up message' : 'Prompt'
    summary.addRaw(`<p><strong>${label}</strong></p><blockquote>${asHtmlLines(prompt)}</blockquote>`, true)
  }
  if (context) {
    // Folded: it can run to thousands of characters, and it is what the agent read, not what was asked.
    summary.addRaw(
      `<details><summary>Context sent after the prompt (${context.length.toLocaleString('en-US')} characters)</summary>` +
        `<pre>${escapeHtml(safeLogLines(context))}</pre></details>`,
      true
    )
  }
  try {
    await summary.write()
  } catch (error) {
    log.debug(`No job summary written: ${(error as Error).message}`)
  } finally {
    summary.emptyBuffer()
  }
}

function asHtmlLines(text: string): string {
  return escapeHtml(safeLogLines(text)).replace(/\n/g, '<br>')
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'|]/g, (c) => `&#${c.charCodeAt(0)};`)
}
