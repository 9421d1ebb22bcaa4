// Where the request goes, as a type every stage reads (Route), and the pure reads of it: decided once
// (follow/decide-route.ts), the stages after it take this value and never change it.
import { assertNever } from '../runtime/assert-never.js'
import type { GroupPullRequest, GroupRun } from './group.js'

/**
 * Where the request goes. A message names its job, and `via` says how the job was named, with what
 * that source needs (a new source is one more member: its `via` and its data):
 * - `input`: the jobId input;
 * - `note`: the action's signed note on the agent's pull request the comment is on (its `trigger` names
 *   the way to a new job there instead);
 * - `thread`: the signed note on the issue or pull request whose request (a comment, a label) started
 *   the job, while the job takes messages and its pull request is open (thread/thread-job.ts);
 * - `group`: the group's open docs pull request, found by its label and the signed group marker in the
 *   action's note there (`found`: the pull request, the job and the mark). A create in a run with a
 *   group carries it too: the job's pull request becomes the group's;
 * - `status`: the group's open docs pull request, for a request on the group's code pull request whose
 *   thread keeps no job: the action's signed status comment there names the group (`group`), and `docs`
 *   is its docs pull request as the look-up found it (group/code-pull-group.ts). The request's
 *   instruction goes alone, as on a thread; the group's mark is not the request's to move.
 */
export type Route =
  | { kind: 'create'; group?: GroupRun }
  | { kind: 'follow'; jobId: string }
  | { kind: 'message'; jobId: string; via: 'input' }
  | { kind: 'message'; jobId: string; via: 'note'; trigger: string }
  | { kind: 'message'; jobId: string; via: 'thread'; trigger: string }
  | { kind: 'message'; jobId: string; via: 'group'; group: GroupRun; found: GroupPullRequest }
  | { kind: 'message'; jobId: string; via: 'status'; trigger: string; group: string; docs: GroupPullRequest }

// What the stages after the decision read from a route, each decided over every member by a switch
// the compiler checks (assertNever): a new member, or a new `via`, does not compile until each says.

/** The group a route carries, if any. */
export function routedGroup(route: Route): GroupRun | null {
  switch (route.kind) {
    case 'create':
      return route.group ?? null
    case 'follow':
      return null
    case 'message':
      return route.via === 'group' ? route.group : null
    default:
      return assertNever(route, 'route')
  }
}

/** The job a route names; empty for a new job. */
export function routedJobId(route: Route): string {
  switch (route.kind) {
    case 'create':
      return ''
    case 'follow':
    case 'message':
      return route.jobId
    default:
      return assertNever(route, 'route')
  }
}

/**
 * How the person named the job a message goes to: `input` (the jobId input), `place` (the note on the
 * comment's pull request or thread: the comment's instruction goes alone, and a new job is asked for by
 * a comment), or `group` (the group's docs pull request); null for a route that sends no message.
 */
export function messageSource(route: Route): 'input' | 'place' | 'group' | null {
  switch (route.kind) {
    case 'create':
    case 'follow':
      return null
    case 'message':
      switch (route.via) {
        case 'input':
          return 'input'
        case 'note':
        case 'thread':
        case 'status':
          return 'place'
        case 'group':
          return 'group'
        default:
          return assertNever(route, 'message route')
      }
    default:
      return assertNever(route, 'route')
  }
}

/** The group's mark (the last commit a job of the group was told of), for a route with a group; else empty. */
export function groupMarkOf(route: Route): string {
  return routedGroup(route)?.mark ?? ''
}

/** Whether the route's job is followed even when wait is false: a follow is the run's whole point. */
export function followsWhateverWait(route: Route): boolean {
  switch (route.kind) {
    case 'follow':
      return true
    case 'create':
    case 'message':
      return false
    default:
      return assertNever(route, 'route')
  }
}
