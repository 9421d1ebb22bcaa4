// @ts-check
// Measures the credential scan's false positives: runs the action's own scan (src/safety/
// credentials.ts, bundled with ncc into node_modules/.cache) over this repository's history as a
// diff, `git log -p` (or over the revision range given, e.g. `npm run scan:history -- HEAD~10..`),
// and prints what it blanked, by kind, and each line that now holds a marker.
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'

const out = join('node_modules', '.cache', 'credential-scan')
const ncc = createRequire(import.meta.url).resolve('@vercel/ncc/dist/ncc/cli.js')
execFileSync(process.execPath, [ncc, 'build', 'scripts/credential-scan-entry.ts', '-o', out, '--quiet'], {
  stdio: 'inherit'
})
const history = execFileSync('git', ['log', '-p', '--no-color', ...process.argv.slice(2)], {
  encoding: 'utf8',
  maxBuffer: 512 * 1024 * 1024
})
const commits = history.match(/^commit [0-9a-f]{40}/gm)?.length ?? 0
console.log(`git log -p ${process.argv.slice(2).join(' ')}: ${commits} commits.`)
execFileSync(process.execPath, [join(out, 'index.js')], { input: history, stdio: ['pipe', 'inherit', 'inherit'] })
