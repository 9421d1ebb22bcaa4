import * as core from '@actions/core'
import { formatDuration } from '../runtime/duration.js'
import { log } from '../runtime/log.js'
import { changeLine, type PullRequestDetails } from '../github/pull-request-details.js'
import { pullRequestLink, pullRequestName } from '../service/pull-request-link.js'
import { describeEnding } from './run-ending.js'
import type { ValueFormat } from './value-format.js'
import type { RunOutcome } from '../kernel/run-outcome.js'
import {
  byteSize,
  escapeHtml,
  oneLineHtml,
  renderedWithin,
  wrapLongLines,
  quotedLinesHtml,
  SUMMARY_MAX_BYTES
} from './summary-html.js'
import { safeLogLines } from '../safety/neutralise.js'
import { whatLeavesHtml, type WhatLeaves } from '../prompt/what-leaves.js'
import type { GroupShown } from './group-shown.js'

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
  /** The run's group, when it has one: which, its pull request, and what this run sent it. */
  group?: GroupShown | null
}

/**
 * Writes the job summary, read in three seconds: the verdict as a heading; one sentence that names the
 * job once and links its pull request (an error's reason instead, which says what to do); the pull
 * request's title and changes when GitHub showed them; the next step, only where there is one; a
 * compact table of the job's fields, with no empty cell; then folded, what left the repository, the
 * prompt and the context. Every value is escaped, and each piece of outside text is one line of HTML
 * (summary-html.ts), so nothing in it can inject HTML or break out of its block into Markdown. The
 * job's texts are neutralised when the record is read (job-record.ts), and so is the prompt here (it
 * may be a comment's text), secrets blanked. The prompt and the context take what is left of GitHub's
 * 1 MiB, and a cut says how much is left out. A missing or unwritable summary file (a local run) is a
 * debug line, never a failure.
 */
export async function writeSummary({
  outcome,
  prompt,
  context,
  leaving,
  elapsedMs,
  pullRequest,
  group
}: SummaryDetails): Promise<void> {
  const { job } = outcome
  const verdict = describeEnding(outcome)
  // An error's reason is the sentence that says what happened (and, where a write's answer was lost,
  // that a job or the message may exist): it stands in for the short sentence, and what it says to do
  // is the next step.
  const told = outcome.ending === 'error' ? outcome.told : undefined
  const happened = told?.happened ?? (outcome.ending === 'error' && outcome.reason ? outcome.reason : null)
  const nextStep = verdict.next ?? told?.next ?? null
  const sentence = happened ? escapeHtml(happened) : shortSentenceHtml(outcome)
  // A cell says what the words above it do not: a status the heading or the sentence already says is left out.
  const saidAbove = `${verdict.heading} ${happened ?? verdict.short}`
  const status = job && !saysWord(saidAbove, job.status) ? job.status : ''
  const fields: [string, string][] = [
    ...field('Status', status),
    ...field('Model', job?.model ?? ''),
    ...(job?.sourceRepository ? [['Source', sourceHtml(job.sourceRepository, job.sourceRef)] as [string, string]] : []),
    ...(verdict.followed ? [['Followed for', formatDuration(elapsedMs)] as [string, string]] : [])
  ]
  // A held run's words name its group already; any other group run says which, and what it sent.
  const inGroup = group && outcome.ending !== 'held' ? groupHtml(group, outcome.job?.prLink ?? null) : ''
  // After a message, or in a group, the pull request's lines are its totals, not this run's.
  const whole = outcome.followUp || group ? ' (the whole pull request, not only this run)' : ''
  const agentDid = pullRequest
    ? `<p>${escapeHtml(pullRequest.title)} · ${escapeHtml(changeLine(pullRequest))}${whole}</p>`
    : ''
  const next = nextStep ? `<p><strong>Next step:</strong> ${escapeHtml(nextStep)}</p>` : ''
  const summary = core.summary
    .addHeading(escapeHtml(verdict.heading), 3)
    .addRaw(`<p>${sentence}</p>${inGroup}${agentDid}${next}`, true)
  if (fields.length) summary.addRaw(fieldsTable(fields), true)
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

/** A field with its value escaped, or none when there is no value: the table has no empty cell. */
function field(name: string, value: string): [string, string][] {
  return value ? [[name, escapeHtml(value)]] : []
}

/**
 * The group's line: its name, its pull request (a link, as its host names it, unless the sentence
 * above links it already), and the commits this run sent, linked to their comparison where the run
 * knows where they are.
 */
function groupHtml({ name, pullRequest, sent }: GroupShown, linkedAbove: string | null): string {
  const link = pullRequest && pullRequestLink(pullRequest)
  const pr = !link
    ? ''
    : link === linkedAbove
      ? ': the pull request above is the group’s'
      : `, pull request <a href="${escapeHtml(link)}">${escapeHtml(pullRequestName(link))}</a>`
  const short = (sha: string): string => `<code>${escapeHtml(sha.slice(0, 7))}</code>`
  const commits = sent?.compare ? `<a href="${escapeHtml(sent.compare)}">the commits</a>` : 'the commits'
  const range = !sent
    ? 'This run sent it nothing.'
    : sent.from
      ? `This run sent ${commits} after ${short(sent.from)} up to ${short(sent.to)}.`
      : `This run sent ${commits} up to ${short(sent.to)}.`
  return `<p>Group <code>${escapeHtml(name)}</code>${pr}. ${range}</p>`
}

/** Whether `words` hold `word` as a word of its own, whatever its case. */
function saysWord(words: string, word: string): boolean {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`(^|[^\\p{L}\\p{N}_])${escaped}($|[^\\p{L}\\p{N}_])`, 'iu').test(words)
}

