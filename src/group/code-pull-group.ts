// A request on a group's code pull request goes to the group's docs. A group run on a `pull_request`
// event keeps one status comment on the code pull request, signed for the group (group/group-status-marker.ts);
// a `/docs` there that its thread's own job does not take is the group's: it goes, as a follow-up
// message, to the job of the group's open docs pull request, found as the group's runs find it (its
// label and the signed group marker in the action's note: group/group-lookup.ts). With no docs pull request
// open, it starts the group's next job, whose pull request becomes the group's, from the group's mark:
// the changes since the mark still go with the group's next run. The reads keep within their own share
// of the timeout, as the thread's do: when GitHub does not answer, the request starts a job of its own.
import type { GitHubReader, ReadLimits } from '../github/reader.js'
import { failureClause, ReadFailure } from '../github/read-failure.js'
import type { GitHubSession } from '../github/session.js'
import type { Runner } from '../github/runner.js'
import { Input } from '../kernel/action-names.js'
import type { Settings } from '../kernel/settings.js'
import { formatDuration } from '../runtime/duration.js'
import { log } from '../runtime/log.js'
import { endedForGood } from '../service/job-record.js'
import { findGroupPullRequest, GROUP_READS } from './group-lookup.js'
import type { GroupPullRequest, GroupRun } from '../kernel/group.js'
import { findStatusGroup } from './group-status-marker.js'
import { readAuthor } from '../github/author.js'
import type { ListedThreadComment } from '../github/comment-pages.js'
import { threadReadMs, type ReadJob } from '../thread/thread-job.js'
import type { TriggeringComment } from '../thread/trigger.js'

type Reading = Pick<Settings, 'githubToken' | 'apiKey' | 'projectId' | 'timeoutMs' | 'docsRepository'>

/** What the code pull request's status comment says of where the request goes. */
export type CodePullGroup =
  /** Not a group's code pull request: no status comment the action wrote there verifies (or not a pull request). */
  | { kind: 'none' }
  /** The group's open docs pull request: the request goes to its job. */
  | { kind: 'open'; group: string; found: GroupPullRequest }
  /**
   * The group has no open docs pull request, or its job there has ended (archived, failed: `group.open`
   * is that pull request): the request's job becomes the group's, from its mark.
   */
  | { kind: 'next'; group: GroupRun }
  /**
   * The request starts a job of its own (said): GitHub did not show the group's docs pull request, or
   * the group has had none yet (its first job may still be working: a job made the group's now could
   * give it two).
   */
  | { kind: 'own' }

/**
 * Where the request on a pull request goes when its thread keeps no job: see CodePullGroup. The status
 * comment is looked for in `firstPage`, the pull request's oldest comments, which reading the thread
 * read already (it is posted at the group's first run there): a pull request that is no group's costs
 * no request more. Says once what it found. Never throws a read's failure.
 */
export async function findCodePullGroup(
  request: TriggeringComment,
  firstPage: readonly ListedThreadComment[],
  settings: Reading,
  {
    runner,
    github,
    signal,
    readJob
  }: { runner: Runner; github: GitHubSession; signal: AbortSignal; readJob: ReadJob | null }
): Promise<CodePullGroup> {
  const [owner, repo] = request.repository.split('/')
  if (request.thread.kind !== 'pull request' || !owner || !repo || !settings.docsRepository) return { kind: 'none' }
  const reader = github.token ? github.reader(limitsFor(settings.timeoutMs), signal) : null
  if (!reader) return { kind: 'none' }
  const pr = { owner, repo, number: request.thread.number }
  const where = `Pull request #${pr.number}`
  try {
    const status = await findStatusGroup(firstPage, pr, settings, {
      runner,
      readAuthor: () => readAuthor(() => reader.get('/user', "the token's account", 'metadata: read'), signal)
    })
    if (!status.group) {
      if (status.unverified + status.copies > 0) log.notice(unverifiedStatusNotice(where, settings.projectId))
      return { kind: 'none' }
    }
    return await findGroupDocs(status.group, reader, settings, { runner, readJob, signal, where })
  } catch (error) {
    if (!(error instanceof ReadFailure)) throw error
    return unseen(error, where, settings.timeoutMs)
  } finally {
    await reader.close()
  }
}

/**
 * The group's docs pull request, in the repository its runs look in, and whether its job still takes
 * messages (read once from the service, unless a dry run: `readJob` null; a read that fails keeps the
 * job, and the message then says whether it takes it).
 */
