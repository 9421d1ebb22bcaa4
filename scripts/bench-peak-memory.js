// @ts-check
// Loaded into a run by `npm run bench` (NODE_OPTIONS=--import=<this file>), never by the action
// itself. When the process exits it writes to BENCH_REPORT_FILE:
// - maxRssBytes: the process's peak resident memory, as the kernel counts it (getrusage's
//   ru_maxrss), over the whole run;
// - builtins: the Node built-in modules the process loaded;
// - bundle: for a bundle that bench.js instrumented, how many of the entry's modules ran, and how many
//   modules the chunks it loaded added.
import { writeFileSync } from 'node:fs'

process.on('exit', () => {
  const file = process.env.BENCH_REPORT_FILE
  if (!file) return
  const moduleLoadList =
    /** @type {{ moduleLoadList?: string[] }} */ (/** @type {unknown} */ (process)).moduleLoadList ?? []
  const builtins = moduleLoadList
    .filter((name) => name.startsWith('NativeModule ') && !name.includes(' internal/'))
    .map((name) => name.slice('NativeModule '.length))
  /** @type {{ modules: Record<string, Function>, initial: string[], run: Array<string | number> } | undefined} */
  const bundle = /** @type {any} */ (globalThis).__benchBundle
  const size = (/** @type {string | number} */ id) => String(bundle?.modules[id] ?? '').length
  // The entry's own modules: a chunk's modules join the same table when it loads.
  const initial = new Set(bundle?.initial ?? [])
  const ranInEntry = [...new Set((bundle?.run ?? []).map(String))].filter((id) => initial.has(id))
  writeFileSync(
    file,
    JSON.stringify({
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
      builtins,
      bundle: bundle && {
        defined: Object.keys(bundle.modules).length,
        initial: initial.size,
        initialBytes: [...initial].reduce((sum, id) => sum + size(id), 0),
        run: ranInEntry.length,
        runBytes: ranInEntry.reduce((sum, id) => sum + size(id), 0)
      }
    })
  )
})
