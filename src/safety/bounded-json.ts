// JSON from outside (GitHub's API, the service, a proxy in between), parsed only when its shape is
// cheap. JSON.parse builds every array and object it meets: 16 MB of `[` nested 8 million deep, or
// of 5 million empty arrays, took a second or two and most of a gigabyte each, on the thread the
// step's deadline and the runner's cancel wait on. One linear pass over the text counts depth and
// containers first, and refuses what no honest answer needs, in words for the log.

/** How much shape an answer may have: far beyond any answer the action reads, far below any harm. */
export interface JsonBounds {
  /** The deepest nesting of arrays and objects. */
  maxDepth: number
  /** Arrays and objects in all. */
  maxContainers: number
}

/** The value, or why the text was not parsed ("not JSON", "nested more than 32 deep"...). */
export type BoundedJson = { value: unknown } | { refused: string }

/** The refusal of text that is not JSON at all (a page, a truncated answer). */
export const NOT_JSON = 'not JSON'

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_ARRAY = 0x5b
const OPEN_OBJECT = 0x7b
const CLOSE_ARRAY = 0x5d
const CLOSE_OBJECT = 0x7d

export function parseBoundedJson(text: string, bounds: JsonBounds): BoundedJson {
  const refused = shapeBeyond(text, bounds)
  if (refused) return { refused }
  try {
    return { value: JSON.parse(text) }
  } catch {
    return { refused: NOT_JSON }
  }
}

/** What in the text's shape is beyond `bounds`, or null. Brackets inside strings do not count. */
function shapeBeyond(text: string, { maxDepth, maxContainers }: JsonBounds): string | null {
  let depth = 0
  let containers = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) {
      // To the closing quote; an escaped character (\" among them) is stepped over.
      for (i++; i < text.length && text.charCodeAt(i) !== QUOTE; i++) {
        if (text.charCodeAt(i) === BACKSLASH) i++
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > maxDepth) return `nested more than ${maxDepth} deep`
      if (++containers > maxContainers) return `more than ${maxContainers.toLocaleString('en-US')} arrays and objects`
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--
    }
  }
  return null
}
