// Many runs of the bundled action against a stand-in that fails at random (seeded, so a failure
// can be replayed): whatever happens, a run makes at most one job, a run that succeeds names the
// one job it made, every failure is one of the sentences the action means to say, and the key is
// never printed, not even when error pages echo it or step debug logging is on.
import { describe, expect, it } from 'vitest'
import { runAction, withoutMaskCommands, type ActionRun } from '../support/run-action.js'
import { startStandInService, type Fault } from '../support/stand-in-service.js'

const RUNS = 40
const CONCURRENCY = 4
const SEED = 20261121
const FAULT_RATE = 0.25

/** mulberry32: a small seeded PRNG, enough to make a soak run repeatable. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Error answers that echo the key back, as a misbehaving proxy or service might. */
function echoingFaults(key: string): Fault[] {
  const echo = `Authorization: Bearer ${key}`
  return [
    {
      method: 'GET',
      status: 502,
      body: `<html><body><h1>Bad gateway</h1><pre>${echo}</pre></body></html>`,
      contentType: 'text/html'
    },
    {
      method: 'GET',
      status: 200,
      body: `<html><body>Sign in to the proxy. ${echo}</body></html>`,
      contentType: 'text/html'
    },
    { method: 'GET', status: 503, body: { error: `upstream rejected ${echo}` }, headers: { 'retry-after': '0' } },
    {
      method: 'POST',
      status: 429,
      body: `Too many requests for ${echo}`,
      contentType: 'text/plain',
      headers: { 'retry-after': '0' }
    },
    { method: 'POST', status: 400, body: { error: `bad request: ${echo}` } },
    {
      method: 'POST',
      status: 503,
      body: `<html><body>${echo}</body></html>`,
      contentType: 'text/html',
      afterCreate: true
    },
    { method: 'GET', status: 307, headers: { location: `http://127.0.0.1:9/login/${key}` } }
  ]
}

/** The sentences a failed step may end with here, by kind; anything else is a bug. */
const FAILURE_KINDS: [string, RegExp][] = [
  ['create may or may not have made a job', /may or may not have been created/],
  ['rate limited', /rate limit was reached \(HTTP 429\)/],
  ['create rejected (400)', /rejected the job request \(HTTP 400/],
  ['redirect not followed', /answered with a redirect \(HTTP 307 to .*\*\*\*\), which is not followed/],
  ['not a job record, gave up', /not a job record.*giving up on job/],
  ['job not found', /was not found in project/],
  ['timed out', /did not reach a final status within the timeout/]
]

interface Outcome {
  run: ActionRun
  created: number
  jobIds: string[]
  faults: { method: string }[]
  echoed: boolean
  debug: boolean
  key: string
}

async function soakOnce(i: number, pick: () => number): Promise<Outcome> {
  const key = `svc_soak_${i}_${Math.floor(pick() * 2 ** 32).toString(36)}`
  const echoed = i % 3 === 0
  const debug = i % 2 === 1
  const echoing = echoingFaults(key)
  const faults = echoed ? [echoing[Math.floor(pick() * echoing.length)]] : []
  const service = await startStandInService({
    apiKey: key,
    plan: { activeMs: 100 + Math.floor(pick() * 200) },
    faults,
    randomFaults: { rate: FAULT_RATE, random: mulberry32(SEED + i) }
  })
  try {
    const run = await runAction({
      inputs: {
        projectId: 'docs',
        prompt: `Soak run ${i}`,
        apiKey: key,
        baseUrl: service.url,
        pollInterval: '1s',
        timeout: '3s'
      },
      env: debug ? { RUNNER_DEBUG: '1' } : {}
    })
    return {
      run,
      created: service.created,
      jobIds: [...service.jobs.keys()],
      faults: [...service.injected],
      echoed,
      debug,
      key
    }
  } finally {
    await service.close()
  }
}

describe('soak: many runs against random faults', () => {
  it(
    `${RUNS} runs: at most one job each, the right job named, known failures only, the key never printed`,
    { timeout: 60_000 },
    async () => {
      const pick = mulberry32(SEED)
      const outcomes: Outcome[] = []
      let next = 0
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < RUNS) {
            const i = next++
            outcomes[i] = await soakOnce(i, pick)
          }
        })
      )

      const problems: string[] = []
      const failures = new Map<string, number>()
      outcomes.forEach((o, i) => {
        const { run } = o
        const problem = (what: string): number => problems.push(`run ${i}: ${what}\n${run.stdout}${run.stderr}`)
        if (o.created > 1) problem(`${o.created} jobs were made`)
        if (run.outputs.jobId !== undefined && !o.jobIds.includes(run.outputs.jobId))
          problem(`outputs.jobId ${run.outputs.jobId} names no job`)
        if (run.code === 0) {
          if (o.created !== 1) problem('succeeded without exactly one job')
          if (run.outputs.jobId !== o.jobIds[0] || run.outputs.status !== 'completed')
            problem('succeeded without naming its completed job')
        } else {
          const error = run.stdout.split('\n').find((line) => line.startsWith('::error::')) ?? '(no ::error:: line)'
          const kind = FAILURE_KINDS.find(([, pattern]) => pattern.test(error))?.[0]
          if (!kind) problem(`failed with an unexpected message: ${error}`)
          failures.set(kind ?? 'unexpected', (failures.get(kind ?? 'unexpected') ?? 0) + 1)
          // A job the action knows of is named, so that the user can find it again.
          if (
            o.created === 1 &&
            kind !== 'create may or may not have made a job' &&
            run.outputs.jobId !== o.jobIds[0]
          ) {
            problem('failed after making a job without naming it')
          }
        }
        const printed = withoutMaskCommands(run.all)
        if (printed.includes(o.key) || printed.includes(o.key.slice('svc_'.length))) problem('the key was printed')
        if (/\n\s+at .+:\d+:\d+/.test(run.stdout + run.stderr)) problem('a stack trace was printed')
        if (run.stderr !== '') problem('something was written to stderr')
        if (o.debug && !run.stdout.includes('::debug::')) problem('no debug output with RUNNER_DEBUG=1')
      })

      const faults = outcomes.flatMap((o) => o.faults)
      const succeeded = outcomes.filter((o) => o.run.code === 0).length
      const blanked = outcomes.filter((o) => o.run.all.includes('Bearer ***')).length
      console.log(
        `soak: ${RUNS} runs (seed ${SEED}, fault rate ${FAULT_RATE}), ${succeeded} succeeded; ` +
          `${faults.length} faults injected (${faults.filter((f) => f.method === 'POST').length} on creates, ` +
          `${faults.filter((f) => f.method === 'GET').length} on reads); ` +
          `${outcomes.filter((o) => o.echoed).length} runs with an error page echoing the key (${blanked} printed it blanked); ` +
          `${outcomes.filter((o) => o.debug).length} with RUNNER_DEBUG=1; ` +
          `failures: ${[...failures].map(([kind, n]) => `${kind} ${n}`).join(', ') || 'none'}`
      )

      expect(problems).toEqual([])
      // The soak did soak: faults of both kinds were met, most runs still got through, and an
      // echoed key reached the log only blanked out.
      expect(faults.filter((f) => f.method === 'GET').length).toBeGreaterThan(RUNS / 4)
      expect(faults.filter((f) => f.method === 'POST').length).toBeGreaterThan(0)
      expect(succeeded).toBeGreaterThan(RUNS / 2)
      expect(blanked).toBeGreaterThan(0)
    }
  )
})
