// What the entry hands every mode: read once there, so that no mode or stage reads the environment.
import type { Runner } from '../github/runner.js'

export interface ModeStart {
  /** When the step started (Date.now()): the timeout counts from here. */
  startedAt: number
  /** The runner's event, repository and addresses, and the event file, read once (github/runner.ts). */
  runner: Runner
  /** The step's environment, for the two readers that take it whole: the inputs and the proxy variables. */
  env: NodeJS.ProcessEnv
}
