// A group whose job was handed over (wait false, or its run's timeout ran out) before the job opened
// its docs pull request: the group's look-up (group/group-lookup.ts) finds no docs pull request, so the
// next run would create a second job beside the working one. Before a group's run creates, the index's
// open records (hand-over/index-records.ts) are read for one of this group; if the service says its job is
// still working, the run is held: nothing is sent, the group's mark stays, and the group's next run
// after the job ends sends these changes. A read that fails (GitHub, the index, the service) is said,
// and the run goes on to create as before: a group is never blocked by a read that fails.
import { routedGroup, type Route } from '../kernel/route.js'
import type { Settings } from '../kernel/settings.js'
import type { JobService } from '../service/job-service.js'
import type { RunOutcome } from '../kernel/run-outcome.js'
import type { GitHubRun } from '../github/session.js'
import { openIndexReader, openJobIndex } from './job-index.js'
import { describeWriteFailure } from '../github/write-failure.js'
import { WRITE_ACCESS } from '../kernel/write-access.js'
import { isFinal } from '../service/job-record.js'
import { ServiceError } from '../service/service-error.js'
import { wordServiceFailure } from '../ending/service-failure-words.js'
import { timeLimit } from '../runtime/deadline.js'
import { log } from '../runtime/log.js'

/** The index's read and the one read of the job at the service, together. */
export const HANDED_OVER_READ_MS = 10_000

/**
 * The ending of a group's run about to create while the group's handed-over job is still working
 * (`held`, why `handed-over`); null when the run goes on to create (no such record, the job final or
 * unknown to the service, or a read that failed).
 */
export async function holdForHandedOverJob(
  route: Route,
  { settings, service }: { settings: Settings; service: JobService | undefined },
  signal: AbortSignal,
  { runner, github }: GitHubRun
): Promise<RunOutcome | null> {
  const group = route.kind === 'create' ? routedGroup(route) : null
  // A request on the group's code pull request carries no commits for a later run to send: it goes on.
  if (!group || group.ancestry === 'asked' || !service || !settings.githubToken) return null
  const name = group.settings.name
  const limit = timeLimit(HANDED_OVER_READ_MS, signal)
  const reader = openIndexReader(github, limit.signal)
  try {
    if (!reader) return null
    const { index } = await openJobIndex(github, reader, { key: settings, repository: runner.repository })
    const { records } = await index.read()
    const handedOver = records.findLast(({ record }) => record.state === 'open' && record.group === name && record.job)
    if (!handedOver) return null
    const { job: jobId, mark } = handedOver.record
    const job = await service.getJob(jobId, limit.signal)
    if (isFinal(job.status)) return null
    return {
      ending: 'held',
      job,
      jobId,
      hold: { why: 'handed-over', group: name, mark: mark ?? group.mark }
    }
  } catch (error) {
    if (signal.aborted) throw error
    if (error instanceof ServiceError && error.kind === 'notFound') return null
    const problem =
      error instanceof ServiceError ? wordServiceFailure(error) : describeWriteFailure(error, WRITE_ACCESS.index)
    log.warning(
      `Could not see whether group ${name}'s job handed over by an earlier run is still working: ${problem} ` +
        "This run goes on to create the group's job; if that one is still working, the group now has two."
    )
    return null
  } finally {
    limit.clear()
    await reader?.close()
  }
}
