// A run that hands its job over: with wait false, or when the timeout ran out on a job still working,
// or when the rate limit refused the create (then the record is queued, with the prompt, for a
// reporting run to create), the run leaves a signed record of the job in the index
// (hand-over/job-index.ts) before it ends, and a pending commit status on the commit it was for. A
// reporting run (`report: pending`) tells the ending later, where a held run would have.
import type { GroupRun } from '../kernel/group.js'
import { type RecordPayload } from '../github/signed-record.js'
import { runLink } from '../github/octokit.js'
import { gitHubIsSilent } from '../github/silence.js'
import type { Runner } from '../github/runner.js'
import type { Settings } from '../kernel/settings.js'
import { commitOfRun, setCommitStatus, statusOfJob } from './commit-status.js'
import { openJobIndex, openIndexReader } from './job-index.js'
import { INDEX_TITLE } from './index-dashboard.js'
import { describeWriteFailure } from '../github/write-failure.js'
import { WRITE_ACCESS } from '../kernel/write-access.js'
import type { RunOutcome } from '../kernel/run-outcome.js'
import { timeLimit } from '../runtime/deadline.js'
import { log } from '../runtime/log.js'
import { blankSecrets } from '../safety/run-secrets.js'
import { requestedBy } from '../thread/agent-note-record.js'
import { keepQueuedPrompt } from './queued-prompt-parts.js'
import type { CommentAsk } from '../thread/comment-ask.js'
import { showHandedOver } from './hand-over-index.js'
import type { GitHubSession } from '../github/session.js'

/** The hand-over's GitHub calls together (the index's listing, maybe its issue, the record, the status). */
export const HAND_OVER_MS = 10_000

/** What the hand-over takes from the run. */
export interface HandOver {
  outcome: RunOutcome
  settings: Settings | null
  ask: CommentAsk | null
  group: GroupRun | null
  delivered?: 'create' | 'message'
  /** The prompt the create would have sent, for a queued record. */
  prompt: string
  /** The run's route made a new job (not a message, not a follow of a job given). */
  creates: boolean
  runner: Runner
  github: GitHubSession
}

/** The record a run leaves for its ending, or null when it followed its job to the end (or made none). */
export function recordToLeave(handOver: HandOver): RecordPayload | null {
  const { outcome, settings, ask, group, delivered, creates } = handOver
  if (!settings || settings.dryRun) return null
  const created = new Date().toISOString()
  const thread = ask?.replies.recordedIn()
  const groupMark = group && delivered === 'create' ? { group: group.settings.name, mark: group.covers } : {}
  const commit = commitOfRun(handOver.runner)
  // The note a reporting run leaves on the agent's pull request says who asked, as this run's would.
  const { runId } = handOver.runner
  const askedBy = { what: requestedBy(ask?.comment ?? null, handOver.runner), ...(runId ? { run: runId } : {}) }
  const where = { ...(thread ? { thread } : {}), ...groupMark, ...(commit ? { commit } : {}), askedBy }
  const working = (outcome.ending === 'created' || outcome.ending === 'timeout') && !!outcome.jobId
  if (working) return { job: outcome.jobId, state: 'open', created, ...where }
  // Refused by the rate limit and queued (follow/send-and-follow.ts): the create waits in the record for a
  // reporting run, not before the service's Retry-After, and not once its asking comment is gone.
  if (outcome.ending === 'queued' && creates && handOver.prompt) {
    const notBefore = outcome.notBefore ? { notBefore: outcome.notBefore } : {}
    return {
      job: '',
      state: 'queued',
      created,
      ...where,
      ...askingOf(ask),
      ...notBefore,
      prompt: blankSecrets(handOver.prompt)
    }
  }
  return null
}

/**
 * The outcome as the summary and the reply tell it: a job this run hands over says so, and who tells
 * its ending (ending/ending-verdict.ts wordHandedOverNext). `reporterKnown`: a reporting run has
 * recorded itself in the index; `left`: what became of the record (handOverJob), which the words'
 * promise rests on.
 */
export function markHandedOver(handOver: HandOver, reporterKnown: boolean, left: HandOverLeft | undefined): RunOutcome {
  const { outcome } = handOver
  // A queued create is kept only by its record: without one, nothing makes the job.
  if (outcome.ending === 'queued') return left === 'unrecorded' ? { ...outcome, unkept: true } : outcome
  if (!left || (outcome.ending !== 'created' && outcome.ending !== 'timeout')) return outcome
  return { ...outcome, handedOver: { reporterKnown, ...(left === 'unrecorded' ? { unrecorded: true } : {}) } }
}

