// Encoded text read as it decodes. A token right after an escape (`\n` or `\t` in a JSON string,
// `%3D` or `%20` in URL-encoded text) has a letter or digit before it, which every format's boundary
// refuses; a token with an escape inside it (`%2F` in a URL-encoded key, `\` and a line break in a
// shell line continuation) is not one run of token characters at all. The scan therefore also reads
// each encoded text as it decodes (a view), and what it finds there is blanked in the bytes that are
// sent: each character of a view knows where its escape began in the original text.

/** A text decoded, and for each of its characters (and its end) the offset in the original it came from. */
export interface View {
  text: string
  /** origin[i]: where the escape or character that gave view character i starts in the original; origin[text.length]: the original's length. */
  origin: Int32Array
}

// A backslash escape of JSON, JavaScript, C or a shell: the letter escapes, `\uXXXX`, `\xXX`, a
// quoted character, and a backslash at the end of a line (a line continuation, which joins the lines).
const BACKSLASH = /\\(?:u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[ntrbfv0"'\\/`]|\r?\n)/g
// In a diff each line starts with its prefix: a continuation there is followed by the next line's
// `+` or space, which the joined token does not hold.
const BACKSLASH_IN_PATCH = /\\(?:u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[ntrbfv0"'\\/`]|\r?\n[+ ]?)/g
const PERCENT = /%[0-9a-fA-F]{2}/g

/** A decoded character the scan may read: a control character (but tab and newline) or a non-ASCII byte reads as a space. */
function readable(code: number): string {
  if (code === 0x09 || code === 0x0a) return String.fromCharCode(code)
  if (code < 0x20 || code >= 0x7f) return ' '
  return String.fromCharCode(code)
}

function unescapeBackslash(escape: string): string {
  const c = escape[1]
  switch (c) {
    case 'n':
      return '\n'
    case 't':
      return '\t'
    case 'u':
    case 'x':
      return readable(parseInt(escape.slice(2), 16))
    case '\r':
    case '\n':
      return ''
    case 'r':
    case 'b':
    case 'f':
    case 'v':
    case '0':
      return ' '
    default:
      return c
  }
}

/** The view of `source` with each match of `escapes` replaced by what `decode` makes of it (one character or none). */
function decodeWith(source: View, escapes: RegExp, decode: (escape: string) => string): View | null {
  const text = source.text
  escapes.lastIndex = 0
  const any = escapes.test(text)
  escapes.lastIndex = 0
  if (!any) return null
  const parts: string[] = []
  const origin = new Int32Array(text.length + 1)
  let length = 0
  let at = 0
  const copy = (from: number, to: number): void => {
    parts.push(text.slice(from, to))
    for (let i = from; i < to; i++) origin[length++] = source.origin[i]
  }
  for (const m of text.matchAll(escapes)) {
    copy(at, m.index)
    const decoded = decode(m[0])
    if (decoded) {
      parts.push(decoded)
      origin[length++] = source.origin[m.index]
    }
    at = m.index + m[0].length
  }
  copy(at, text.length)
  origin[length] = source.origin[text.length]
  return { text: parts.join(''), origin: origin.subarray(0, length + 1) }
}

// Where an escape may be: the lines holding one are all a view needs to read.
const ESCAPE_HINT = /\\|%[0-9a-fA-F]{2}/g

/**
 * The lines of the text that hold an escape (and the line after one ending in a continuation), one
 * after the other: most lines of code and prose hold none, and need not be read twice.
 */
function linesWithEscapes(text: string): View | null {
  const parts: string[] = []
  const origins: number[] = []
  ESCAPE_HINT.lastIndex = 0
  for (let m = ESCAPE_HINT.exec(text); m; m = ESCAPE_HINT.exec(text)) {
    const start = text.lastIndexOf('\n', m.index) + 1
    let end = text.indexOf('\n', m.index)
    // A line continuation: the next line belongs to this one.
    while (end >= 0 && (text[end - 1] === '\\' || (text[end - 1] === '\r' && text[end - 2] === '\\'))) {
      const next = text.indexOf('\n', end + 1)
      end = next
    }
    if (end < 0) end = text.length
    parts.push(text.slice(start, end))
    origins.push(start)
    ESCAPE_HINT.lastIndex = end + 1
    if (end >= text.length) break
  }
  if (parts.length === 0) return null
  const joined = parts.join('\n')
  const origin = new Int32Array(joined.length + 1)
  let at = 0
  parts.forEach((part, i) => {
    for (let k = 0; k < part.length; k++) origin[at + k] = origins[i] + k
    at += part.length
    // The line's end: its newline in the text (or the text's end).
    origin[at] = origins[i] + part.length
    at++
  })
  return { text: joined, origin }
}

/**
 * The lines holding escapes, read with their backslash escapes decoded, with their %XX escapes
 * decoded, and with both (a URL-encoded value in a JSON string): only the views that differ from the
 * text. Each is linear in the text.
 */
export function decodedViews(text: string): View[] {
  const lines = linesWithEscapes(text)
  if (!lines) return []
  const patch = text.startsWith('@@ ')
  const unescaped = decodeWith(lines, patch ? BACKSLASH_IN_PATCH : BACKSLASH, unescapeBackslash)
  const percent = (view: View): View | null =>
    decodeWith(view, PERCENT, (escape) => readable(parseInt(escape.slice(1), 16)))
  const views = [unescaped, percent(lines), unescaped && percent(unescaped)]
  return views.filter((view): view is View => view !== null)
}
