// The words of a create the service's rate limit refused and the run queued for the repository's
// reporting run (hand-over/hand-over.ts): whether it is kept, when it may be made, and who makes it.
import { Input } from '../kernel/action-names.js'
import type { EndingWords, RunOutcome } from '../kernel/run-outcome.js'

/** When a queued create may be sent, as the service said: a minute, in UTC. */
export function wordNotBefore(notBefore: string | null): string {
  return notBefore ? `not before ${notBefore.slice(0, 16).replace('T', ' ')} UTC` : 'when the service allows'
}

/**
 * A create the rate limit refused, kept for the repository's reporting run (hand-over/hand-over.ts): it is
 * not lost, so a step that was not to wait (wait false) does not fail; a held run (wait true) had
 * no job to follow, and fails as when its timeout runs out, saying who makes the job.
 */
export function wordQueued({ notBefore, wait, unkept }: Extract<RunOutcome, { ending: 'queued' }>): EndingWords {
  if (unkept) {
    const lost =
      "The service's rate limit refused the create for now (HTTP 429), and this run could not write the request's " +
      "record for the repository's reporting run, so the request is NOT kept: no job will be created for it. " +
      'Ask for it again once the rate limit allows.'
    return { level: 'failed', icon: '❌', short: lost, log: lost }
  }
  const kept =
    "The service's rate limit refused the create for now (HTTP 429), so the request is queued, not lost: " +
    `the repository's reporting run (${Input.report}: pending) creates the job ${wordNotBefore(notBefore)}, and tells its ending.`
  if (!wait) {
    return {
      level: 'notice',
      icon: '⏳',
      short: kept,
      log: `${kept} No job was created by this run, which does not wait for it (${Input.wait} is false).`
    }
  }
  return {
    level: 'failed',
    icon: '⏳',
    short: kept,
    log:
      `${kept} This run could not wait for it within its ${Input.timeout}, so it has no job to follow: ` +
      `do not run it again for the same request, or a second job is made. ${WITHOUT_REPORTER}`
  }
}

/** Who else could make a queued create: said where a queued request is kept. */
export const WITHOUT_REPORTER =
  'A repository without a reporting workflow (examples/workflows/report-later.yml) never creates it: add one, or ask again later.'
