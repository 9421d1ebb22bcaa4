// Outside text in the job summary (the prompt, the context section) as HTML that stays data, within
// GitHub's size limit.
//
// GitHub renders the summary as Markdown. A line that starts with a block tag (<p>, <details>...)
// opens an HTML block, and Markdown takes over again at the first blank line. So each piece is one
// line: its line breaks are written as <br> or as a character reference (&#10;, a line break inside
// <pre>), never as a newline, and Markdown never sees any of it. GitHub also drops a step's summary
// whole, job table included, when it is larger than 1 MiB; the pieces are cut in UTF-8 bytes, as
// written, after escaping (an escaped quote takes five bytes, a CJK character three).

/**
 * The most bytes this step's summary takes: GitHub drops a summary above 1 MiB whole. A KiB short of
 * it, so that a line end or a byte counted otherwise on GitHub's side cannot tip it over.
 */
export const SUMMARY_MAX_BYTES = 1024 * 1024 - 1024

/** `&#60;` and the like: characters that could open a tag or an entity, end an attribute, or cut a table cell. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'|]/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** Neutralised text, line breaks written as `lineBreak`: one line of HTML. */
export function oneLineHtml(text: string, lineBreak: '<br>' | '&#10;'): string {
  return escapeHtml(text).replace(/\n/g, lineBreak)
}

export interface CutHtml {
  html: string
  /** UTF-16 units of the text the HTML shows, from the start. */
  shown: number
  /** UTF-16 units of the whole text. */
  total: number
}

/**
 * `oneLineHtml(text)`, or as much of it from the start as takes at most `maxBytes` in UTF-8: whole
 * characters and whole escapes only, so a cut never leaves half an entity or half a surrogate pair.
 */
export function oneLineHtmlWithin(text: string, lineBreak: '<br>' | '&#10;', maxBytes: number): CutHtml {
  const whole = oneLineHtml(text, lineBreak)
  if (Buffer.byteLength(whole) <= maxBytes) return { html: whole, shown: text.length, total: text.length }
  const pieces: string[] = []
  let bytes = 0
  let shown = 0
  for (const c of text) {
    const piece = c === '\n' ? lineBreak : escapeHtml(c)
    const size = utf8Bytes(piece)
    if (bytes + size > maxBytes) break
    pieces.push(piece)
    bytes += size
    shown += c.length
  }
  return { html: pieces.join(''), shown, total: text.length }
}

/**
 * `render(text)`, or `render` of as much of `text` from the start as keeps what it renders within
 * `maxBytes` in UTF-8: for a rendering that adds to the text (line breaks that wrap it), cut as
 * oneLineHtmlWithin cuts, then shorter by what the rendering added, until it fits.
 */
export function renderedWithin(text: string, maxBytes: number, render: (text: string) => string): CutHtml {
  let budget = maxBytes
  for (;;) {
    const cut = oneLineHtmlWithin(text, '&#10;', budget)
    const html = render(text.slice(0, cut.shown))
    const over = byteSize(html) - maxBytes
    if (over <= 0 || cut.shown === 0) return { ...cut, html }
    budget -= over
  }
}

/**
 * The columns a line in a block of the summary takes before it wraps: GitHub shows the summary's
 * monospace blocks about 110 characters wide, and a longer line would scroll sideways.
 */
export const BLOCK_COLUMNS = 100

/**
 * Text with each line longer than `columns` wrapped: broken at its last space within them (or hard,
 * where a word alone is longer than half of them), each further piece indented as the line was and
 * two columns more, so that a reader sees where a line goes on. A wide character (CJK, most emoji)
 * takes two columns, as a monospace font draws it.
 */
export function wrapLongLines(text: string, columns = BLOCK_COLUMNS): string {
  return text
    .split('\n')
    .map((line) => wrapLine(line, columns))
    .join('\n')
}

