// Where the request goes, decided once (a Route, kernel/route.ts): a new job, an existing job to
// follow, or a follow-up message to a job, and how that job was named, read from the inputs, the
// thread's note, the group's code pull request or the group's docs pull request.
import type { Settings } from '../kernel/settings.js'
import { assertNever } from '../runtime/assert-never.js'
import type { Runner } from '../github/runner.js'
import type { Route } from '../kernel/route.js'
import type { ReadJob, ThreadJob } from '../thread/thread-job.js'
import { log } from '../runtime/log.js'
import type { TriggeringComment } from '../thread/trigger.js'
import type { GitHubSession } from '../github/session.js'

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
