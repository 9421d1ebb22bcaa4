// How a run ended, as data (RunOutcome): each ending with exactly what telling it needs. The
// decisions over the ending that are not words (whether a job was followed, whether a summary is
// written) are here too, as switches over every ending: the compiler names the one a new ending leaves out.
import { assertNever } from '../runtime/assert-never.js'
import type { Job } from '../service/job-record.js'
import type { ServiceError, ServiceFailureKind } from '../service/service-error.js'

/**
 * How a run ended; `skipped`: an event that starts no job (a comment that gives no instruction, a
 * deleted branch); `noSign`: after a follow-up message, the job read final throughout, never working
 * (see followJob's awaitWork); `dry-run`: dryRun is true, so the prompt was shown and nothing was sent;
 * `queued`: the rate limit refused the create, and the request is kept for a reporting run to create
 * (hand-over/hand-over.ts): no job yet.
 */
export type Ending =
  'final' | 'created' | 'queued' | 'timeout' | 'noSign' | 'cancelled' | 'error' | 'skipped' | 'dry-run' | 'held'

/**
 * A run with a group that sent nothing, and why (the `held` ending): `covered`, the group's mark has
 * this run's commit already (a re-run, or an older run run again); `waited-out`, the group's job was
 * still working when the timeout ran out; `handed-over`, the group's job an earlier run handed over
 * (hand-over/job-index.ts) is still working and has no docs pull request yet, so a create would make a
 * second job beside it (hand-over/group-handed-over.ts); `unread`, GitHub could not say what the group's job has not
 * been told of; `code-closed`, the code pull request the group documents was closed (or merged with
 * nothing left to send), and its docs pull request was told. The group's mark stays: the changes a
 * held run did not send go with the group's next run.
 */
export type GroupHold =
  | { why: 'covered'; group: string; mark: string; covers: string }
  | { why: 'waited-out'; group: string; mark: string; timeoutMs: number }
  | { why: 'handed-over'; group: string; mark: string }
  | { why: 'unread'; group: string; mark: string; problem: string }
  | {
      why: 'code-closed'
      group: string
      /** The code pull request's number, and whether it was merged. */
      code: number
      merged: boolean
      /** The group's docs pull request (`#31 of owner/repo`), or null when it has none open. */
      docs: string | null
      /** Why the docs pull request could not be told, as a sentence; null when it was (or there was none). */
      untold: string | null
    }

/**
 * How the person who asked can start a new job instead of following up this one: by running the
 * action without jobId, or, on the agent's pull request (where they gave no jobId), by commenting the
 * trigger with --new.
 */
export type NewJobWay = { by: 'input' } | { by: 'comment'; trigger: string }

/** What the run knows of its job at any moment: the reply's progress and the forced exit after a cancel read it. */
export interface KnownJob {
  /** The job as last seen; null if it was never read. */
  job: Job | null
  /** The job's id; empty when no job is known. */
  jobId: string
  /** The run sent (or was sending) the prompt to an existing job as a follow-up message. */
  followUp?: boolean
  /** How to start a new job instead of following up this one, said after a refusal. */
  newJobWay?: NewJobWay
}

/**
 * A job this run hands over (hand-over/hand-over.ts) rather than follows to its end: whether a reporting
 * run is known in the repository (one has recorded itself in the index), so that the words promise
 * its ending only where a run will tell it.
 */
export interface HandedOver {
  reporterKnown: boolean
  /** The record could not be left (GitHub refused it, or failed): no reporting run tells the ending. */
  unrecorded?: boolean
}

/** How the run ended, with exactly what each ending needs to be told (see Ending). */
export type RunOutcome =
  | (KnownJob & {
      ending: 'final'
      job: Job
      /** Whether a completed job without a pull request fails the step. */
      requirePr?: boolean
    })
  | (KnownJob & {
      ending: 'created'
      handedOver?: HandedOver
      /** Created by a reporting run from the queue (hand-over/report-queued.ts), once the rate limit allowed it. */
      fromQueue?: boolean
    })
  | (KnownJob & {
      ending: 'queued'
      /** When the service allows the create again (its Retry-After, ISO time); null when it did not say. */
      notBefore: string | null
      /** The run was to follow its job (wait true): the step fails, as when the timeout runs out. */
      wait: boolean
      /**
       * Its record could not be written (hand-over/hand-over.ts): no reporting run will make the job, so the
       * request is not kept, the step fails, and the words say to ask again.
       */
      unkept?: boolean
    })
  | (KnownJob & {
      ending: 'timeout'
      handedOver?: HandedOver
      /** The step's timeout, for the sentence. */
      timeoutMs?: number
      /** Why the last read failed, if it did. */
      lastProblem?: ServiceError | null
    })
  | (KnownJob & {
      ending: 'noSign'
      job: Job
      /** How long the job was read after the message. */
      waitedMs: number
      /**
       * The status the message's answer showed, when it showed the job working: the service said it
       * took the message, so the ending says what was seen rather than "no sign".
       */
      answerStatus?: string
    })
  | (KnownJob & {
      ending: 'cancelled'
      /**
       * A write was sent and not answered, so a job may exist that the run never heard of, or (with
       * followUp) the message may or may not have reached the job.
       */
      writeInFlight?: boolean
    })
  | (KnownJob & {
      ending: 'error'
      /** The sentence that says what happened and what to do. */
      reason?: string
      /**
       * The reason in two parts, where it says what to do: the job summary shows `next` as its next
       * step, under `happened` (the log says the reason whole).
       */
      told?: { happened: string; next: string }
      /**
       * How the service failed, when it did (ServiceFailureKind): `takenUnread`, a job was created but
       * its id is unknown; `uncertain`, the answer to a write was lost, so a job (or the message) may
       * exist; `refused`, the service refused the write and took nothing.
       */
      failure?: ServiceFailureKind
    })
  | (KnownJob & { ending: 'dry-run' })
  | (KnownJob & {
      ending: 'skipped'
      /** The sentence that says why no job was started. */
      reason: string
    })
  | (KnownJob & { ending: 'held'; hold: GroupHold })

/** Whether the run followed a job (read it until it ended, or until the run ended): the summary then says for how long. */
export function isJobFollowed(outcome: RunOutcome): boolean {
  if (!(outcome.jobId || outcome.job)) return false
  switch (outcome.ending) {
    case 'final':
    case 'timeout':
    case 'noSign':
    case 'cancelled':
    case 'error':
      return true
    case 'created':
    case 'queued':
    case 'dry-run':
    case 'skipped':
    case 'held':
      return false
    default:
      return assertNever(outcome, 'ending')
  }
}

/** Whether the ending writes a job summary: every ending but a skip, an event that starts nothing. */
export function writesSummary(outcome: RunOutcome): boolean {
  switch (outcome.ending) {
    case 'skipped':
      return false
    case 'final':
    case 'created':
    case 'queued':
    case 'timeout':
    case 'noSign':
    case 'cancelled':
    case 'error':
    case 'dry-run':
    case 'held':
      return true
    default:
      return assertNever(outcome, 'ending')
  }
}

/** How the step ends, and the words for each place that tells it. */
export interface EndingWords {
  /** `failed` fails the step with `log`; `warning` and `notice` are annotations; `info` a log line. */
  level: 'failed' | 'warning' | 'notice' | 'info'
  /** The sentence for the step's log: what happened and what to do. */
  log: string
  /** One short sentence for the job summary and the reply on the thread. */
  short: string
  /** The reply's leading emoji. */
  icon: string
}
