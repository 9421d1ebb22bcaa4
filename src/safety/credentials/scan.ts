// The one-pass blanker: normalises the text first (so that an invisible character inside a token
// cannot split it: the scan sees exactly the text that is sent), finds every credential by the
// table's self-naming formats (rules.ts), by the names values are assigned to (assignments.ts) and by
// a private key's body and END line whose BEGIN line was cut off, then blanks every place a found
// value recurs, and writes the output once: the cost grows with the text, not with text × hits.
import { assignmentHits, type Hit } from './assignments.js'
import { decodedViews } from './decoded.js'
import { entropy, isPlaceholder } from './entropy.js'
import { isDocumentedValue } from './public-values.js'
import { TOKEN_RULES, type TokenRule } from './rules.js'

export type { Hit } from './assignments.js'

// Control characters (but tab and newline), DEL and C1 controls go wherever they are. Format
// characters (soft hyphen, zero-width and bidirectional marks, word joiners, invisible operators,
// variation selectors, the byte order mark) go where they sit between two characters a token is made of:
// there each can split a token for a pattern while a reader (or a renderer that drops it later) sees
// it whole; elsewhere (a zero-width joiner inside an emoji) they are text and stay.
// (Built from code point ranges: a literal class of them reads as nothing, or as the wrong thing.)
const CONTROL_RANGES: [number, number][] = [
  [0x00, 0x08],
  [0x0b, 0x0c],
  [0x0e, 0x1f],
  [0x7f, 0x9f]
]
const FORMAT_RANGES: [number, number][] = [
  [0xad, 0xad],
  [0x34f, 0x34f],
  [0x61c, 0x61c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180e],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff9, 0xfffb]
]
const hex = (n: number): string => `\\u${n.toString(16).padStart(4, '0')}`
const classOf = (ranges: [number, number][]): string => `[${ranges.map(([a, b]) => `${hex(a)}-${hex(b)}`).join('')}]`
// A carriage return stays before a line feed (a CRLF file is sent as it is), and goes elsewhere.
const CONTROLS = new RegExp(`${classOf(CONTROL_RANGES)}|\\r(?!\\n)`, 'g')
const TOKEN_CHAR = '[A-Za-z0-9_+/=.~:@%-]'
const FORMAT_INSIDE = new RegExp(`(?<=${TOKEN_CHAR})${classOf(FORMAT_RANGES)}+(?=${TOKEN_CHAR})`, 'g')

/** The text as it will be sent: invisible characters that could split a token removed. */
export function normalise(text: string): string {
  return text.replace(CONTROLS, '').replace(FORMAT_INSIDE, '')
}

interface Compiled {
  rule: TokenRule
  regex: RegExp
}

const COMPILED: Compiled[] = TOKEN_RULES.map((rule) => ({
  rule,
  regex: new RegExp(rule.pattern, `g${rule.ignoreCase ? 'i' : ''}${rule.group ? 'd' : ''}`)
}))

// Every keyword of every rule in one expression: one pass over the text says which rules to try.
const KEYWORDS = [...new Set(TOKEN_RULES.flatMap((rule) => rule.keywords))]
const KEYWORD_PASS = new RegExp(
  KEYWORDS.sort((a, b) => b.length - a.length)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&'))
    .join('|'),
  'gi'
)

/** The rules worth trying on this text: those with a keyword in it, and those with none. */
function rulesFor(text: string): Compiled[] {
  const present = new Set<string>()
  // Keywords overlap (`s.` in `ks.atlasv1.`): after each, the search goes on from the next character.
  KEYWORD_PASS.lastIndex = 0
  for (let m = KEYWORD_PASS.exec(text); m; m = KEYWORD_PASS.exec(text)) {
    present.add(m[0].toLowerCase())
    KEYWORD_PASS.lastIndex = m.index + 1
  }
  return COMPILED.filter(({ rule }) => rule.keywords.length === 0 || rule.keywords.some((word) => present.has(word)))
}

