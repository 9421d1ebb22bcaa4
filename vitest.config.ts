import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // GitHub's workflow parser imports its JSON schema without `with { type: 'json' }`, which Node
    // refuses: Vite reads the package instead (test/unit/readme.test.ts).
    server: { deps: { inline: ['@actions/workflow-parser'] } },
    // The action-level tests run the bundle the current src/ builds.
    globalSetup: ['test/support/build-action.ts'],
    // .ci/run asks for a JSON report beside the usual one, to count tests across Node versions.
    reporters: process.env.VITEST_JSON_REPORT
      ? ['default', ['json', { outputFile: process.env.VITEST_JSON_REPORT }]]
      : ['default'],
    // The action-level tests mostly wait: on the action's timers and on its child process. Vitest's
    // default (one worker less than the CPUs) ran one file at a time on two cores; twice the CPUs,
    // and at least 4, keeps them busy without starving the timing of the runs under test.
    maxWorkers: Math.max(4, 2 * availableParallelism()),
    // Every test talks to servers on 127.0.0.1 with short intervals; nothing should need longer.
    testTimeout: 15_000,
    // A proxy or debug setting of the machine running the suite must not leak into the runs it starts.
    env: { HTTP_PROXY: '', HTTPS_PROXY: '', http_proxy: '', https_proxy: '', NO_PROXY: '', no_proxy: '' }
  }
})
