import { expect } from 'vitest'
import { withoutMaskCommands, type ActionRun } from './run-action.js'

/** What every run must show, whatever went wrong: sentences, never a stack trace, and never the key. */
export function expectCleanOutput(run: ActionRun, apiKey: string): void {
  expect(run.stdout + run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/)
  expect(withoutMaskCommands(run.all)).not.toContain(apiKey)
}
