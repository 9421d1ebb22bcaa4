// A run with a group, around its send: a code pull request closed (`pull_request` `closed`) tells the
// group's docs pull request that the code was merged, or closed without merging, and the run creates
// and sends nothing; on an open code pull request, the one comment showing its docs is shown at once
// (the ending stage gives it its final words).
import { codePullRequestOf } from '../comment/group-job.js'
import { routedGroup, type Route } from '../comment/route.js'
import type { Settings } from '../inputs/settings.js'
import {
  groupStatusBefore,
  startGroupStatusComment,
  tellDocsCodeClosed,
  type GroupStatusComment
} from '../report/group-record.js'
import type { Runner } from '../github/runner.js'

/** The sentence that says what the run did, when the route's group's code pull request was closed; else null. */
export async function tellCodeClosed(
  route: Route,
  settings: Settings,
  signal: AbortSignal,
  runner: Runner
): Promise<string | null> {
  const group = routedGroup(route)
  const code = group && codePullRequestOf(runner)
  if (!group || !code?.closed) return null
  return tellDocsCodeClosed(code, group, settings, signal, runner)
}

/** The code pull request's comment for the route's group, shown at once; null when there is none to keep. */
export function showGroupOnCodePullRequest(
  route: Route,
  settings: Settings,
  runner: Runner
): GroupStatusComment | null {
  const group = routedGroup(route)
  const comment = group && !settings.dryRun ? startGroupStatusComment(group, settings, runner) : null
  if (group && comment) comment.show(groupStatusBefore(group))
  return comment
}
