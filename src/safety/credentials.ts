// Credentials never leave with the context. Commit messages, titles, bodies, paths and diffs are
// written by people, and people paste keys: before the section is rendered, every credential in
// that text becomes a marker naming its kind (`[redacted: AWS access key]`), and the lines around it
// still go. The run's own secrets are found in every encoding safety/run-secrets.ts knows; the well-known shapes
// by the patterns below and by secretlint's recommended rules (loaded only when there is text to
// scan: it is a chunk of its own in the bundle). Why both: docs/security.md.
import { blankSecrets } from './run-secrets.js'
import { isSecretFile } from './secret-files.js'

/**
 * The outside text the scan reads and blanks, in place: the context's facts (context/facts.ts) have
 * this shape, and a single text is one line of `summary`. Stated here so that the scan, a layer below
 * the context, does not depend on it.
 */
export interface ScannedText {
  summary: string[]
  writing?: { label: string; text: string }
  commits?: { list: { sha: string; message: string; author: string }[] }
  files?: { list: { path: string; previousPath?: string; patch?: string }[] }
}

/** One credential blanked: its kind and where it was (a commit, a file, the description). */
export interface Blanked {
  kind: string
  where: string
}

/** What the scan did to the facts. */
export interface CredentialScan<Facts extends ScannedText = ScannedText> {
  facts: Facts
  blanked: Blanked[]
  /** Files that hold credentials by convention: named, their diff never sent. */
  secretFiles: string[]
}

const OWN_SECRET = "this run's API key or GitHub token"
const OWN_MARKER = `[redacted: ${OWN_SECRET}]`

