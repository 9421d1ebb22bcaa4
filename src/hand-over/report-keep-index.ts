// What a reporting run does to the index itself, around telling the records: it makes the index when
// there is none yet (a new reporting workflow records itself there), locks one made before it was
// locked, and at its end keeps the dashboard (the told records leave it) and turns the reporting
// workflow off when nothing is left open (reporting-workflow.ts), on again when a record appeared
// meanwhile. Each failure is a warning or a notice: every ending told stays told.
import type { GitHubSession } from '../github/session.js'
import { describeWriteFailure } from '../github/write-failure.js'
import { WRITE_ACCESS } from '../kernel/write-access.js'
import { log } from '../runtime/log.js'
import type { OpenEntry } from './index-marker.js'
import type { IndexRead, JobIndex } from './job-index.js'
import type { IndexedRecord } from './index-records.js'
import { openEntryOf } from './report-share.js'
import { switchWorkflow } from './reporting-workflow.js'

/**
 * What became of the reporting workflow: `on` (a job is open), `off` (turned off: nothing is open),
 * `refused` (GitHub refused to turn it off: no actions: write), `failed` (another failure, worded in a
 * warning), `unknown` (this run's workflow could not be named).
 */
export type WorkflowSwitch = 'on' | 'off' | 'refused' | 'failed' | 'unknown'

/** Makes the index for a reporting run that finds none; null (and a warning) when GitHub refuses. */
export async function makeIndex(index: JobIndex, file: string | null, signal: AbortSignal): Promise<number | null> {
  try {
    return await index.makeIssue(signal, {
      workflow: file,
      on: true,
      switchable: true,
      cursor: 0,
      open: [],
      recent: []
    })
  } catch (error) {
    if (signal.aborted) throw error
    log.warning(
      `Could not make the index issue, where this reporting workflow records itself: ${describeWriteFailure(error, WRITE_ACCESS.index)}`
    )
    return null
  }
}

/** Locks an index made before it was locked; a refusal is a notice (outsiders' comments are not read anyway). */
export async function lockIndex(index: JobIndex, issue: number, signal: AbortSignal): Promise<void> {
  try {
    await index.lock(issue, signal)
  } catch (error) {
    if (signal.aborted) throw error
    log.notice(`Could not lock the index issue #${issue}: ${describeWriteFailure(error, WRITE_ACCESS.index)}`)
  }
}

/**
 * The dashboard kept and the told records deleted; with nothing left open, the workflow turned off,
 * then the index read once more, and the workflow turned back on if a record appeared meanwhile (a
 * hand-over that read the index as on before it was off: its record is then seen here; one that reads
 * it after sees off, and turns it on itself).
 */
export async function keepIndex(
  index: JobIndex,
  view: { issue: number; file: string | null; open: OpenEntry[]; cursor: number; found: IndexRead; repository: string },
  { octokit, signal }: { octokit: Awaited<ReturnType<GitHubSession['client']>>; signal: AbortSignal }
): Promise<WorkflowSwitch> {
  const { issue, file, open, cursor, repository } = view
  const readUpTo = Math.max(0, ...view.found.records.map((r) => r.commentId))
  const publish = async (update: Parameters<JobIndex['publish']>[1]): Promise<boolean> => {
    try {
      await index.publish(issue, { open, cursor, readUpTo, ...update }, signal)
      return true
    } catch (error) {
      if (signal.aborted) throw error
      log.warning(
        `Could not keep the index issue #${issue}'s list of jobs: ${describeWriteFailure(error, WRITE_ACCESS.index)} ` +
          'The next reporting run keeps it; every ending was told.'
      )
      return false
    }
  }
  if (!file) {
    await publish({})
    return 'unknown'
  }
  if (open.length > 0) {
    await publish({ workflow: file, on: true })
    return 'on'
  }
  const off = await switchWorkflow(octokit, { repository, workflow: file, on: false }, signal)
  if (!off.done) {
    if (!off.refused) {
      log.warning(
        `Could not turn off the reporting workflow ${file}: ${describeWriteFailure(off.error, WRITE_ACCESS.workflow)}`
      )
      // GitHub may have turned it off despite its error: turned on again (a 204 when it is on), as the index says.
      await switchWorkflow(octokit, { repository, workflow: file, on: true }, signal)
    }
    await publish({ workflow: file, on: true, switchable: !off.refused })
    return off.refused ? 'refused' : 'failed'
  }
  // The records read again after the disable (not only the body): a record a hand-over added
  // meanwhile is open, and the workflow goes on again. While they cannot be read, or "off" cannot be
  // written in the body, the workflow goes on again too (and the next run keeps the index).
  const kept = await publish({ workflow: file, on: false, switchable: true })
  const again = kept ? await readRecordsAgain(index, issue, signal) : null
  const appeared = again?.filter(({ record }) => record.state !== 'final') ?? []
  if (kept && again && appeared.length === 0) return 'off'
  const on = await switchWorkflow(octokit, { repository, workflow: file, on: true }, signal)
  if (!on.done) {
    const why = kept
      ? `A job was handed over while this run turned the reporting workflow ${file} off`
      : `The index issue could not be updated to say that the reporting workflow ${file} is off`
    log.warning(
      `${why}, and it could not be turned on again: ${describeWriteFailure(on.error, WRITE_ACCESS.workflow)} ` +
        'Turn it on in the Actions tab, or run it by hand: a job handed over meanwhile is told once it runs.'
    )
    return 'failed'
  }
  if (!kept) return 'failed'
  if (!again) {
    await publish({ workflow: file, on: true })
    return 'on'
  }
  await publish({ workflow: file, on: true, added: appeared.map((r) => openEntryOf(r, undefined, view.found)) })
  return 'on'
}

/** The index's records, read again after the disable; null (and a notice) when they cannot be read. */
async function readRecordsAgain(index: JobIndex, issue: number, signal: AbortSignal): Promise<IndexedRecord[] | null> {
  try {
    return (await index.readComments(issue)).records
  } catch (error) {
    if (signal.aborted) throw error
    log.notice(
      `Could not read the index issue #${issue} again after turning the reporting workflow off: ${String((error as Error).message ?? error)} ` +
        'It is turned on again, so that a job handed over meanwhile is told.'
    )
    return null
  }
}
