// Where a review comment sits in a pull request's diff, as the event's `comment` gives it (outside
// text): read once with the runner's event (event.ts); thread/review-location.ts words it for the agent.
import type { JsonObject } from './json-shape.js'

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

/** Reads the place of a review comment from the event's `comment`; fields of the wrong type read as absent. */
export function diffLocation(comment: JsonObject): DiffLocation {
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
