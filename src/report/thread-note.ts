// The note on the thread that asked: when a request (a /docs comment, a label) on an issue or a pull
// request made a new job, the thread gets one comment naming it, with the same signed marker as the
// note on the agent's pull request (comment/agent-pull-request.ts signs it for this thread), so that
// a later request there goes to the same job (comment/thread-job.ts). A follow-up leaves none: the
// thread already names its job. Bounded, written once, and it never fails the step.
import { signMarker, findNotePlace } from '../comment/agent-pull-request.js'
import type { TriggeringComment } from '../comment/trigger.js'
import { FRESH_FLAG } from '../inputs/comment-settings.js'
import type { Settings } from '../inputs/settings.js'
import { log } from '../runtime/log.js'
import { codeSpan, neutralise } from '../safety/neutralise.js'
import { blankSecrets } from '../safety/run-secrets.js'
import type { RunOutcome } from './run-ending.js'
import { noteCutBy, postNote } from './post-note.js'
import type { Runner } from '../github/runner.js'

/**
 * Leaves the note naming the job this run created on the thread whose request created it. Nothing
 * for a follow-up, a dry run, a run that made no job (or whose id it never learned), or a locked
 * thread (which gets no reply either).
 */
export async function leaveThreadNote(
  outcome: RunOutcome,
  settings: Pick<Settings, 'githubToken' | 'apiKey' | 'projectId' | 'noteTrigger'> | null,
  request: TriggeringComment | null,
  signal: AbortSignal,
  runner: Runner
): Promise<void> {
  if (!settings?.githubToken || !request || request.locked) return
  if (!outcome.jobId || outcome.followUp || outcome.ending === 'dry-run' || outcome.ending === 'skipped') return
  const [owner, repo] = request.repository.split('/')
  const place = findNotePlace({ owner, repo, number: request.thread.number }, settings, runner)
  if (!place) return
  const where = `${request.thread.kind} #${request.thread.number}`
  const trigger = settings.noteTrigger
  const body = threadNoteBody(signMarker(settings, place, outcome.jobId), outcome.jobId, request.thread.kind, trigger)
  try {
    await postNote(settings.githubToken, place.pr, () => body, signal)
    log.info(`Left a note on ${where} naming job ${outcome.jobId}: later ${trigger} requests there go to it.`)
  } catch (error) {
    // Cut by the end of the run's time for GitHub (ending-bound.ts): that is what happened.
    const said = noteCutBy(signal) ?? neutralise(error instanceof Error ? error.message : String(error), 200)
    log.notice(
      `Could not leave a note on ${where} naming job ${outcome.jobId} (${said}); the workflow needs "issues: write" ` +
        `and "pull-requests: write". A later ${trigger} request there then starts a new job. The run is not affected.`
    )
  }
}

/** The note's text: the action's own words, the job id in a code span, and the signed marker. */
export function threadNoteBody(signedMarker: string, jobId: string, kind: string, trigger: string): string {
  return blankSecrets(
    `${signedMarker}\n📝 This ${kind}'s documentation requests go to job ${codeSpan(neutralise(jobId))}.\n\n` +
      `To ask for more, comment \`${trigger} <what to change>\` here: it goes to the same job while its pull request ` +
      `is open. \`${trigger} ${FRESH_FLAG} <instruction>\` starts a new job, which this ${kind} then keeps.`
  )
}
