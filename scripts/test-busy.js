// @ts-check
// npm run test:busy: the suite while two busy processes hold both cores of a 2-core machine (one per
// core elsewhere: BUSY_PROCESSES=N sets how many). A test that passes only on an idle machine fails
// here. The busy processes are ended by their process ids when the suite ends, fails or is
// interrupted, and the script exits with the suite's status. Node's built-ins only.
// Extra arguments go to vitest: `npm run test:busy -- test/action/resilience.test.ts`.
import { spawn } from 'node:child_process'
import { availableParallelism, loadavg } from 'node:os'

const count = Number(process.env.BUSY_PROCESSES) || Math.max(2, availableParallelism())

/** A process that does nothing but hold one core, as `yes > /dev/null` does. */
const busy = Array.from({ length: count }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }))
const pids = busy.map((child) => child.pid)
console.log(`test:busy: ${count} busy processes hold the cores (pids ${pids.join(', ')}); load average ${load()}`)

let ended = false
function endBusy() {
  if (ended) return
  ended = true
  for (const child of busy) {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(child.pid, 'SIGKILL')
      } catch {
        // Already gone.
      }
    }
  }
}
process.on('exit', endBusy)

const started = Date.now()
const vitest = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)], {
  stdio: 'inherit'
})

for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
  process.on(signal, () => {
    vitest.kill(signal)
    endBusy()
  })
}

vitest.on('error', (error) => {
  endBusy()
  console.error(`test:busy: could not start vitest: ${error.message}`)
  process.exit(1)
})

vitest.on('close', (code, signal) => {
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  console.log(`test:busy: the suite took ${seconds} s beside ${count} busy processes; load average ${load()}`)
  endBusy()
  process.exit(code ?? (signal ? 1 : 0))
})

function load() {
  return loadavg()
    .map((n) => n.toFixed(2))
    .join(', ')
}