/**
 * The job's source: the repository a link, named by its path on its host (`owner/repo`), and its
 * branch. A repository the service gave in another shape than an https address of path segments
 * (letters, digits and . _ - only) is shown as text.
 */
function sourceHtml(repository: string, ref: string | null): string {
  const branch = ref ? ` @ <code>${escapeHtml(ref)}</code>` : ''
  const link = /^https:\/\/[a-z0-9.-]+(?::\d+)?((?:\/[A-Za-z0-9._-]+)+)\/?$/i.exec(repository)
  if (!link || link[1].split('/').some((segment) => segment === '.' || segment === '..')) {
    return `${escapeHtml(repository)}${branch}`
  }
  const name = link[1].slice(1).replace(/\.git$/, '')
  return `<a href="${escapeHtml(repository)}">${escapeHtml(name)}</a>${branch}`
}

/** The job's fields as one row under their names: a glance, not a form to read down. */
function fieldsTable(fields: [string, string][]): string {
  const names = fields.map(([name]) => `<th>${name}</th>`).join('')
  const values = fields.map(([, value]) => `<td>${value}</td>`).join('')
  return `<table><tr>${names}</tr><tr>${values}</tr></table>`
}

// The service's values stand in the sentence as markers while its own words are escaped, then come
// back as HTML: the markers are control characters, which no job id, status or link can hold.
// eslint-disable-next-line no-control-regex -- the control character is the point: nothing else is safe
const MARKER = /\u0000(\d+)\u0000/g

/**
 * The ending's short sentence as HTML: the job id and a status in code spans, the pull request as a
 * link named as GitHub names it (`owner/repo#7`; the link checked by pull-request-link.ts).
 */
function shortSentenceHtml(outcome: RunOutcome): string {
  const values: string[] = []
  const hold = (html: string): string => `\u0000${values.push(html) - 1}\u0000`
  const format: ValueFormat = {
    id: (jobId) => hold(`<code>${escapeHtml(jobId)}</code>`),
    status: (status) => hold(`<code>${escapeHtml(status)}</code>`),
    link: (url) => hold(`<a href="${escapeHtml(url)}">${escapeHtml(pullRequestName(url))}</a>`)
  }
  const { short } = describeEnding(outcome, format)
  return escapeHtml(short).replace(MARKER, (_, index: string) => values[Number(index)])
}

// Held back for the context when the prompt is cut: enough for its folded block to say what it left out.
const CONTEXT_MIN_BYTES = 2 * 1024
// The most a block's own words take (tags, label and note), whatever it shows.
const BLOCK_WORDS_BYTES = 400

/**
 * The prompt folded, as a quote on one line (its line breaks as <br>, a fenced block in it as a <pre>:
 * a thread's body is quoted so for the agent, and a reader sees the block, not its fences), within
 * `room` bytes with its line break. Cut as the longest of its line ends could be, so the quote fits.
 */
function promptBlock(prompt: string, room: number, label: string): string {
  const cut = renderedWithin(prompt, room - 1 - BLOCK_WORDS_BYTES, (shown) => quotedLinesHtml(shown, wrapLongLines))
  return (
    `<details><summary>${label} (${number(cut.total)} characters)</summary>` +
    `<blockquote>${cut.html}</blockquote>${cutNote('prompt', cut)}</details>`
  )
}

/**
 * The context folded, one line (its line breaks as &#10; in its block, so no blank line ever ends the
 * HTML block early), within `room` bytes with its line break. Folded: it can run to thousands of
 * characters, and it is what the agent read, not what was asked.
 */
function contextBlock(context: string, room: number): string {
  const cut = renderedWithin(context, room - 1 - BLOCK_WORDS_BYTES, wrappedPreHtml)
  const shown = cut.shown < cut.total ? `; the first ${number(cut.shown)} shown` : ''
  return (
    `<details><summary>Context sent after the prompt (${number(cut.total)} characters${shown})</summary>` +
    `${preBlock(cut.html)}${cutNote('context', cut)}</details>`
  )
}

/** The exact prompt of a dry run, one line in a block like the context's, open, within `room` bytes. */
function exactPromptBlock(sent: string, room: number): string {
  const cut = renderedWithin(sent, room - 1 - BLOCK_WORDS_BYTES, wrappedPreHtml)
  return (
    `<details open><summary>The exact prompt (not sent)</summary>` +
    `${preBlock(cut.html)}${cutNote('prompt', cut, 'the log shows it whole')}</details>`
  )
}

/** A <pre>'s text as one line of HTML, its long lines wrapped (a <pre> would scroll them sideways). */
function wrappedPreHtml(text: string): string {
  return oneLineHtml(wrapLongLines(text), '&#10;')
}

/**
 * Text that keeps its line breaks and indentation, in one block: a <pre> (its line breaks written as
 * &#10;, so that the HTML block stays one line). A code span would keep them too, but GitHub draws
 * each of its lines as a box of its own, ragged; a <pre> keeps a long line on one line, so the text
 * comes wrapped (wrapLongLines) and a reader never scrolls sideways.
 */
function preBlock(html: string): string {
  return `<pre>${html}</pre>`
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
