// @ts-check
// `npm run soak -- --runs 1000`: the soak test's runs at a larger scale, outside CI. Runs the
// bundled action (dist/ by default) N times, 4 at a time, each against a stand-in service that
// fails at random on creates and reads, and prints what happened: jobs made per run, how the runs
// ended, where the key appeared, requests that came without it, wall time. The runs and the rules
// they are held to are test/support/soak.js, shared with test/action/soak.test.ts.
//
// `npm run soak -- --hand-over --requests 200`: the hand-over soak instead (test/support/hand-over-soak.js,
// shared with test/action/hand-over-soak.test.ts): one stand-in GitHub that keeps its state and one
// stand-in service, many `wait: false` requests, reporting runs (two at once, cancelled), 429s,
// faults on both sides, follow-ups and withdrawals, each request and job judged by its rules.
//
// Exits 1 when a run broke a rule (above all: a run that made 2 or more jobs, or printed the key),
// 0 otherwise. Node's built-ins only.
import { relative } from 'node:path'
import { parseArgs } from 'node:util'
import { ACTION_ENTRY } from '../test/support/run-action.js'
import { describeSoak, soak, SOAK_CONCURRENCY, SOAK_FAULT_RATE, SOAK_SEED } from '../test/support/soak.js'
import { describeHandOverSoak, handOverSoak, HAND_OVER_SEED } from '../test/support/hand-over-soak.js'

const HELP = `Usage: node scripts/soak.js [options]
  --runs N         runs of the action (default 100)
  --concurrency N  runs at a time (default ${SOAK_CONCURRENCY})
  --seed N         run i draws its faults from seed + i (default ${SOAK_SEED})
  --rate R         the share of requests that get a random fault, 0 to 1 (default ${SOAK_FAULT_RATE})
  --entry PATH     the bundle to run (default dist/index.js)
  --hand-over      the hand-over soak: one GitHub kept across runs, reporting runs, withdrawals
  --requests N     with --hand-over: requests to play (default 120); --seed (default ${HAND_OVER_SEED}),
                   --concurrency (default 3) and --entry apply too; --seeds N plays N seeds from --seed`

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '100' },
    concurrency: { type: 'string', default: String(SOAK_CONCURRENCY) },
    seed: { type: 'string', default: String(SOAK_SEED) },
    rate: { type: 'string', default: String(SOAK_FAULT_RATE) },
    entry: { type: 'string', default: ACTION_ENTRY },
    'hand-over': { type: 'boolean', default: false },
    requests: { type: 'string', default: '120' },
    seeds: { type: 'string', default: '1' },
    help: { type: 'boolean', short: 'h', default: false }
  }
})
if (args.help) {
  console.log(HELP)
  process.exit(0)
}

/** @param {string} name @param {string} text @param {(n: number) => boolean} valid @param {string} expected */
function number(name, text, valid, expected) {
  const n = Number(text)
  if (text.trim() === '' || !valid(n)) {
    console.error(`--${name} must be ${expected}, not '${text}'.\n\n${HELP}`)
    process.exit(2)
  }
  return n
}
const positive = (/** @type {number} */ n) => Number.isInteger(n) && n > 0

if (args['hand-over']) {
  const requests = number('requests', args.requests, positive, 'a whole number above 0')
  const seeds = number('seeds', args.seeds, positive, 'a whole number above 0')
  const first = process.argv.includes('--seed')
    ? number('seed', args.seed, Number.isInteger, 'a whole number')
    : HAND_OVER_SEED
  const concurrency = process.argv.includes('--concurrency')
    ? number('concurrency', args.concurrency, positive, 'a whole number above 0')
    : 3
  let broken = 0
  for (let seed = first; seed < first + seeds; seed++) {
    console.error(`Hand-over soak: ${requests} requests of ${relative(process.cwd(), args.entry)}, seed ${seed}...`)
    const report = await handOverSoak({
      requests,
      seed,
      concurrency,
      entry: args.entry,
      onProgress: (line) => console.error(`  ${line}`)
    })
    console.log(describeHandOverSoak(report).join('\n'))
    for (const b of report.breaks) console.log(`  ${b.rule}: ${b.what}`)
    broken += report.breaks.length
  }
  process.exit(broken ? 1 : 0)
}
const runs = number('runs', args.runs, positive, 'a whole number above 0')
const concurrency = number('concurrency', args.concurrency, positive, 'a whole number above 0')
const seed = number('seed', args.seed, Number.isInteger, 'a whole number')
const faultRate = number('rate', args.rate, (n) => n >= 0 && n <= 1, 'a number from 0 to 1')

console.error(`Soak: ${runs} runs of ${relative(process.cwd(), args.entry)}, ${concurrency} at a time...`)
const step = Math.max(1, Math.round(runs / 10))
const report = await soak({
  runs,
  concurrency,
  seed,
  faultRate,
  entry: args.entry,
  onRun: (finished) => {
    if (finished % step === 0 && finished < runs) console.error(`  ${finished} of ${runs}`)
  }
})

console.log(describeSoak(report).join('\n'))
if (report.problems.length) {
  const shown = report.problems.slice(0, 5)
  console.log(`\nThe first ${shown.length} of ${report.problems.length} rules broken, with their run's output:\n`)
  console.log(shown.join('\n\n'))
  process.exitCode = 1
}
