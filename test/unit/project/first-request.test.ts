// What a run's first request waits for (docs/benchmark.md): every module src/index.ts imports
// statically is in dist/index.js, compiled and run before the create. Code only some runs need, or
// that a run reaches after its create, is imported with import() where the run reaches it; one static
// import of it from a stage before the create would bring it back, unseen but by the benchmark.
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..', '..')

/** What the create never waits for, with the runs that load it. */
const LOADED_WHEN_REACHED: [RegExp, string][] = [
  [/^src\/modes\/report-pending\.ts$/, 'a reporting run'],
  [/^src\/hand-over\/report-/, 'a reporting run'],
  [/^src\/thread\/(trigger|label-request|thread-job)\.ts$/, 'a run a comment or a label started'],
  [/^src\/thread\/comment-reply\.ts$/, 'a run a comment or a label started'],
  // The group's inputs are read by every run, and its stage is called by every run (it does nothing without one).
  [/^src\/group\/(?!group-settings\.ts$|group-stage\.ts$)/, 'a run with a group'],
  [/^src\/context\/change-context\.ts$/, 'a run with a context'],
  [/^src\/safety\/credentials\.ts$/, 'the scan of what is sent, its own chunk'],
  [/^src\/service\/follow-job\.ts$/, 'the following, after the create'],
  [/^src\/ending\/(summary|summary-html)\.ts$/, 'the ending, after the create'],
  [/^src\/thread\/agent-note\.ts$/, 'the ending, after the create'],
  [/^src\/hand-over\/(job-index|index-(issue|records|body|site)|commit-status)\.ts$/, 'the ending, after the create'],
  [/^src\/github\/live-comment\.ts$/, 'the ending, after the create'],
  [/^src\/hand-over\/(hand-over|settle-records)\.ts$/, 'the ending, after the create']
]

interface Cruised {
  modules: { source: string; dependencies: { resolved: string; dynamic: boolean; dependencyTypes: string[] }[] }[]
}

/** The modules src/index.ts reaches by static imports that stay in the JavaScript (no type imports). */
function staticallyReached(): Set<string> {
  const json = execFileSync(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs'),
      'src',
      '--config',
      '.dependency-cruiser.cjs',
      '--output-type',
      'json'
    ],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }
  )
  const { modules } = JSON.parse(json) as Cruised
  const edges = new Map(
    modules.map(({ source, dependencies }) => [
      source,
      dependencies
        .filter(({ dynamic, dependencyTypes }) => !dynamic && !dependencyTypes.some((type) => type.startsWith('type-')))
        .map(({ resolved }) => resolved)
    ])
  )
  const reached = new Set(['src/index.ts'])
  for (const module of reached) for (const next of edges.get(module) ?? []) reached.add(next)
  return reached
}

describe('what the first request waits for', () => {
  it('is none of the code only some runs need, nor of what a run does after its create', () => {
    const reached = staticallyReached()
    expect(reached.has('src/follow/send-and-follow.ts')).toBe(true)
    const early = [...reached].flatMap((module) =>
      LOADED_WHEN_REACHED.filter(([path]) => path.test(module)).map(([, when]) => `${module} (${when})`)
    )
    expect(early).toEqual([])
  }, 60_000)
})
