import * as core from '@actions/core'
import { safeLogLine, safeLogLines } from '../safety/neutralise.js'

// Every line the action logs goes through here, so that whatever outside text a message carries
// (a status, an error excerpt, a login), the runner reads it as text and never as a workflow
// command. ESLint forbids calling core's logging functions anywhere else in src/.
export const log = {
  debug: (message: string): void => core.debug(safeLogLines(message)),
  info: (message: string): void => core.info(safeLogLine(message)),
  notice: (message: string): void => core.notice(safeLogLine(message)),
  warning: (message: string): void => core.warning(safeLogLine(message)),
  /** Fails the step with this message (an error annotation). */
  failed: (message: string): void => core.setFailed(safeLogLine(message))
}
