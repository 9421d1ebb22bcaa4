// @ts-check
// Text written to make the credential scan slow, for `npm run bench:credentials` and the scan's
// timing test: each shape once cost the scan its length squared (four times the text, about fifteen
// times the time), and must now cost it in proportion, as ordinary text does. Each maker returns
// exactly `size` characters.

/**
 * @param {string} unit
 * @param {number} size
 */
const repeat = (unit, size) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size)

/** @type {Record<string, (size: number) => string>} */
export const HOSTILE_SHAPES = {
  // Many lines with a secret-sounding word and no assignment: each line's search ran to the next assignment.
  'lines with a secret word, no assignment': (size) => repeat('+the token is kept in the vault\n', size),
  // One line of assignments: each search resumed inside a value that ran to the line's end.
  '`key a=a=a=…` on one line': (size) => `key ${repeat('a=', size - 4)}`,
  // A key's base64 body, then END markers: each marker walked back over every line of the body.
  'base64 lines, then many END markers': (size) =>
    repeat('QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODkw\n', Math.floor(size / 2)) +
    // (Put together here, so that no scanner of this repository takes the source for a key.)
    repeat(['-----END', 'PRIVATE KEY-----'].join(' '), size - Math.floor(size / 2)),
  // PuTTY key headers with no MAC: each header's search ran to the end of the text.
  'PuTTY headers, no MAC': (size) => repeat('PuTTY-User-Key-File-3: ', size),
  // Webhook addresses run together: each address's search ran to the end of the run.
  'Teams workflow addresses run together': (size) => repeat('https://x.logic.azure.com', size),
  // `-eyJ` runs: a JSON web token's search started at each.
  '`-eyJ` repeated': (size) => repeat('-eyJ', size),
  // Escapes everywhere: the decoded views' own cost.
  'escapes everywhere': (size) => repeat('{"a": "x\\ny\\tz\\u0041%41%20b\\\\"}\n', size)
}

/**
 * Ordinary text of `size` characters: code, configuration and prose, with escapes, as a diff holds them.
 * @param {number} size
 */
export function ordinaryText(size) {
  return repeat(
    [
      '+import { readFile } from "node:fs/promises"',
      '+export async function loadSettings(path) {',
      '+  const text = await readFile(path, "utf8") // the file as written',
      '+  return JSON.parse(text.replace(/\\r\\n/g, "\\n"))',
      '+}',
      ' The settings are read once, at start-up, and kept for the run.',
      '+  timeout-minutes: 10',
      '+  uses: actions/checkout@v4',
      '+const url = `https://example.com/search?q=${encodeURIComponent(term)}&page=2` // 100%20done',
      ''
    ].join('\n'),
    size
  )
}
