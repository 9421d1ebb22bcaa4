// Credentials never leave. Commit messages, titles, bodies, paths and diffs are written by people,
// and people paste keys: before the section is rendered, every credential in that text becomes a
// marker naming its kind (`[redacted: AWS access key]`), and the lines around it still go. The run's
// own secrets are found in every encoding safety/run-secrets.ts knows; every other credential by the
// scan of safety/credentials/ (a table of formats, a keyword-and-entropy rule, invisible characters
// normalised first, a value blanked once blanked wherever it recurs). The finished prompt goes
// through the same scan once more (blankPrompt), so that what is scanned is what is sent. Why this
// and not secretlint, measured: docs/security.md.
import type { Blanked } from './credentials/blanked.js'
import { blankTexts, normalise } from './credentials/scan.js'
import { blankSecrets } from './run-secrets.js'
import { isSecretChange } from './secret-files.js'

export { describeBlanked, type Blanked } from './credentials/blanked.js'

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

/** What the scan did to the facts. */
export interface CredentialScan<Facts extends ScannedText = ScannedText> {
  facts: Facts
  blanked: Blanked[]
  /** Files that hold credentials by convention: named, their diff never sent. */
  secretFiles: string[]
}

// Every value blanked so far in this run (a process is one run): a value blanked in the context is
// blanked where it recurs in the prompt, the instruction or the hunk too, whichever is scanned first.
const blankedInThisRun = new Map<string, string>()

const OWN_SECRET = "this run's API key or GitHub token"
const OWN_MARKER = `[redacted: ${OWN_SECRET}]`

/**
 * The facts with every credential in their outside text blanked, the diffs of secret files (by any
 * name they had) dropped, and what was done, for the log and the summary (never a value).
 */
export async function blankCredentials<Facts extends ScannedText>(facts: Facts): Promise<CredentialScan<Facts>> {
  // A secret file's diff is dropped here, whatever the renderer would do with it: a rename counts by
  // its old name too (`.env` renamed to `config/app.ini`).
  const secret = (facts.files?.list ?? []).filter((file) => isSecretChange(file))
  for (const file of secret) file.patch = undefined
  const pieces = piecesOf(facts)
  const { texts, kinds } = blankAll(boundedTexts(pieces.map((piece) => piece.get())))
  pieces.forEach((piece, i) => {
    if (texts[i] !== piece.get()) piece.set(texts[i])
  })
  // Said after the blanking: a path may itself hold a credential.
  const blanked: Blanked[] = []
  pieces.forEach((piece, i) => {
    for (const kind of kinds[i]) blanked.push({ kind, where: piece.where() })
  })
  return { facts, blanked, secretFiles: secret.map((file) => file.path) }
}

// The scan's work is bounded per piece and per run, so that no outside text can hold the step past
// its timeout (the scan is synchronous: the deadline cannot stop it midway). A piece's characters past
// the most a context section may hold (contextLimit's largest value) can never be sent, since the
// renderer sends whole diffs only and cuts the rest to the limit; past 8 times that in all, a piece is
// not read, and is replaced by the sentence below. The scan is linear, about 0.2 s per MiB at worst
// (docs/security.md), so a run's scan takes at most a few seconds whatever it is given.
export const MOST_SCANNED_PER_PIECE = 1_000_000
export const MOST_SCANNED_PER_RUN = 8 * MOST_SCANNED_PER_PIECE
export const NOT_SCANNED = '[left out: more outside text than the credential scan reads in one run]'

/** The texts cut to what the scan reads: each to MOST_SCANNED_PER_PIECE, all to MOST_SCANNED_PER_RUN. */
function boundedTexts(texts: readonly string[]): string[] {
  let left = MOST_SCANNED_PER_RUN
  return texts.map((text) => {
    // Cut at a line's end, so that no token is cut in two (its half might not be recognised).
    const cut =
      text.length > MOST_SCANNED_PER_PIECE
        ? text.slice(0, Math.max(0, text.lastIndexOf('\n', MOST_SCANNED_PER_PIECE)))
        : text
    if (cut.length > left) return NOT_SCANNED
    left -= cut.length
    return cut
  })
}

/** One text (a comment's instruction) with its credentials blanked, and what was blanked there. */
export function blankCredentialsInText(text: string, where: string): { text: string; blanked: Blanked[] } {
  const { texts, kinds } = blankAll([text])
  return { text: texts[0], blanked: kinds[0].map((kind) => ({ kind, where })) }
}

/**
 * The final pass: the texts that make up what is sent (the whole prompt as it goes first, then its
 * parts as the summary shows them), after every normalisation and cut, scanned once more. What it
 * blanks in the first is what the earlier passes could not see (promptFile's text, the prompt input,
 * a credential split by an invisible character); their markers are left as they are.
 */
export function blankPrompt(texts: readonly string[], where = 'the prompt'): { texts: string[]; blanked: Blanked[] } {
  const result = blankAll(texts)
  return { texts: result.texts, blanked: result.kinds[0].map((kind) => ({ kind, where })) }
}

/** The run's own secrets first, then every other credential; each text's kinds, in order. */
function blankAll(texts: readonly string[]): { texts: string[]; kinds: string[][] } {
  // Normalised first, so that an invisible character cannot hide the run's own key either.
  const normal = texts.map(normalise)
  const own = normal.map((text) => blankSecrets(text, OWN_MARKER))
  const scanned = blankTexts(own, blankedInThisRun)
  return {
    texts: scanned.map((result) => result.text),
    kinds: normal.map((text, i) => {
      const ownCount = own[i].split(OWN_MARKER).length - text.split(OWN_MARKER).length
      return [...Array<string>(ownCount).fill(OWN_SECRET), ...scanned[i].kinds]
    })
  }
}

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
