// The two numbers that decide how long the step may take and how often it reads the job, said when
// the step starts: a timeout meant as minutes and written as a bare number (read as seconds) shows
// in the first lines of the log, not half a minute later when it runs out.
import { Input } from '../kernel/action-names.js'
import { formatDuration } from '../runtime/duration.js'

/** A bare number of seconds under a minute is more often minutes meant than seconds. */
const BARE_SECONDS_WARNED_BELOW = 60

/** What the step follows, for the line that says the timing in force. */
export interface TimingInForce {
  timeoutMs: number
  pollIntervalMs: number
  /** Whether the run follows a job (wait, or a jobId to follow). */
  follows: boolean
}

/** The line logged at the start: the timeout in force and, when a job is followed, how often it is read. */
export function describeTimingInForce({ timeoutMs, pollIntervalMs, follows }: TimingInForce): string {
  const timeout = `Timeout: ${formatDuration(timeoutMs)} from the step's start (${Input.timeout})`
  return follows
    ? `${timeout}; the job is read every ${formatDuration(pollIntervalMs)} (${Input.pollInterval}).`
    : `${timeout}; the job is not followed (${Input.wait} is false).`
}

/**
 * The warning for a timeout given as a bare number under a minute (`timeout: 30`): it is read as
 * seconds, which is rarely what was meant. Null when it has a unit or is a minute or more.
 */
export function bareSecondsWarning(given: string): string | null {
  const text = given.trim()
  if (!/^\d+(\.\d+)?$/.test(text) || Number(text) >= BARE_SECONDS_WARNED_BELOW) return null
  return (
    `Input ${Input.timeout} is '${text}', a bare number, which is read as seconds: the step gives up after ` +
    `${text} seconds. For minutes write ${text}m (or ${text}s to keep seconds and silence this warning).`
  )
}
