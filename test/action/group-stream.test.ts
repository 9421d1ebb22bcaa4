// A group's stream under random faults, counted per commit: pushes of new commits, re-runs of earlier
// pushes, scheduled runs, docs pull requests merged or closed between runs, jobs that stay busy past a
// run's timeout (waited-out runs), and two workflows of the group queued under their shared
// concurrency key (docs-agent-<group>: GitHub runs them one after the other). GitHub's reads fail now
// and then (502s), and so do the service's answers (5xx and resets on reads, 429s on writes). The draws
// are seeded, so a failure replays. At the end, with the faults off, one last push: every commit then
// reached exactly one create or message the service took, and the group never had two open docs pull
// requests at once.
import { afterAll, describe, expect, it } from 'vitest'
import { removeEventFiles } from '../support/stand-in-github.js'
import type { Fault } from '../support/stand-in-service.js'
import {
  LABEL,
  SOURCE,
  commit,
  groupWorld,
  pullOf,
  pushOf,
  runGroup,
  scheduled,
  type World
} from '../support/group-world.js'

afterAll(removeEventFiles)

/** A seeded source of numbers in [0, 1) (mulberry32): the same seed, the same stream. */
function seeded(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const SERVICE_READ_FAULTS: Fault[] = [
  { status: 500, body: { error: 'Internal error' } },
  { status: 502, body: '<html><body>Bad gateway</body></html>', contentType: 'text/html' },
  { drop: 'reset' }
]
// Only answers that say the service took nothing: a write is never sent twice otherwise, so a lost
// answer would leave the count unknowable (the action says so, and that is tested elsewhere).
const SERVICE_WRITE_FAULTS: Fault[] = [
  { status: 429, body: 'Too Many Requests', contentType: 'text/plain', headers: { 'retry-after': '0' } }
]

/** How many prompts the service took (jobs made, messages delivered) tell of the commit `name`. */
function deliveries(w: World, name: string): number {
  let n = 0
  for (const job of w.service.jobs.values()) {
    if (job.prompt.includes(`Add the ${name} flag`)) n++
    for (const message of job.messages) if (message.prompt.includes(`Add the ${name} flag`)) n++
  }
  return n
}

/** The group's docs pull requests open now: those of the jobs that opened one, not merged or closed. */
function openDocsPulls(w: World, closed: Set<number>): number[] {
  const open = new Set<number>()
  for (const job of w.service.jobs.values()) {
    const number = Number(/\/pull\/(\d+)$/.exec(job.plan.prLink ?? '')?.[1] ?? 0)
    if (number && !closed.has(number)) open.add(number)
  }
  return [...open]
}

describe('a group’s stream under random faults', () => {
  it.for(process.env.GROUP_STREAM_SEEDS ? process.env.GROUP_STREAM_SEEDS.split(',').map(Number) : [1, 2])(
    'seed %i: every commit reaches exactly one create or message, and never two docs pull requests are open',
    { timeout: 240_000 },
    async (seed, test) => {
      const draw = seeded(seed)
      const serviceDraw = seeded(seed * 7919)
      const githubDraw = seeded(seed * 104_729)
      const faults = { on: true }
      // A message keeps its job's pull request: the group's job is the newest one made.
      const made = { count: () => 0 }
      const w = await groupWorld(
        test,
        {
          plan: (n) => ({ activeReads: 1, prLink: pullOf(n), repository: SOURCE }),
          // A message keeps its job busy for a while now and then: the next run waits, or waits it out.
          messagePlan: () => ({
            activeReads: faults.on && draw() < 0.3 ? 8 : 1,
            prLink: pullOf(made.count()),
            repository: SOURCE
          }),
          randomFaults: {
            rate: 0.15,
            random: () => (faults.on ? serviceDraw() : 1),
            readFaults: SERVICE_READ_FAULTS,
            writeFaults: SERVICE_WRITE_FAULTS
          }
        },
        {
          randomFaults: {
            rate: 0.1,
            random: () => (faults.on ? githubDraw() : 1),
            routes: ['issue-list', 'comment-list', 'compare', 'pull', 'comment-get']
          }
        }
      )
      made.count = () => w.service.created
      const pushed: string[] = []
      const pushes: object[] = []
      const closed = new Set<number>()
      const inputs = { timeout: '5s', pollInterval: '1s' }
      // Each run's log, for the message of a failed expectation: the seed replays the stream.
      const logs: string[] = []
      const run = async (event: 'push' | 'schedule', payload?: object) => {
        const ran = event === 'push' ? await runGroup(w, 'push', payload!, inputs) : await scheduled(w, inputs)
        logs.push(`--- ${event} (exit ${ran.code})\n${ran.stdout.replace(/^::(debug|add-mask)::.*\n/gm, '')}`)
        return ran
      }
      let next = 0
      const newCommits = (n: number) =>
        Array.from({ length: n }, () => {
          const name = `s${seed}-${next++}`
          pushed.push(name)
          return commit(name)
        })

      for (let step = 0; step < 12; step++) {
        const roll = draw()
        if (step === 0 || roll < 0.45) {
          const event = pushOf(w, newCommits(draw() < 0.3 ? 2 : 1))
          pushes.push(event)
          await run('push', event)
        } else if (roll < 0.6) {
          // "Re-run all jobs" of an earlier push.
          await run('push', pushes[Math.floor(draw() * pushes.length)])
        } else if (roll < 0.7) {
          // Commits that land with no run of the group, then the weekly audit of the same group.
          w.history.push(...newCommits(1))
          await run('schedule')
        } else if (roll < 0.85) {
          // The docs pull request is merged (or closed) between runs.
          for (const number of openDocsPulls(w, closed)) {
            w.github.setPullState(number, draw() < 0.7 ? 'merged' : 'closed')
            closed.add(number)
          }
        } else {
          // Two workflows of the group (a push and the audit) queued under the shared key: one after the other.
          const event = pushOf(w, newCommits(1))
          pushes.push(event)
          await run('push', event)
          await run('schedule')
        }
        expect(openDocsPulls(w, closed).length, `after step ${step}:\n${logs.join('\n')}`).toBeLessThanOrEqual(1)
      }

      // The faults stop; the jobs finish; one last push sends whatever is left.
      faults.on = false
      for (const job of w.service.jobs.values()) {
        const last = job.messages.at(-1)
        if (last) last.plan = { ...last.plan, activeReads: 0 }
      }
      const last = await run('push', pushOf(w, newCommits(1)))
      expect(last.code).toBe(0)
      expect(openDocsPulls(w, closed).length).toBeLessThanOrEqual(1)

      const counts = Object.fromEntries(pushed.map((name) => [name, deliveries(w, name)]))
      expect(counts, logs.join('\n')).toEqual(Object.fromEntries(pushed.map((name) => [name, 1])))
      // The faults were there: GitHub's reads and the service's answers failed during the stream.
      expect(w.github.randomlyFaulted.length).toBeGreaterThan(0)
      expect(w.service.injected.length).toBeGreaterThan(0)
      expect(w.github.labelsOf(30 + w.service.created)).toEqual([LABEL])
    }
  )
})
