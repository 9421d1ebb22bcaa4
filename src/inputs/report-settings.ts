// The inputs of a reporting run (`report: pending`): it creates nothing, so it needs only the
// service's access, the token for GitHub, and the trigger its notes name.
import * as core from '@actions/core'
import type { Runner } from '../github/runner.js'
import { Input } from '../kernel/action-names.js'
import { readNoteTrigger } from './comment-settings.js'
import { describeMisnamed, misnamedInputs } from './misnamed-inputs.js'
import { readServiceAccess } from './settings.js'
import type { ReportSettings } from '../kernel/settings.js'
import { ActionError } from '../runtime/errors.js'
import { log } from '../runtime/log.js'
import { neutralise } from '../safety/neutralise.js'

/** The one value of the report input: report the jobs runs handed over. */
export const REPORT_PENDING = 'pending'

/** Whether this run reports pending jobs instead of making one; any other value than pending or empty is refused. */
export function isReportingRun(): boolean {
  const value = core.getInput(Input.report)
  if (value === '') return false
  if (value === REPORT_PENDING) return true
  throw new ActionError(
    `Input ${Input.report} is '${neutralise(value, 60)}', which this action does not know: its one value is ` +
      `${REPORT_PENDING} (tell the endings of the jobs runs handed over). Leave it out to create or follow a job.`
  )
}

/** Reads and checks a reporting run's inputs. */
export function readReportSettings(runner: Runner, env: NodeJS.ProcessEnv): ReportSettings {
  const misnamed = misnamedInputs(env)
  for (const input of misnamed) log.warning(describeMisnamed(input))
  const githubToken = core.getInput(Input.githubToken)
  if (!githubToken) {
    throw new ActionError(
      `Input ${Input.githubToken} is empty: a reporting run reads the jobs' records on GitHub and tells their endings ` +
        `there. Leave it at its default, \${{ github.token }}.`
    )
  }
  return { ...readServiceAccess(runner, misnamed), githubToken, noteTrigger: readNoteTrigger() }
}
