// Where the request goes, decided once: a new job, an existing job to follow, or a follow-up message
// to a job, and how that job was named. The stages after it take this value and never change it.
import type { Settings } from '../kernel/settings.js'
import { assertNever } from '../runtime/assert-never.js'
import type { Runner } from '../github/runner.js'
import type { GroupPullRequest, GroupRun } from '../group/group-lookup.js'
import type { ReadJob, ThreadJob } from '../thread/thread-job.js'
import { log } from '../runtime/log.js'
import type { TriggeringComment } from '../thread/trigger.js'
import type { GitHubSession } from '../github/session.js'

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

/** What deciding reads with: the runner, the run's bound, and the service's read of a job (null in a dry run). */
export interface RouteReads {
  runner: Runner
  /** The run's GitHub session: a thread's note and a group's pull request are read through it. */
  github: GitHubSession
  signal: AbortSignal
  readJob: ReadJob | null
}

/** A comment that asked: where it was written, and whether it asked for a new job (`--new`). */
export interface RouteAsk {
  comment: TriggeringComment
  fresh: boolean
}

/**
 * Decides where the request goes: the jobId input (a message when there is a prompt, else a follow);
 * on the agent's own pull request, or on a thread that keeps its job, the job its note names (unless
 * the comment asked for a new job); on a group's code pull request whose thread keeps no job, the
 * group's (see findCodePullGroup); with a group (and no comment), the job of the group's open docs
 * pull request; otherwise a new job. Reading the note may throw (see findThreadJob): the run sends
 * nothing then. `readJob` (null in a dry run) tells whether the thread's job still takes messages.
 * The group's pull request that cannot be looked for is said once, and the run creates a job as
 * without a group.
 */
export async function decideRoute(
  settings: Settings,
  ask: RouteAsk | null,
  { runner, github, signal, readJob }: RouteReads
): Promise<Route> {
  if (settings.jobId) {
    return settings.prompt
      ? { kind: 'message', jobId: settings.jobId, via: 'input' }
      : { kind: 'follow', jobId: settings.jobId }
  }
  if (ask) {
    if (ask.fresh) return { kind: 'create' }
    // The thread's reading and the group's look-up load only when a run needs them.
    const { findThreadJob } = await import('../thread/thread-job.js')
    const thread = await findThreadJob(ask.comment, settings, { readJob, signal, github })
    switch (thread.kind) {
      case 'kept':
        return { kind: 'message', jobId: thread.jobId, via: thread.via, trigger: settings.noteTrigger }
      case 'unseen':
        return { kind: 'create' }
      case 'none':
        return routeByCodePullRequest(settings, ask, thread, { runner, github, signal, readJob })
      default:
        return assertNever(thread, 'thread job')
    }
  }
  if (!settings.group) return { kind: 'create' }
  const { lookUpGroup } = await import('../group/group-lookup.js')
  const group = await lookUpGroup(settings.group, settings, signal, { runner, github })
  if (group.lookup.kind !== 'found') return { kind: 'create', group }
  const { found } = group.lookup
  return { kind: 'message', jobId: found.jobId, via: 'group', group, found }
}

/**
 * A request its thread's job does not take: on a group's code pull request, the group's (its open docs
 * pull request's job, or the group's next job); otherwise a new job, which the thread then keeps.
 * `left` says why the thread's own job does not take it, when it had one; `firstPage` is the thread's
 * oldest comments, read on the way, where the group's status comment is.
 */
async function routeByCodePullRequest(
  settings: Settings,
  ask: RouteAsk,
  { left, firstPage }: Extract<ThreadJob, { kind: 'none' }>,
  { runner, github, signal, readJob }: RouteReads
): Promise<Route> {
  const { findCodePullGroup } = await import('../group/code-pull-group.js')
  const code = await findCodePullGroup(ask.comment, firstPage, settings, { runner, github, signal, readJob })
  const toGroup = code.kind === 'open' || code.kind === 'next'
  const instead = toGroup ? "this request goes to the group's docs (above)" : 'this request starts a new job'
  if (left) log.info(`${left}: ${instead}, which the thread then keeps.`)
  switch (code.kind) {
    case 'open': {
      const { group, found } = code
      return { kind: 'message', jobId: found.jobId, via: 'status', trigger: settings.noteTrigger, group, docs: found }
    }
    case 'next':
      return { kind: 'create', group: code.group }
    case 'none':
    case 'own':
      return { kind: 'create' }
    default:
      return assertNever(code, 'code pull request group')
  }
}

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
