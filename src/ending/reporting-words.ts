// What a reporting run (`report: pending`) says in its log: how many handed-over jobs it read and
// told, and what a cancel left. Worded here with every other sentence a person reads; the summary's
// words are the reporting summary's (hand-over/reporting-summary.ts).
import { plural } from '../runtime/plural.js'

/** A cancel is no bug: what became of the records, said once (by the run, or by the grace's forced exit). */
export const REPORTING_CANCELLED =
  'The reporting run was cancelled: every record is open or final, and one it was telling is told again by the next run.'

/** The run's count, on one line: jobs read and endings told, what waits for the next run, what was ignored. */
export function wordReportingCounts({
  read,
  told,
  left,
  perRun,
  ignored
}: {
  read: number
  told: number
  left: number
  perRun: number
  ignored: number
}): string {
  return (
    `Read ${plural(read, 'handed-over job')}: told ${told} ending${told === 1 ? '' : 's'}` +
    `${left ? `, left ${left} for the next run (at most ${perRun} a run)` : ''}` +
    `${ignored ? `, ignored ${plural(ignored, 'record')} that did not verify` : ''}.`
  )
}
