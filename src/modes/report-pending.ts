// The reporting mode (`report: pending`): creates nothing; tells the ending of each job earlier runs
// handed over (hand-over/report-jobs.ts), then one summary and the `reported` output. Bounded: at most
// REPORT_JOBS_PER_RUN jobs, within REPORT_RUN_MS; a cancel leaves every record open or final.
import { readReportSettings } from '../inputs/report-settings.js'
import { setReportedOutput, writeReportingSummary } from '../hand-over/reporting-summary.js'
import { reportJobs } from '../hand-over/report-jobs.js'
import { REPORT_JOBS_PER_RUN } from '../hand-over/report-share.js'
import { CANCEL_GRACE_MS, watchForCancel } from '../runtime/cancel.js'
import { startDeadline } from '../runtime/deadline.js'
import { ServicePolicy } from '../service/service-policy.js'
import { failureMessage, logStackForBugReport, ActionError, CancelledError } from '../runtime/errors.js'
import { log } from '../runtime/log.js'
import { REPORTING_CANCELLED, wordReportingCounts } from '../ending/reporting-words.js'
import { JobService } from '../service/job-service.js'
import type { ModeStart } from './mode-start.js'
import { openGitHubSession } from '../github/session.js'

/**
 * How long a reporting run may take: each job costs a read and a few GitHub writes, each bounded;
 * less than the claim's lease (hand-over/report-job.ts CLAIM_LEASE_MS), so a live claim is never taken over.
 */
export const REPORT_RUN_MS = 10 * 60_000

const ONE_TRY = { ...ServicePolicy.create, tries: 1 }

export async function reportPending({ runner, env }: ModeStart): Promise<void> {
  const cancel = watchForCancel(() => log.failed(REPORTING_CANCELLED), CANCEL_GRACE_MS)
  const deadline = startDeadline(Date.now() + REPORT_RUN_MS, cancel.signal)
  let services: { reader: JobService; creator: JobService } | undefined
  try {
    const settings = readReportSettings(runner, env)
    // A queued create is tried once a run: the rate limit's answer waits for the next run, not this one.
    services = { reader: new JobService(settings), creator: new JobService({ ...settings, createRetry: ONE_TRY }) }
    const github = openGitHubSession(settings.githubToken, runner)
    const run = await reportJobs(settings, services, deadline, { runner, github })
    // Cancelled after its last record: the run ends as cancelled all the same.
    cancel.signal.throwIfAborted()
    setReportedOutput(run.jobs)
    const told = run.jobs.filter((job) => job.outcome === 'told').length
    const { left, ignored } = run
    log.info(wordReportingCounts({ read: run.jobs.length, told, left, perRun: REPORT_JOBS_PER_RUN, ignored }))
    const repositoryUrl = `${runner.serverUrl}/${runner.repository}`
    const counts = {
      ignored: run.ignored,
      left: run.left,
      perRun: REPORT_JOBS_PER_RUN,
      repositoryUrl,
      issue: run.issue,
      otherIssues: run.otherIssues,
      workflow: run.workflow
    }
    await writeReportingSummary(run.jobs, counts)
  } catch (error) {
    if (error instanceof CancelledError || cancel.signal.aborted) {
      log.failed(REPORTING_CANCELLED)
      return
    }
    if (!(error instanceof ActionError)) logStackForBugReport(error)
    log.failed(failureMessage(error))
  } finally {
    cancel.stop()
    await services?.reader.close()
    await services?.creator.close()
  }
}
