// Whether a value assigned to a secret-sounding name is itself a secret: random enough, and not a
// placeholder, a reference to a variable, or ordinary words. The measures are deliberately simple
// (Shannon entropy, character classes, word shapes) so that a reader can predict them.

/** Shannon entropy of the text, in bits per character. */
export function entropy(text: string): number {
  if (!text) return 0
  const counts = new Map<string, number>()
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1)
  let bits = 0
  const n = text.length
  for (const count of counts.values()) {
    const p = count / n
    bits -= p * Math.log2(p)
  }
  return bits
}

// A reference to a value kept elsewhere: `${{ secrets.X }}`, `${X}`, `$X`, `%X%`, `{{ .Values.x }}`,
// `process.env.X`, `os.environ[...]`, `ENV['X']`, `getenv(...)`, `<your key>`, `[PASSWORD]`.
const REFERENCE =
  /^(?:\$\{?\{?|\$\(|%[\w.]+%|\{\{|<[^>]*>?$|\[[^\]]*\]?$|#\{)|\$\{|\{\{|\bprocess\.env\b|\bos\.environ\b|\bgetenv\b|\bENV\[|\bsecrets\.|\benv\.[A-Z_]|\bvars\.|\bSystem\.getenv\b|\bconfig\.get\b|\bEnvironment\.GetEnvironmentVariable\b/

/** Whether the value names a variable, a secret store or a template slot rather than holding a value. */
export function isReference(value: string): boolean {
  return REFERENCE.test(value)
}

// Placeholders people write where a credential goes.
const PLACEHOLDER =
  /x{4,}|<[^>]*>|…|\{[^}]*\}|\*{3,}|\.{3}|•{3,}|#{4,}|_{4,}|0{8,}|(?:^|[^a-z])(?:your|my)[_-]?(?:api|access|secret|private|auth|app|own)?[_-]?(?:key|token|secret|password|pass|pwd|credential)|placeholder|changeme|change[_-]me|change[_-]?it|replace[_-]?(?:me|this|with)|insert[_-]?(?:key|token|here)|(?:key|token|secret|password)[_-]?here|^(?:example|sample|dummy|fake|test|testing|mock|null|nil|none|undefined|true|false|empty|secret|password|passwd|token|redacted|hidden|masked|todo|tbd|n\/a)$|^(?:example|sample|dummy|fake|mock)[_-]|[_-](?:example|placeholder|dummy)(?:[_-]|$)|redacted|^(.)\1+$/i

/** Whether the value is a stand-in for a credential (`xxxx`, `<your-token>`, `changeme`, `****`). */
export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value) || isSequence(value)
}

/** `12345678`, `abcdefgh`, `qwertyuiop`: a run anyone types, not a secret. */
function isSequence(value: string): boolean {
  const lower = value.toLowerCase()
  return (
    '0123456789012345678901234567890'.includes(lower) ||
    'abcdefghijklmnopqrstuvwxyz'.includes(lower) ||
    'qwertyuiopasdfghjklzxcvbnm'.includes(lower)
  )
}

const VOWELS = /[aeiouy]/gi
const TWO_LETTER_WORDS = new Set(
  'on or to of in by id is at as if up ok no do go me my we us it an be he so un re db io ui os js ts'.split(' ')
)

/** Whether a run of letters reads like a word (or a camelCase/acronym compound of words). */
function wordLike(run: string): boolean {
  // Split camelCase and acronyms: `XMLHttpRequest` -> XML, Http, Request.
  const parts = run.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+/g) ?? []
  let short = 0
  let odd = 0
  for (const part of parts) {
    if (part.length <= 2) {
      // Two-letter words (`On`, `Or`, `To`, `Id`) are words; other short pieces are the mark of random case.
      if (!TWO_LETTER_WORDS.has(part.toLowerCase())) short++
      continue
    }
    if (part === part.toUpperCase()) {
      // An acronym: short, or it is not a word.
      if (part.length > 6) return false
      continue
    }
    // Abbreviations and extensions (`txt`, `https`, `Http`) need no vowel, but a compound of
    // several (`PSfdUvdqaPpcMym`: Sfd, Ppc) is random mixed case.
    if (part.length <= 5) {
      if (!/[aeiouy]/i.test(part) && ++odd > 1) return false
      continue
    }
    const vowels = (part.match(VOWELS) ?? []).length / part.length
    // A long run of lower-case letters is words run together (`mypersonalaccesstoken`) when it reads so.
    if (part.length > 18) {
      if (part.length > 32 || vowels < 0.25 || vowels > 0.65 || /[^aeiouy]{5,}/i.test(part)) return false
      continue
    }
    // One vowel is enough for a short word (`Scripts`, `strengths`); a longer one reads as words.
    if (vowels === 0 || (part.length > 10 && vowels < 0.15) || vowels > 0.8) return false
    if (/[^aeiouy]{6,}/i.test(part)) return false
  }
  // Random mixed case splits into many one- and two-letter pieces.
  return short <= 1 || short * 3 <= parts.length
}

/** `abc123`, `xyz456abc789`: letters and digits that are both runs anyone types. */
function typedRuns(run: string): boolean {
  const pairs = run.toLowerCase().match(/[a-z]+|\d+/g) ?? []
  return pairs.length <= 6 && pairs.every((pair) => pair.length >= 2 && isSequence(pair))
}

/** Whether one run of letters and digits is ordinary (a word, a short number, `v2`, `utf8`, `abc123`). */
function ordinaryRun(run: string): boolean {
  if (/^\d+$/.test(run)) return run.length <= 8 || isSequence(run)
  // Words with numbers in them (`v2`, `utf8`, `computeSha256Hmac`, `ServerHttp2Session`, `10px`): few
  // changes between letters and digits, each number short, each run of letters words. A random token
  // changes between them every few characters.
  const chunks = run.match(/[A-Za-z]+|\d+/g) ?? []
  if (chunks.length <= 4) {
    const ordinary = chunks.every((chunk, i) =>
      /\d/.test(chunk)
        ? chunk.length <= 4 || isSequence(chunk)
        : // A letter or two between digits (`a1b2`) is not a word; `v2`, `x64`, `utf8` are.
          (chunk.length >= 3 || TWO_LETTER_WORDS.has(chunk.toLowerCase()) || (i === 0 && chunk.length === 1)) &&
          wordLike(chunk)
    )
    if (ordinary) return true
  }
  return typedRuns(run)
}

/**
 * The share of the value's letters and digits that are in runs that do not read as ordinary: 0 for
 * words, identifiers, paths, URLs, versions and dates; near 1 for a token generated at random.
 */
export function randomShare(value: string): number {
  const runs = value.match(/[A-Za-z0-9]+/g)
  if (!runs) return 0
  let total = 0
  let random = 0
  for (const run of runs) {
    total += run.length
    if (!ordinaryRun(run)) random += run.length
  }
  return random / total
}

/** Whether the value is ordinary words, an identifier, a path, a URL, a version or a date. */
export function isOrdinaryWords(value: string): boolean {
  return randomShare(value) === 0
}

/** Character classes present: lower, upper, digit, other. */
function classes(value: string): number {
  return (
    (/[a-z]/.test(value) ? 1 : 0) +
    (/[A-Z]/.test(value) ? 1 : 0) +
    (/\d/.test(value) ? 1 : 0) +
    (/[^A-Za-z0-9]/.test(value) ? 1 : 0)
  )
}

/**
 * Whether a value assigned to a secret-sounding name is random enough to be the secret itself.
 * @param password the name says password: a shorter value with mixed characters counts
 */
export function looksSecret(value: string, password = false): boolean {
  if (value.length < (password ? 6 : 8) || value.length > 1000) return false
  if (/\s/.test(value) && !password) return false
  if (isReference(value) || isPlaceholder(value)) return false
  const share = randomShare(value)
  const bits = entropy(value)
  // A password of letters, digits and symbols mixed is one, whatever its runs look like.
  if (password) {
    if (/\s/.test(value)) return false
    // A word, or words and a run anyone types (`changeit`, `key_1234`, `admin123`), a path or a URL of
    // words: an example, or not a password at all.
    const runs = value.match(/[A-Za-z]+|\d+/g) ?? []
    const typed = runs.every((run) => (/^\d+$/.test(run) ? run.length >= 3 && isSequence(run) : wordLike(run)))
    if (typed && !/[^A-Za-z0-9_.\-/:]/.test(value)) return false
    // Any other literal a password's name is given is the password (`hunter2`, `Summer2024`, `k3j9x2m1`).
    return bits >= 2 && (classes(value) >= 2 || share > 0)
  }
  if (share === 0) return false
  // Mostly words with a random tail (`npm-foobar-d5ea0750`, a cache key) is not a secret.
  if (share < 0.6) return false
  if (/^\d+$/.test(value)) return value.length >= 12 && bits >= 2.8
  if (/^[a-f0-9]+$/i.test(value)) return value.length >= 16 && bits >= 3
  if (value.length >= 16) return bits >= 3.2
  return bits >= 2.9 && classes(value) >= 2
}
