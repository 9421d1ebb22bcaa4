import { codeSpan } from './neutralise.js'

// Everything written by people outside the workflow (titles, bodies, commit messages, author names,
// paths, branch and tag names, diffs) reaches the agent as data. These helpers are the only way such
// text enters the context section: control characters go, and each piece is quoted or fenced so that
// nothing in it can end its quote, close its fence, or pass itself off as the section's own words.

// C0 and C1 controls (but tab and newline), DEL, zero-width and bidirectional marks: the last two
// can make text read differently from what it is.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const INVISIBLE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g

/** The text with CR line ends made LF and every other control character removed. */
export function cleanText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(INVISIBLE, '')
}

/** At most `max` characters, an ellipsis included, never splitting a surrogate pair. */
export function cutShort(text: string, max: number): string {
  if (text.length <= max) return text
  let end = Math.max(0, max - 1)
  if (end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1])) end--
  return `${text.slice(0, end)}…`
}

/** One line: cleaned, blanks (line breaks included) collapsed, cut at `max` characters. */
export function oneLine(text: string, max: number): string {
  return cutShort(cleanText(text).replace(/\s+/g, ' ').trim(), max)
}

/** One line in double quotes, JSON-escaped: a quote inside cannot end it. */
export function quoted(text: string, max: number): string {
  return JSON.stringify(oneLine(text, max))
}

/** Outside text as one line (cleaned, cut at `max`) in a Markdown code span (see codeSpan). */
export function oneLineCodeSpan(text: string, max = 200): string {
  return codeSpan(oneLine(text, max))
}

/**
 * A fenced block holding `text` verbatim (cleaned): its fence is a run of backticks longer than any
 * in the text, so no line of it can close the block early.
 */
export function fenced(text: string, info = 'text'): string {
  const body = withoutTrailingNewlines(cleanText(text))
  const fence = '`'.repeat(Math.max(3, longestRun(body, '`') + 1))
  return `${fence}${info}\n${body}\n${fence}`
}

/**
 * The text without the line breaks at its end. Not /\n+$/: that pattern rescans every run of line
 * breaks to its end, and a diff of 300,000 blank lines then took half a minute.
 */
function withoutTrailingNewlines(text: string): string {
  let end = text.length
  while (end > 0 && text.charCodeAt(end - 1) === 10) end--
  return text.slice(0, end)
}

function longestRun(text: string, char: string): number {
  let longest = 0
  let run = 0
  for (const c of text) {
    run = c === char ? run + 1 : 0
    if (run > longest) longest = run
  }
  return longest
}
