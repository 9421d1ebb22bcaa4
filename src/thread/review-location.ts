// Where a review comment sits in a pull request's diff: the file, the line or lines, and the hunk.
// The agent needs it to know what "this" means in "/docs explain this"; it is outside text, so it
// reaches the agent only through the context section's quoting (safety/quote-for-agent.ts).
import { isSecretFile } from '../safety/secret-files.js'
import { oneLineCodeSpan, fenced } from '../safety/quote-for-agent.js'
import type { DiffLocation } from '../github/diff-location.js'

// GitHub's diff_hunk runs from the hunk's header to the line commented on: its end is what matters.
const HUNK_LINES = 60
const HUNK_CHARACTERS = 6000

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
