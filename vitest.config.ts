import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

const cpus = availableParallelism()

export default defineConfig({
  test: {
    // The action-level tests run the bundle the current src/ builds.
    globalSetup: ['test/support/build-action.ts'],
    // .ci/run asks for a JSON report beside the usual one, to count tests across Node versions.
    reporters: process.env.VITEST_JSON_REPORT
      ? ['default', ['json', { outputFile: process.env.VITEST_JSON_REPORT }]]
      : ['default'],
    // Every test talks to servers on 127.0.0.1 with short intervals; nothing should need longer.
    testTimeout: 15_000,
    // A proxy or debug setting of the machine running the suite must not leak into the runs it starts.
    env: { HTTP_PROXY: '', HTTPS_PROXY: '', http_proxy: '', https_proxy: '', NO_PROXY: '', no_proxy: '' },
    // Two groups, one after the other, so that no file's timing depends on what another file costs
    // the CPU. The unit tests work the CPU: one worker per core. The action-level tests then run
    // alone, one file per core: each run of the bundle costs about 0.3 s of CPU to start, and a file
    // runs up to 5 of its tests side by side (most of each is waiting), so more files at once only
    // stretch every run's start-up (a 2-core machine ran some 20 at once, each taking seconds to
    // start) and finish no sooner.
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
          maxWorkers: Math.max(2, cpus),
          sequence: { groupOrder: 1 }
        }
      }
    ]
  }
})