/** Hits of the self-naming formats. */
function tokenHits(text: string): Hit[] {
  const hits: Hit[] = []
  for (const { rule, regex } of rulesFor(text)) {
    regex.lastIndex = 0
    for (const m of text.matchAll(regex)) {
      const value = rule.group ? m[rule.group] : m[0]
      if (!value) continue
      if (rule.entropy !== undefined && entropy(value) < rule.entropy) continue
      if (rule.verify && !rule.verify(value)) continue
      // A documentation example (`ghp_PersonalAccessToken0000000000`, `sk_live_xxxxxxxx`) is not a credential.
      if (value.length <= 300 && isPlaceholder(value)) continue
      const start = rule.group ? (m.indices?.[rule.group]?.[0] ?? m.index) : m.index
      hits.push({ start, end: start + value.length, kind: rule.kind })
    }
  }
  return hits
}

// A private key whose BEGIN line is not in the text (a review hunk cut to its last lines): its END
// line, and the key's body above it back to the first line that is not base64 (or a PEM header).
const KEY_END = /-----END[A-Z0-9 _-]{0,40} PRIVATE KEY(?: BLOCK)?-----/g
const KEY_BODY_LINE =
  /^[+\- ]?[ \t]*["']?(?:[A-Za-z0-9+/=]{16,}|Proc-Type:.*|DEK-Info:.*|Comment:.*|)["',]?(?:\\n)?[ \t]*$/

function keyTailHits(text: string): Hit[] {
  const hits: Hit[] = []
  // The end of the END line before: the walk back for it read the lines above it, and an END line
  // is not a body line, so no walk goes past it (many END markers cost the body once, not once each).
  let floor = 0
  for (const m of text.matchAll(KEY_END)) {
    // The line's start, looked for back to the END before at most: on the same line as that END,
    // the key's hit starts where that END's ends (its walk read the lines above).
    const newline = floor > 0 ? text.slice(floor, m.index).lastIndexOf('\n') : -1
    let start = floor === 0 ? text.lastIndexOf('\n', m.index - 1) + 1 : newline >= 0 ? floor + newline + 1 : floor
    // The END line's own text before the marker (a JSON string's `\n`-joined body) goes too.
    if (floor === 0 || newline >= 0)
      while (start > 0) {
        const prevEnd = start - 1
        const prevStart = text.lastIndexOf('\n', prevEnd - 1) + 1
        const line = text.slice(prevStart, prevEnd)
        if (!KEY_BODY_LINE.test(line) || line.includes('-----BEGIN')) break
        start = prevStart
      }
    floor = m.index + m[0].length
    hits.push({ start, end: floor, kind: 'private key' })
  }
  return hits
}

/** Overlapping and touching hits merged; the first-starting kind names the merged hit. */
function merge(hits: Hit[]): Hit[] {
  const sorted = hits.filter((hit) => hit.end > hit.start).sort((a, b) => a.start - b.start || b.end - a.end)
  const merged: Hit[] = []
  for (const hit of sorted) {
    const last = merged.at(-1)
    if (last && hit.start < last.end) last.end = Math.max(last.end, hit.end)
    else merged.push({ ...hit })
  }
  return merged
}

/**
 * Every place a blanked value recurs (a value blanked once is blanked everywhere), found in one pass
 * over the text (or two), so the cost does not grow with text × values.
 */
function recurrences(text: string, values: Map<string, string>): Hit[] {
  const hits: Hit[] = []
  if (values.size === 0) return hits
  // Most values are one run of token characters: each run of the text is looked up whole.
  const odd = new Map<string, string>()
  for (const [value, kind] of values) if (!/^[A-Za-z0-9+/=_.~-]+$/.test(value)) odd.set(value, kind)
  for (const m of text.matchAll(TOKEN_RUN)) {
    const kind = values.get(m[0])
    if (kind) hits.push({ start: m.index, end: m.index + m[0].length, kind })
  }
  if (odd.size > 0) hits.push(...anywhere(text, odd))
  return hits
}

// A run of token characters: where a blanked value may recur whole.
const TOKEN_RUN = /[A-Za-z0-9+/=_.~-]{8,}/g

/** Every place any of the values occurs, in one pass over the text (Aho-Corasick). */
function anywhere(text: string, values: Map<string, string>): Hit[] {
  const hits: Hit[] = []
  // The trie of the values: goto[node] maps a character code to the next node.
  const goto: Map<number, number>[] = [new Map()]
  const fail: number[] = [0]
  const out: (string | undefined)[] = [undefined]
  const outLink: number[] = [0]
  for (const value of values.keys()) {
    let node = 0
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i)
      let next = goto[node].get(c)
      if (next === undefined) {
        next = goto.length
        goto.push(new Map())
        fail.push(0)
        out.push(undefined)
        outLink.push(0)
        goto[node].set(c, next)
      }
      node = next
    }
    out[node] = value
  }
  // Failure links, breadth first; outLink points to the nearest node on the failure chain that ends a value.
  const queue: number[] = [...goto[0].values()]
  for (let q = 0; q < queue.length; q++) {
    const node = queue[q]
    for (const [c, next] of goto[node]) {
      let f = fail[node]
      while (f > 0 && !goto[f].has(c)) f = fail[f]
      const target = goto[f].get(c)
      fail[next] = target !== undefined && target !== next ? target : 0
      outLink[next] = out[fail[next]] !== undefined ? fail[next] : outLink[fail[next]]
      queue.push(next)
    }
  }
  let node = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    while (node > 0 && !goto[node].has(c)) node = fail[node]
    node = goto[node].get(c) ?? 0
    for (let n = out[node] !== undefined ? node : outLink[node]; n > 0; n = outLink[n]) {
      const value = out[n] as string
      hits.push({ start: i + 1 - value.length, end: i + 1, kind: values.get(value) as string })
    }
  }
  return hits
}

