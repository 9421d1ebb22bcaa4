import * as core from '@actions/core'
import { formatDuration } from '../runtime/duration.js'
import { log } from '../runtime/log.js'
import { changeLine, type PullRequestDetails } from '../github/pull-request-details.js'
import { pullRequestNumber } from '../service/pull-request-link.js'
import { describeEnding, type RunOutcome } from './run-ending.js'
import { byteSize, escapeHtml, oneLineHtml, oneLineHtmlWithin, SUMMARY_MAX_BYTES } from './summary-html.js'
import { safeLogLines } from '../safety/neutralise.js'
import { whatLeavesHtml, type WhatLeaves } from '../prompt/what-leaves.js'

export interface SummaryDetails {
  outcome: RunOutcome
  /** The prompt as given (the input, or the comment's instruction). */
  prompt: string
  /** The context section sent after the prompt; empty when there was none. */
  context?: string
  /** What the prompt sent carries (what-leaves.ts); a dry run's exact prompt. */
  leaving?: WhatLeaves | null
  elapsedMs: number
  /** The pull request the job opened, as GitHub shows it; null when it was not read. */
  pullRequest?: PullRequestDetails | null
}

/**
 * Writes the job summary: a heading that leads with the verdict and names the job (verdict.ts), the
 * next step, then a table with no empty row (a value the run does not have is "none", or its row is
 * left out). Every value is escaped, and each piece of outside text is one line of HTML
 * (summary-html.ts), so nothing in it can inject HTML or break out of its block into Markdown. The
 * job's texts are neutralised when the record is read (job-record.ts), and so is the prompt here (it
 * may be a comment's text), secrets blanked. The job table comes first and whole; the prompt and the
 * context take what is left of GitHub's 1 MiB, and a cut says how much is left out. A missing or
 * unwritable summary file (a local run) is a debug line, never a failure.
 */
export async function writeSummary({
  outcome,
  prompt,
  context,
  leaving,
  elapsedMs,
  pullRequest
}: SummaryDetails): Promise<void> {
  const { job } = outcome
  const jobId = outcome.jobId || job?.id || ''
  const dryRun = outcome.ending === 'dry-run'
  const verdict = describeEnding(outcome)
  const source = job?.sourceRepository ? `${job.sourceRepository}${job.sourceRef ? ` @ ${job.sourceRef}` : ''}` : ''
  const rows: [string, string][] = [
    ['Job', escapeHtml(jobId || (dryRun ? 'none: nothing was sent' : 'none: no job was created'))],
    ...row('Status', job?.status ?? (dryRun ? 'dry-run' : '')),
    ...(jobId && !dryRun
      ? [['Pull request', pullRequestCell(job?.prLink ?? null, pullRequest ?? null)] as [string, string]]
      : []),
    ...row('Model', job?.model ?? ''),
    ...row('Source', source),
    ...(verdict.followed ? [['Followed for', formatDuration(elapsedMs)] as [string, string]] : [])
  ]
  const { short } = verdict
  // A failure's reason is the sentence that says what happened and what to do: it stands in for the
  // short sentence, which points to the log, but where a write's answer was lost the short sentence's
  // warning (a job, or the message, may exist) comes first.
  const said =
    outcome.ending === 'error' && outcome.reason
      ? `${outcome.failure === 'uncertain' || outcome.failure === 'takenUnread' || outcome.followUp ? `<p>${escapeHtml(short)}</p>` : ''}` +
        `<p>${escapeHtml(outcome.reason)}</p>`
      : `<p>${escapeHtml(short)}</p><p><strong>Next step:</strong> ${escapeHtml(verdict.next)}</p>`
  const summary = core.summary
    .addHeading(escapeHtml(verdict.heading), 3)
    .addRaw(said, true)
    .addTable([
      [
        { data: 'Field', header: true },
        { data: 'Value', header: true }
      ],
      ...rows
    ])
  let room = SUMMARY_MAX_BYTES - byteSize(summary.stringify())
  // What left the repository, counted (what-leaves.ts): short, so it comes before the texts.
  if (leaving) {
    const list = whatLeavesHtml(leaving, (text) => oneLineHtml(safeLogLines(text), '<br>'))
    summary.addRaw(list, true)
    room -= byteSize(list) + 1
  }
  if (leaving?.dryRun) {
    // A dry run shows the exact prompt that would have been sent: the prompt and the context joined.
    summary.addRaw(exactPromptBlock(safeLogLines(leaving.sent), room), true)
  } else {
    if (prompt) {
      const label = outcome.followUp ? 'Follow-up message' : 'Prompt'
      const block = promptBlock(safeLogLines(prompt), room - (context ? CONTEXT_MIN_BYTES : 0), label)
      summary.addRaw(block, true)
      room -= byteSize(block) + 1
    }
    if (context) summary.addRaw(contextBlock(safeLogLines(context), room), true)
  }
  try {
    await summary.write()
  } catch (error) {
    log.debug(`No job summary written: ${(error as Error).message}`)
  } finally {
    summary.emptyBuffer()
  }
}

