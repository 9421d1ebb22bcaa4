// A group's code pull request closed (`pull_request` `closed`): the group's docs pull request is told
// that the code was merged, or closed without merging, and the run creates and sends nothing.
import { codePullRequestOf } from '../comment/group-job.js'
import { routedGroup, type Route } from '../comment/route.js'
import type { Settings } from '../inputs/settings.js'
import { tellDocsCodeClosed } from '../report/group-record.js'

/** The sentence that says what the run did, when the route's group's code pull request was closed; else null. */
export async function tellCodeClosed(
  route: Route,
  settings: Settings,
  signal: AbortSignal,
  env: NodeJS.ProcessEnv = process.env
): Promise<string | null> {
  const group = routedGroup(route)
  const code = group && codePullRequestOf(env)
  if (!group || !code?.closed) return null
  return tellDocsCodeClosed(code, group, settings, signal, env)
}
