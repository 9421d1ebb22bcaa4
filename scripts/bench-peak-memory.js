// @ts-check
// Loaded into a run by `npm run bench` (NODE_OPTIONS=--import=<this file>), never by the action
// itself. When the process exits it writes to BENCH_REPORT_FILE:
// - maxRssBytes: the process's peak resident memory, as the kernel counts it (getrusage's
//   ru_maxrss), over the whole run;
// - builtins: the Node built-in modules the process loaded;
// - bundle: for a bundle that bench.js instrumented, which of its modules ran.
import { writeFileSync } from 'node:fs'

process.on('exit', () => {
  const file = process.env.BENCH_REPORT_FILE
  if (!file) return
  const moduleLoadList =
    /** @type {{ moduleLoadList?: string[] }} */ (/** @type {unknown} */ (process)).moduleLoadList ?? []
  const builtins = moduleLoadList
    .filter((name) => name.startsWith('NativeModule ') && !name.includes(' internal/'))
    .map((name) => name.slice('NativeModule '.length))
  /** @type {{ modules: Record<string, Function>, initial: number, run: Array<string | number> } | undefined} */
  const bundle = /** @type {any} */ (globalThis).__benchBundle
  const size = (/** @type {string | number} */ id) => String(bundle?.modules[id] ?? '').length
  writeFileSync(
    file,
    JSON.stringify({
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
      builtins,
      bundle: bundle && {
        defined: Object.keys(bundle.modules).length,
        initial: bundle.initial,
        definedBytes: Object.keys(bundle.modules).reduce((sum, id) => sum + size(id), 0),
        run: bundle.run.length,
        runBytes: bundle.run.reduce((/** @type {number} */ sum, id) => sum + size(id), 0)
      }
    })
  )
})
