import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { defineConfig, type Plugin } from 'vitest/config'

const cpus = availableParallelism()

// @actions/workflow-parser's files name source maps whose sources the package does not ship. Vite
// reads the map of every file it transforms (the parser is inlined, below), and printed "Sourcemap
// ... points to missing source files" for each, 67 lines in every `npm test`: its files are loaded
// without their map comment, so there is no map to read (a stack in them points at dist/, which is there).
const withoutParserSourceMaps: Plugin = {
  name: 'workflow-parser-without-source-maps',
  enforce: 'pre',
  load(id) {
    if (!/[\\/]node_modules[\\/]@actions[\\/]workflow-parser[\\/].*\.js$/.test(id)) return null
    return readFileSync(id.replace(/\?.*$/, ''), 'utf8').replace(/^\/\/# sourceMappingURL=.*$/gm, '')
  }
}

export default defineConfig({
  plugins: [withoutParserSourceMaps],
  test: {
    // GitHub's workflow parser imports its JSON schema without `with { type: 'json' }`, which Node
    // refuses: Vite reads the package instead (test/unit/project/readme.test.ts).
    server: { deps: { inline: ['@actions/workflow-parser'] } },
    // The action-level tests run the bundle the current src/ builds.
    globalSetup: ['test/support/build-action.ts'],
    // A passing test prints nothing: its console output, and what it writes to stdout and stderr
    // itself, are shown only when it fails (test/support/hold-output.ts).
    silent: 'passed-only',
    setupFiles: ['test/support/hold-output.ts'],
    // .ci/run asks for a JSON report beside the usual one, to count tests across Node versions.
    reporters: process.env.VITEST_JSON_REPORT
      ? ['default', ['json', { outputFile: process.env.VITEST_JSON_REPORT }]]
      : ['default'],
    // Every test talks to servers on 127.0.0.1 with short intervals: a few seconds on an idle machine,
    // with room here for one many times slower (a shared 2-core machine took over 15 s for some).
    testTimeout: 30_000,
    // A proxy or debug setting of the machine running the suite must not leak into the runs it starts.
    env: { HTTP_PROXY: '', HTTPS_PROXY: '', http_proxy: '', https_proxy: '', NO_PROXY: '', no_proxy: '' },
    // Two groups, one after the other, so that the unit tests' CPU work does not weigh on the timing
    // of the action-level runs. The unit tests work the CPU: one worker per core. The action-level
    // tests then run alone; they mostly wait (on the action's timers and on its child process), so
    // twice the CPUs, and at least 4: with one file per core the suite took twice as long. A busy
    // machine stretches a run's start-up most, which no bound counts (see test/support/step-time.ts).
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          maxWorkers: Math.max(2, cpus),
          sequence: { groupOrder: 0 }
        }
      },
      {
        extends: true,
        test: {
          name: 'action',
          include: ['test/action/**/*.test.ts'],
          maxWorkers: Math.max(4, 2 * cpus),
          sequence: { groupOrder: 1 }
        }
      }
    ]
  }
})
