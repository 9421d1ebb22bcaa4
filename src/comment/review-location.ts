// Where a review comment sits in a pull request's diff: the file, the line or lines, and the hunk.
// The agent needs it to know what "this" means in "/docs explain this"; it is outside text, so it
// reaches the agent only through the context section's quoting (safety/quote-for-agent.ts).
import { isSecretFile } from '../safety/secret-files.js'
import { oneLineCodeSpan, fenced } from '../safety/quote-for-agent.js'

/** Where a review comment is, as the event gives it (outside text). */
export interface DiffLocation {
  path: string
  /** The first line of a comment on several lines; null for one line. */
  startLine: number | null
  /** The (last) line; null for a comment on the file as a whole. */
  line: number | null
  /** LEFT: the lines of the old version; RIGHT: of the new one. */
  side: 'LEFT' | 'RIGHT'
  /** The diff hunk up to the line commented on. */
  hunk: string
}

// GitHub's diff_hunk runs from the hunk's header to the line commented on: its end is what matters.
const HUNK_LINES = 60
const HUNK_CHARACTERS = 6000

/** Reads the place of a review comment from the event's `comment`; fields of the wrong type read as absent. */
export function diffLocation(comment: Record<string, unknown>): DiffLocation {
  const lineOf = (value: unknown): number | null =>
    typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null
  // A comment on lines that later changed is "outdated": its line is null, its original_line is not.
  const line = lineOf(comment.line) ?? lineOf(comment.original_line)
  const startLine = lineOf(comment.start_line) ?? lineOf(comment.original_start_line)
  return {
    path: typeof comment.path === 'string' ? comment.path : '',
    startLine: startLine !== null && line !== null && startLine < line ? startLine : null,
    line,
    side: comment.side === 'LEFT' ? 'LEFT' : 'RIGHT',
    hunk: typeof comment.diff_hunk === 'string' ? comment.diff_hunk : ''
  }
}

/**
 * The instruction with the place it was written on: the file, the line or lines, and the hunk, quoted.
 * The hunk of a file that holds credentials by convention (`.env`, a key) is never sent, as in the context;
 * any other hunk is scanned whole for credentials, then cut.
 */
export function instructionAt(
  instruction: string,
  location: DiffLocation,
  /** Blanks the credentials in the whole hunk before it is cut to its last lines (a key's BEGIN line may fall off). */
  blankHunk: (hunk: string) => string = (hunk) => hunk
): string {
  const version = location.side === 'LEFT' ? 'the old version' : 'the new version'
  const lines =
    location.line === null
      ? 'the file as a whole'
      : location.startLine === null
        ? `line ${location.line} of ${version}`
        : `lines ${location.startLine} to ${location.line} of ${version}`
  const file = location.path ? oneLineCodeSpan(location.path, 300) : 'a file'
  const where = `This was written as a review comment on ${file}, ${lines}`
  if (location.path && isSecretFile(location.path)) {
    return `${instruction}\n\n${where}. The file may hold credentials, so its diff hunk is not sent.`
  }
  const hunk = lastLines(blankHunk(location.hunk))
  if (!hunk) return `${instruction}\n\n${where}.`
  return `${instruction}\n\n${where}, which ends this diff hunk:\n${fenced(hunk, 'diff')}`
}

function lastLines(hunk: string): string {
  const lines = hunk.replace(/\r\n?/g, '\n').replace(/\n+$/, '').split('\n')
  const kept = lines.length > HUNK_LINES ? lines.slice(-HUNK_LINES) : lines
  const text = kept.join('\n')
  if (text.length <= HUNK_CHARACTERS) return text
  // Cut from the start, keeping the line commented on, and never half of a surrogate pair.
  let start = text.length - HUNK_CHARACTERS + 1
  if (/[\uDC00-\uDFFF]/.test(text[start])) start++
  return `…${text.slice(start)}`
}