/** Where a queued request was asked, to see it withdrawn before its create (hand-over/report-queued-withdrawal.ts). */
function askingOf(ask: CommentAsk | null): Pick<RecordPayload, 'asking'> {
  if (!ask) return {}
  const { comment } = ask
  const asked = comment.kind === 'issue comment' || comment.kind === 'review comment' ? { comment: comment.id } : {}
  return {
    asking: { number: comment.thread.number, ...asked, ...(comment.kind === 'review comment' ? { onDiff: true } : {}) }
  }
}

/** What became of the record a run leaves: in the index, or not (written nowhere, its ending told by no run). */
export type HandOverLeft = 'recorded' | 'unrecorded'

/**
 * What a hand-over did: `left`, what became of the record; `reporterKnown`, whether a reporting run has
 * recorded itself in the index (its workflow in the index's state), as the one read of the index's body
 * after the record showed it (true when that read failed: then, as before the index kept its workflow,
 * the reply promises the ending).
 */
export interface HandedOverJob {
  left: HandOverLeft
  reporterKnown: boolean
}

/**
 * Leaves the record (see the file's opening comment), before the summary and the reply say the run's
 * ending: what became of it, which their promise rests on (undefined: no record was to be left). A
 * failure is a warning: the job itself is not affected.
 */
export async function handOverJob(handOver: HandOver): Promise<HandedOverJob | undefined> {
  const { runner } = handOver
  // The record names the reply: its first post (made while the job was created) is waited for.
  if (recordToLeave(handOver)) await replyPosted(handOver)
  const record = recordToLeave(handOver)
  const { settings } = handOver
  if (!record || !settings) return undefined
  const what = record.job ? `job ${record.job}` : 'the queued create'
  if (!settings.githubToken) {
    log.debug(`No record of ${what} was left for a reporting run: githubToken is empty.`)
    return undefined
  }
  if (gitHubIsSilent()) {
    log.notice(
      `GitHub left a request of this run unanswered and has answered none since, so no record of ${what} was left ` +
        'for a reporting run: its ending is not reported. The job is not affected.'
    )
    return { left: 'unrecorded', reporterKnown: true }
  }
  const { repository } = runner
  const limit = timeLimit(HAND_OVER_MS)
  const reader = openIndexReader(handOver.github, limit.signal)
  let recorded = false
  let reporterKnown = true
  try {
    if (!reader) return { left: 'unrecorded', reporterKnown }
    const { index, octokit } = await openJobIndex(handOver.github, reader, { key: settings, repository })
    const issue = await index.findOrMakeIssue(limit.signal)
    const kept = await keepQueuedPrompt(
      {
        octokit,
        key: settings,
        place: {
          host: new URL(handOver.github.serverUrl).host,
          thread: { ...ownerAndRepo(repository), number: issue },
          projectId: settings.projectId
        }
      },
      record,
      limit.signal
    )
    const commentId = await index.add(issue, kept, limit.signal)
    recorded = true
    reporterKnown = await showHandedOver(
      { index, octokit, repository },
      { issue, commentId, record: kept },
      limit.signal
    )
    log.info(
      record.state === 'queued'
        ? `The create waits in issue #${issue} (${INDEX_TITLE}): a run with report: pending creates it once the rate limit allows, and tells its ending.`
        : `Handed job ${record.job} over: its record is in issue #${issue} (${INDEX_TITLE}), and a run with report: pending tells its ending.`
    )
    if (record.commit && record.job) {
      const status = statusOfJob('active')
      await setCommitStatus(octokit, {
        repository,
        commit: record.commit,
        status,
        targetUrl: runLink(handOver.github.serverUrl, repository, runner.runId),
        signal: limit.signal
      })
    }
  } catch (error) {
    // Recorded: the status is what failed, and the reporting run sets the ending there all the same.
    if (recorded)
      log.warning(`Could not set the pending status of ${what}: ${describeWriteFailure(error, WRITE_ACCESS.status)}`)
    // A warning, not a notice: the reply on the thread says that the ending will not be posted there.
    else
      log.warning(
        `Could not leave the record of ${what} for a reporting run: ${describeWriteFailure(error, WRITE_ACCESS.index)} ` +
          (record.state === 'queued'
            ? 'The request is not kept: no run will create its job.' +
              (record.thread ? ' The reply on the thread says so, and to ask again.' : '')
            : 'Its ending is not reported.' +
              (record.thread ? ' The reply on the thread says so, and how to follow the job instead.' : ''))
      )
  } finally {
    limit.clear()
    await reader?.close()
  }
  return { left: recorded ? 'recorded' : 'unrecorded', reporterKnown }
}

/** Waits (bounded) for the reply's first post to be answered, so that the record names it. */
async function replyPosted({ ask }: HandOver): Promise<void> {
  if (!ask) return
  const limit = timeLimit(HAND_OVER_MS)
  try {
    await ask.replies.posted(limit.signal)
  } finally {
    limit.clear()
  }
}

function ownerAndRepo(repository: string): { owner: string; repo: string } {
  const [owner, repo] = repository.split('/')
  return { owner, repo }
}
