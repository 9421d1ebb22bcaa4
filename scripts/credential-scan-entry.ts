// The entry scripts/scan-history.js bundles: the action's own credential scan (the one the context
// goes through before it is sent), run over the text on standard input, for measuring what it
// blanks on a real history. Not part of the action.
import { readFileSync } from 'node:fs'
import { blankCredentialsInText } from '../src/safety/credentials.js'

const started = performance.now()
// Markers the history already holds (this project's docs and tests name them) are set apart first,
// so that the lines listed below are those the scan itself changed.
const input = readFileSync(0, 'utf8').replaceAll('[redacted: ', '[marker in the source: ')
const { text, blanked } = await blankCredentialsInText(input, 'the history')
const seconds = ((performance.now() - started) / 1000).toFixed(2)
const kinds = new Map<string, number>()
for (const { kind } of blanked) kinds.set(kind, (kinds.get(kind) ?? 0) + 1)
console.log(
  `${input.length.toLocaleString('en-US')} characters scanned in ${seconds} s; ${blanked.length} values blanked.`
)
for (const [kind, count] of [...kinds].sort((a, b) => b[1] - a[1])) console.log(`  ${count} × ${kind}`)
// Each line that now holds a marker, so a reader can judge every hit (the values themselves are gone).
const lines = text.split('\n').filter((line) => line.includes('[redacted: '))
console.log(`\nThe ${lines.length} lines with a marker:`)
for (const line of lines) console.log(`  ${line.slice(0, 160)}`)