/** What scanning found and made of one text. */
export interface Scanned {
  /** The text normalised, every credential a marker `[redacted: <kind>]`. */
  text: string
  /** The kind of each marker written, in order. */
  kinds: string[]
}

/** The hits of one (normalised) text as it is, and as it reads decoded (decoded.ts), merged. */
export function findCredentials(text: string): Hit[] {
  const hits = hitsIn(text)
  for (const view of decodedViews(text)) {
    // A hit in a view blanks the original's bytes it came from, escapes and all.
    for (const hit of hitsIn(view.text)) hits.push({ ...hit, start: view.origin[hit.start], end: view.origin[hit.end] })
  }
  return merge(hits)
}

function hitsIn(text: string): Hit[] {
  const hits = [...tokenHits(text), ...assignmentHits(text), ...keyTailHits(text)]
  // A vendor's published example (`AKIAIOSFODNN7EXAMPLE`) is not a credential, whichever rule found it.
  return hits.filter((hit) => hit.end - hit.start > 300 || !isDocumentedValue(text.slice(hit.start, hit.end)))
}

/**
 * Each text normalised, with every credential blanked, and every place any text's blanked value (or
 * one in `memory`) recurs in any of the texts blanked as well.
 */
export function blankTexts(
  texts: readonly string[],
  /** Values blanked by earlier calls (of one run): searched for here too, and this call's added to it. */
  memory?: Map<string, string>
): Scanned[] {
  const normal = texts.map(normalise)
  const found = normal.map(findCredentials)
  const values = memory ?? new Map<string, string>()
  normal.forEach((text, i) => {
    for (const hit of found[i]) {
      const value = text.slice(hit.start, hit.end)
      // Only values long enough not to recur by chance (a marker's own text never does).
      if (value.length >= 8 && !value.includes('\n')) values.set(value, hit.kind)
    }
  })
  return normal.map((text, i) => write(text, merge([...found[i], ...recurrences(text, values)])))
}

/** One text normalised and blanked. */
export function blankText(text: string): Scanned {
  return blankTexts([text])[0]
}

/** The output, written once: the pieces between hits and a marker for each hit. */
function write(text: string, hits: Hit[]): Scanned {
  if (hits.length === 0) return { text, kinds: [] }
  const parts: string[] = []
  let at = 0
  for (const hit of hits) {
    parts.push(text.slice(at, hit.start), `[redacted: ${hit.kind}]`)
    at = hit.end
  }
  parts.push(text.slice(at))
  return { text: parts.join(''), kinds: hits.map((hit) => hit.kind) }
}
