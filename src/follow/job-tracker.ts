// The job as the run knows it while it runs: the one thing updated in place, by the send-and-follow
// stage alone (it owns it), because a cancel may have to tell the ending at any moment, from a
// signal handler, before that stage returns.
import type { Job } from '../service/job-record.js'
import type { KnownJob, NewJobWay, RunOutcome } from '../kernel/run-outcome.js'

export class JobTracker {
  /** The job as last seen; null if it was never read. */
  job: Job | null = null
  /** The job's id; empty while no job is known. */
  jobId = ''
  /** The prompt went (or is going) to an existing job as a follow-up message. */
  followUp = false
  /** How to start a new job instead of following up this one, said after a refusal. */
  newJobWay?: NewJobWay
  /** A create or a message is on its way and not answered yet. */
  writeInFlight = false
  /** A create or a message started to go out: from then on the service may have it. */
  writeStarted = false
  /** What the service said it took from this run: the jobCreated output, and whether a group's mark moves. */
  delivered?: 'create' | 'message'

  /** The job as the run knows it so far, without the tracker's own bookkeeping. */
  knownJob(): KnownJob {
    const { job, jobId, followUp, newJobWay } = this
    return { job, jobId, followUp, newJobWay }
  }

  /** A cancel: with a write on its way, the job (or the message) may or may not be there. */
  cancelledOutcome(): RunOutcome {
    return { ending: 'cancelled', ...this.knownJob(), writeInFlight: this.writeInFlight }
  }
}
