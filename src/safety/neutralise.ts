import { blankSecrets } from './run-secrets.js'

// Text from outside the action (the service's answers, the event's payload, the GitHub API's
// answers) is shown as data, never obeyed. The runner reads workflow commands from the step's
// stdout: `::name::` at the start of a line once leading blanks are trimmed, and the older
// `##[name]` anywhere in a line; a line ends at \n, and at a bare \r too. core.info writes its text
// raw; core.warning and the like escape only %, \r and \n. So every piece of outside text is made
// one line with no control character, its `##[` is broken up, a `::` where a line could start is
// broken up, and the secrets the run holds are blanked.

// C0 (with \t, \n, \r), DEL, C1 (with NEL, which .NET counts as a line's blank), the Unicode line
// and paragraph separators, and the bidirectional controls that make a line read other than it is.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g
const HAS_CONTROL = new RegExp(CONTROL.source)
const NAMED_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }

/** The longest piece of outside text a log line, a summary or a reply carries, by default. */
export const MAX_EXCERPT = 200

/**
 * A piece of outside text, safe to put in a log line, a summary cell or (inside a code span) a
 * reply: one line, control characters shown as escapes (`\n`, `\u001b`), no workflow command,
 * no secret, trimmed, and at most `maxLength` characters. Applying it twice changes nothing.
 */
export function neutralise(text: string, maxLength = MAX_EXCERPT): string {
  return cap(safeLogLine(text.trim()).trim(), maxLength)
}

/**
 * A whole log line that may carry outside text: the same treatment as `neutralise`, without the
 * cap (the action's own words are not cut). Every line the action logs goes through it (log.ts).
 */
export function safeLogLine(text: string): string {
  // Secrets first: an escape or a broken-up `##[` must not split one so that it is no longer found.
  return breakCommands(escapeControls(blankSecrets(text)))
}

/**
 * Like `safeLogLine`, but keeps line breaks (as \n): for text that is meant to span lines, such as
 * a stack at debug level. Each line on its own is safe; a \r alone becomes a line break.
 */
export function safeLogLines(text: string): string {
  return blankSecrets(text)
    .split(/\r\n|\r|\n/)
    .map((line) => safeLogLine(line))
    .join('\n')
}

/**
 * Markdown code span around `text`: GitHub renders nothing inside it (no mention, link, image or
 * HTML), where a backslash would not stop a mention. The fence is longer than any run of backticks
 * in the text, so none can close it early. Give it neutralised text: a code span is one line.
 */
export function codeSpan(text: string): string {
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length))
  const fence = '`'.repeat(longestRun + 1)
  // A space on each side keeps a backtick at either end from joining the fence; Markdown takes one off.
  const pad = text.startsWith('`') || text.endsWith('`') || text.trim() === '' ? ' ' : ''
  return `${fence}${pad}${text}${pad}${fence}`
}

/** True when `text` holds a character `neutralise` would escape: a line break, a tab, any control. */
export function hasControlCharacter(text: string): boolean {
  return HAS_CONTROL.test(text)
}

function escapeControls(text: string): string {
  return text.replace(CONTROL, (c) => NAMED_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** `##[` becomes `## [` wherever it is; a `::` at the start, after blanks, becomes `: :`. */
function breakCommands(line: string): string {
  return line.replace(/##\[/g, '## [').replace(/^(\s*):(?=:)/, '$1: ')
}

/** At most `maxLength` characters (whole code points), with … when cut. */
function cap(text: string, maxLength: number): string {
  const chars = [...text]
  return chars.length > maxLength ? `${chars.slice(0, maxLength - 1).join('')}…` : text
}