// The shapes that secretlint's recommended preset misses or narrows (checked with
// version 12: no Stripe, JWT or svc_ rule; AWS key ids and private key blocks only in full context).
const PATTERNS: { kind: string; pattern: RegExp }[] = [
  {
    kind: 'private key',
    pattern:
      /-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----|$)/g
  },
  { kind: 'AWS access key', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA)[A-Z0-9]{16}\b/g },
  {
    kind: 'AWS secret key',
    pattern: /(?<=aws.{0,20}?(?:secret|key).{0,20}?['"=:\s])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])/gi
  },
  { kind: 'GitHub token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{20,255}|github_pat_[A-Za-z0-9_]{20,255})/g },
  { kind: 'Slack token', pattern: /\bxox[abposer]-[A-Za-z0-9-]{10,250}/g },
  { kind: 'Slack webhook', pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows)\/[A-Za-z0-9/_-]+/g },
  { kind: 'Stripe key', pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,247}/g },
  { kind: 'Stripe webhook secret', pattern: /\bwhsec_[A-Za-z0-9]{20,}/g },
  // A key is svc_ and any printable ASCII (inputs/settings.ts): it runs to a blank, a quote or a bracket.
  { kind: 'docs agent API key', pattern: /\bsvc_[^\s'"`<>()[\]{},;]{8,}/g },
  { kind: 'JSON web token', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  // The password of any URL (a database connection string, basic auth): the scheme, user and host stay.
  {
    kind: 'password in a URL',
    pattern: /(?<=\b[a-z][a-z0-9+.-]{1,30}:\/\/[^\s:/@'"`]{1,200}:)[^\s/@'"`]{1,200}(?=@)/gi
  }
]

// secretlint's message ids, in words; any other rule is named after the rule.
const SECRETLINT_KINDS: Record<string, string> = {
  AWSAccessKeyID: 'AWS access key',
  AWSSecretAccessKey: 'AWS secret key',
  AWSAccountID: 'AWS account id',
  GITHUB_TOKEN: 'GitHub token',
  SLACK_TOKEN: 'Slack token',
  IncomingWebhook: 'Slack webhook',
  NPM_ACCESS_TOKEN: 'npm token',
  PrivateKey: 'private key'
}

/**
 * The facts with every credential in their outside text blanked, the diffs of secret files dropped,
 * and what was done, for the log and the summary (never a value).
 * @param scanner the well-known-shapes scanner; secretlint by default
 */
export async function blankCredentials<Facts extends ScannedText>(
  facts: Facts,
  scanner: Scanner = secretlintScanner
): Promise<CredentialScan<Facts>> {
  const blanked: Blanked[] = []
  // A secret file's diff is dropped here, whatever the renderer would do with it.
  const secret = (facts.files?.list ?? []).filter((file) => isSecretFile(file.path))
  for (const file of secret) file.patch = undefined
  const pieces = piecesOf(facts)
  // The run's own secrets first, so that the scan finds the rest in the text as it will go.
  const texts = pieces.map((piece) => piece.get())
  const own = texts.map((text) => blankSecrets(text, OWN_MARKER))
  // Should the rule set fail to load or run, the patterns above still apply.
  const found = await scanner(own).catch((): Hit[][] => [])
  const kinds: { piece: Piece; kind: string }[] = []
  pieces.forEach((piece, i) => {
    const ownCount = own[i].split(OWN_MARKER).length - texts[i].split(OWN_MARKER).length
    const narrow = patternHits(own[i])
    // A rule that takes the whole line (`aws_secret = '...'`) yields to a pattern that takes the value alone.
    const wide = (found[i] ?? []).filter((hit) => !narrow.some((n) => n.start < hit.end && hit.start < n.end))
    const result = replaceHits(own[i], [...narrow, ...wide])
    for (let n = 0; n < ownCount; n++) kinds.push({ piece, kind: OWN_SECRET })
    for (const kind of result.kinds) kinds.push({ piece, kind })
    if (result.text !== texts[i]) piece.set(result.text)
  })
  for (const { piece, kind } of kinds) blanked.push({ kind, where: piece.where() })
  return { facts, blanked, secretFiles: secret.map((file) => file.path) }
}

/** One text (a comment's instruction) with its credentials blanked, and what was blanked there. */
export async function blankCredentialsInText(
  text: string,
  where: string
): Promise<{ text: string; blanked: Blanked[] }> {
  const facts: ScannedText = { summary: [text] }
  const { blanked } = await blankCredentials(facts)
  return { text: facts.summary[0], blanked: blanked.map((found) => ({ ...found, where })) }
}

/** A credential found: where it is in the text, and its kind. */
export interface Hit {
  start: number
  end: number
  kind: string
}

/** Finds credentials in each text; the hits of text i at index i. */
export type Scanner = (texts: string[]) => Promise<Hit[][]>

interface Piece {
  /** Said after the blanking: a path may itself hold a credential. */
  where: () => string
  get(): string
  set(text: string): void
}

/** Every piece of outside text in the facts, with where it is for the log. */
function piecesOf(facts: ScannedText): Piece[] {
  const pieces: Piece[] = []
  const add = (where: () => string, get: () => string | undefined, set: (text: string) => void): void => {
    if (get()) pieces.push({ where, get: () => get() ?? '', set })
  }
  facts.summary.forEach((_, i) =>
    add(
      () => 'the event',
      () => facts.summary[i],
      (text) => (facts.summary[i] = text)
    )
  )
  const writing = facts.writing
  if (writing) {
    add(
      () => writing.label.toLowerCase(),
      () => writing.text,
      (text) => (writing.text = text)
    )
  }
  for (const commit of facts.commits?.list ?? []) {
    const where = (): string => `commit ${commit.sha.slice(0, 7)}`
    add(
      where,
      () => commit.message,
      (text) => (commit.message = text)
    )
    add(
      where,
      () => commit.author,
      (text) => (commit.author = text)
    )
  }
  for (const file of facts.files?.list ?? []) {
    const where = (): string => `file ${file.path}`
    add(
      where,
      () => file.patch,
      (text) => (file.patch = text)
    )
    add(
      where,
      () => file.previousPath,
      (text) => (file.previousPath = text)
    )
    add(
      where,
      () => file.path,
      (text) => (file.path = text)
    )
  }
  return pieces
}

function patternHits(text: string): Hit[] {
  const hits: Hit[] = []
  for (const { kind, pattern } of PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      if (match[0]) hits.push({ start: match.index, end: match.index + match[0].length, kind })
    }
  }
  return hits
}

/** The text with each hit (overlapping ones merged, the first-starting kind named) made a marker. */
function replaceHits(text: string, hits: Hit[]): { text: string; kinds: string[] } {
  const sorted = hits.filter((hit) => hit.end > hit.start).sort((a, b) => a.start - b.start || b.end - a.end)
  const merged: Hit[] = []
  for (const hit of sorted) {
    const last = merged.at(-1)
    if (last && hit.start < last.end) last.end = Math.max(last.end, hit.end)
    else merged.push({ ...hit })
  }
  let out = text
  for (const hit of [...merged].reverse()) {
    out = `${out.slice(0, hit.start)}[redacted: ${hit.kind}]${out.slice(hit.end)}`
  }
  return { text: out, kinds: merged.map((hit) => hit.kind) }
}

const TOKEN_CHARACTER = /[A-Za-z0-9+/=_-]/

// Between texts in the one document secretlint scans: no credential pattern spans a blank line.
const SEPARATOR = '\n\n\n'

/** secretlint's recommended rules over all the texts at once (one call: its start-up is per call). */
export const secretlintScanner: Scanner = async (texts) => {
  const found: Hit[][] = texts.map(() => [])
  if (texts.length === 0) return found
  const [{ lintSource }, { creator }] = await Promise.all([
    import('@secretlint/core'),
    import('@secretlint/secretlint-rule-preset-recommend')
  ])
  const content = texts.join(SEPARATOR)
  const result = await lintSource({
    source: { content, filePath: '/context.txt', ext: '.txt', contentType: 'text' },
    options: {
      config: { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: creator }] },
      maskSecrets: false
    }
  })
  const starts: number[] = []
  let offset = 0
  for (const text of texts) {
    starts.push(offset)
    offset += text.length + SEPARATOR.length
  }
  for (const message of result.messages) {
    // Its basic-auth rule blanks the whole address; the pattern above blanks the password alone.
    if (message.ruleId.endsWith('-basicauth')) continue
    const [from, to] = message.range
    let i = starts.length - 1
    while (i > 0 && starts[i] > from) i--
    const start = from - starts[i]
    // Some rules report a range shorter than the value (the AWS rule's is 40 characters from the
    // start of the whole assignment): the hit runs on to the end of the token, so no tail is left.
    let end = Math.min(to - starts[i], texts[i].length)
    while (end < texts[i].length && TOKEN_CHARACTER.test(texts[i][end])) end++
    found[i].push({ start, end, kind: kindOf(message.ruleId, message.messageId) })
  }
  return found
}

function kindOf(ruleId: string, messageId: string | undefined): string {
  const known = messageId ? SECRETLINT_KINDS[messageId] : undefined
  if (known) return known
  const rule = ruleId.replace(/^@secretlint\/secretlint-rule-/, '')
  return rule === 'database-connection-string' ? 'database connection string' : `${rule.replace(/-/g, ' ')} credential`
}

/** "3 credentials blanked: 2 GitHub tokens (commit abc1234, file src/a.ts), 1 ..." for the log and summary. */
export function describeBlanked(blanked: readonly Blanked[]): string {
  const byKind = new Map<string, Set<string>>()
  const counts = new Map<string, number>()
  for (const { kind, where } of blanked) {
    byKind.set(kind, (byKind.get(kind) ?? new Set()).add(where))
    counts.set(kind, (counts.get(kind) ?? 0) + 1)
  }
  return [...byKind]
    .map(([kind, wheres]) => {
      const places = [...wheres]
      const shown = places.slice(0, 5).join(', ') + (places.length > 5 ? `, and ${places.length - 5} more` : '')
      return `${counts.get(kind)} × ${kind} (${shown})`
    })
    .join('; ')
}