async function findGroupDocs(
  name: string,
  reader: GitHubReader,
  settings: Reading,
  { runner, readJob, signal, where }: { runner: Runner; readJob: ReadJob | null; signal: AbortSignal; where: string }
): Promise<CodePullGroup> {
  const repository = settings.docsRepository
  const lookup = await findGroupPullRequest({ name, repository }, settings, reader, runner)
  switch (lookup.kind) {
    case 'found': {
      const { found } = lookup
      const ended = await endedStatus(found.jobId, readJob, signal)
      if (ended) {
        log.info(
          `${where} is group ${name}'s code pull request (from the action's signed status comment there), and the ` +
            `group's job ${found.jobId}, on its docs pull request #${found.pr.number} of ${repository}, is ${ended} and ` +
            `takes no more messages: this request creates a job, and its pull request becomes the group's.`
        )
        return groupsNext({ name, repository }, lookup, { open: found, mark: found.mark })
      }
      log.info(
        `${where} is group ${name}'s code pull request (from the action's signed status comment there): this request ` +
          `goes to the group's job ${found.jobId}, on its docs pull request #${found.pr.number} of ${repository}, as a ` +
          `follow-up message.`
      )
      return { kind: 'open', group: name, found }
    }
    case 'none': {
      const { previous } = lookup
      const whose = `${where} is group ${name}'s code pull request (from the action's signed status comment there)`
      if (!previous) {
        log.notice(
          `${whose}, and the group has no docs pull request in ${repository} yet: its first job may still be working. ` +
            `This request starts a job of its own; ask again once the group's docs pull request is open to send it there.`
        )
        return { kind: 'own' }
      }
      const { mark } = previous
      log.info(
        `${whose}, and its last docs pull request, #${previous.pr.number} of ${repository}, is closed: this request ` +
          `creates a job, and its pull request becomes the group's` +
          (mark ? `; the changes since ${mark.slice(0, 7)} go with the group's next run.` : '.')
      )
      return groupsNext({ name, repository }, lookup, { open: null, mark })
    }
    case 'unreadable':
      return unseen(lookup.failure, where, settings.timeoutMs, name)
  }
}

/** The job's status when it has ended for good (archived, failed); null while it takes messages, or when it cannot be read. */
async function endedStatus(jobId: string, readJob: ReadJob | null, signal: AbortSignal): Promise<string | null> {
  if (!readJob) return null
  try {
    const { status } = await readJob(jobId, signal)
    return endedForGood(status)
  } catch {
    return null
  }
}

/** GitHub did not show the group's docs: said, and the request starts a job of its own. */
function unseen(failure: ReadFailure, where: string, timeoutMs: number, group = ''): CodePullGroup {
  if (failure.kind === 'cancelled') return { kind: 'own' }
  const whose = group ? `group ${group}'s job` : "whether it is a group's code pull request with a job"
  const cause =
    failure.kind === 'timeout'
      ? `GitHub did not answer within ${formatDuration(threadReadMs(timeoutMs))}, the most this look-up may hold up the create`
      : failureClause(failure, Input.githubToken)
  log.warning(
    `Could not see ${whose} from ${where.toLowerCase()}: ${cause}. This request starts a job of its own; if the ` +
      `group has a docs pull request open, it now has a second one beside it.`
  )
  return { kind: 'own' }
}

/** The reads' bounds: the account, then the group's look-up, within a share of the timeout. */
function limitsFor(timeoutMs: number): ReadLimits {
  const totalMs = threadReadMs(timeoutMs)
  const { listPages, maxPulls, commentPages } = GROUP_READS
  return {
    maxRequests: 1 + 2 * (listPages + maxPulls * commentPages + 1),
    totalMs,
    requestMs: Math.min(5000, totalMs),
    maxBodyBytes: 8 * 1024 * 1024
  }
}

function unverifiedStatusNotice(where: string, projectId: string): string {
  return (
    `${where} has a group's status marker that is not the action's: one that does not verify for this repository, ` +
    `pull request and project (${projectId}), or a copy in a comment the action's account did not write. It is ` +
    `ignored: this request goes to no group's job.`
  )
}

/**
 * The request's job becomes the group's next, from the group's mark (`open`: the docs pull request
 * whose job has ended, or null when it is closed). The request carries no commits: the mark stays
 * where it is (see Ancestry).
 */
function groupsNext(
  settings: GroupRun['settings'],
  lookup: GroupRun['lookup'],
  { open, mark }: Pick<GroupRun, 'open' | 'mark'>
): CodePullGroup {
  return { kind: 'next', group: { settings, lookup, open, mark, covers: mark, ancestry: 'asked' } }
}