function wrapLine(line: string, columns: number): string {
  if (line.length <= columns / 2 || columnsOf(line) <= columns) return line
  const indent = `${(/^[ \t]*/.exec(line)?.[0] ?? '').slice(0, 8)}  `
  const pieces: string[] = []
  let rest = line
  while (rest) {
    const width = pieces.length ? columns - indent.length : columns
    const fits = prefixWithin(rest, width)
    if (fits === rest.length) {
      pieces.push(rest)
      break
    }
    const space = rest.lastIndexOf(' ', fits)
    const at = space > width / 2 ? space : fits
    pieces.push(rest.slice(0, at).trimEnd())
    rest = rest.slice(at).trimStart()
  }
  return pieces.map((piece, i) => (i ? `${indent}${piece}` : piece)).join('\n')
}

/** The UTF-16 length of the longest start of `text` that takes at most `columns` (whole characters). */
function prefixWithin(text: string, columns: number): number {
  let used = 0
  let length = 0
  for (const c of text) {
    used += wide(c) ? 2 : 1
    if (used > columns) break
    length += c.length
  }
  return Math.max(length, Math.min(text.length, text.codePointAt(0)! > 0xffff ? 2 : 1))
}

function columnsOf(text: string): number {
  let used = 0
  for (const c of text) used += wide(c) ? 2 : 1
  return used
}

/** East Asian wide and full-width characters, and emoji: two columns in a monospace font. */
function wide(c: string): boolean {
  const point = c.codePointAt(0) ?? 0
  return (
    (point >= 0x1100 && point <= 0x115f) ||
    (point >= 0x2e80 && point <= 0xa4cf) ||
    (point >= 0xac00 && point <= 0xd7a3) ||
    (point >= 0xf900 && point <= 0xfaff) ||
    (point >= 0xfe30 && point <= 0xfe4f) ||
    (point >= 0xff00 && point <= 0xff60) ||
    (point >= 0xffe0 && point <= 0xffe6) ||
    (point >= 0x1f300 && point <= 0x1faff) ||
    (point >= 0x20000 && point <= 0x3fffd)
  )
}

function utf8Bytes(piece: string): number {
  const point = piece.codePointAt(0) ?? 0
  if (piece.length > 2 || point < 0x80) return piece.length // an escape or a line break: ASCII
  return point < 0x800 ? 2 : point < 0x10000 ? 3 : 4
}

/**
 * Text that may hold fenced blocks (a thread's body, quoted for the agent, is one), as one line of
 * HTML for a quote: each fenced block's lines in a <pre> (its fences left out, its line breaks as
 * &#10;), every other line break a <br>. A fence still open at the end (the text was cut) closes there.
 * Unwrapped, never longer in UTF-8 than `oneLineHtml(text, '&#10;')` but for the one closing tag: a fence and
 * the line break before it take at least as many bytes as the tag that stands for them. `wrap` wraps
 * a fenced block's long line (wrapLongLines).
 */
export function quotedLinesHtml(text: string, wrap: (line: string) => string = (line) => line): string {
  const out: string[] = []
  let fence = ''
  let lines: string[] = []
  const flush = (): void => {
    if (lines.length) out.push(fence ? `<pre>${lines.join('&#10;')}</pre>` : lines.join('<br>'))
    lines = []
  }
  for (const line of text.split('\n')) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1]
    if (!fence && marker && !(marker[0] === '`' && line.slice(line.indexOf(marker) + marker.length).includes('`'))) {
      flush()
      fence = marker
    } else if (
      fence &&
      marker &&
      marker[0] === fence[0] &&
      marker.length >= fence.length &&
      !line.trim().slice(marker.length)
    ) {
      flush()
      fence = ''
    } else {
      // A fenced block's lines keep their breaks in a <pre>: a long one is wrapped, as a <pre> does not.
      lines.push(fence ? escapeHtml(wrap(line)).replace(/\n/g, '&#10;') : escapeHtml(line))
    }
  }
  // A fence still open (the text was cut inside it) shows what it holds, if only an empty block.
  if (fence && !lines.length) lines.push('')
  flush()
  return out.join('')
}

/** The UTF-8 size of text as it will be written. */
export function byteSize(text: string): number {
  return Buffer.byteLength(text)
}