/** A row with its value escaped, or none when there is no value: the summary has no empty row. */
function row(field: string, value: string): [string, string][] {
  return value ? [[field, escapeHtml(value)]] : []
}

/**
 * The pull request: its link, and when GitHub showed it, its number, title, state, files and lines (the
 * title is outside text, neutralised when read and escaped here); "none" when the job opened none.
 */
function pullRequestCell(link: string | null, details: PullRequestDetails | null): string {
  if (!link) return 'none'
  if (!details) return `<a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`
  return (
    `<a href="${escapeHtml(link)}">#${escapeHtml(pullRequestNumber(link))}</a> ${escapeHtml(details.title)} · ` +
    escapeHtml(changeLine(details))
  )
}

// Held back for the context when the prompt is cut: enough for its folded block to say what it left out.
const CONTEXT_MIN_BYTES = 2 * 1024
// The most a block's own words take (tags, label and note), whatever it shows.
const BLOCK_WORDS_BYTES = 400

/** The prompt as a quote, one line (its line breaks as <br>), within `room` bytes with its line break. */
function promptBlock(prompt: string, room: number, label: string): string {
  const cut = oneLineHtmlWithin(prompt, '<br>', room - 1 - BLOCK_WORDS_BYTES)
  return `<p><strong>${label}</strong></p><blockquote>${cut.html}</blockquote>${cutNote('prompt', cut)}`
}

/**
 * The context folded, one line (its line breaks as &#10; inside <pre>, so no blank line ever ends the
 * HTML block early), within `room` bytes with its line break. Folded: it can run to thousands of
 * characters, and it is what the agent read, not what was asked.
 */
function contextBlock(context: string, room: number): string {
  const cut = oneLineHtmlWithin(context, '&#10;', room - 1 - BLOCK_WORDS_BYTES)
  const shown = cut.shown < cut.total ? `; the first ${number(cut.shown)} shown` : ''
  return (
    `<details><summary>Context sent after the prompt (${number(cut.total)} characters${shown})</summary>` +
    `<pre>${cut.html}</pre>${cutNote('context', cut)}</details>`
  )
}

/** The exact prompt of a dry run, one line inside <pre> like the context, within `room` bytes. */
function exactPromptBlock(sent: string, room: number): string {
  const cut = oneLineHtmlWithin(sent, '&#10;', room - 1 - BLOCK_WORDS_BYTES)
  return (
    `<p><strong>The exact prompt (not sent)</strong></p>` +
    `<pre>${cut.html}</pre>${cutNote('prompt', cut, 'the log shows it whole')}`
  )
}

/** Where a piece was cut to fit GitHub's limit: what is shown, what is left out. Empty when nothing was cut. */
function cutNote(
  what: 'prompt' | 'context',
  { shown, total }: { shown: number; total: number },
  whole = 'the agent received them all'
): string {
  if (shown >= total) return ''
  return (
    `<p><em>The ${what} is cut here to keep this summary within GitHub's 1 MiB: ${number(total - shown)} of its ` +
    `${number(total)} characters are left out (${whole}).</em></p>`
  )
}

function number(n: number): string {
  return n.toLocaleString('en-US')
}
