// The thread's reply step: the one reply a comment-triggered run keeps on its thread, and the one
// object the stages call to drive it (ThreadReply): the settle stage starts its record and begins it,
// the route stage says where the request went, the send and the following show the job's progress, a
// cancel shows its ending at once, the hand-over waits for its id, and the ending stage finishes it.
// Its words are in reply-text.ts, its other GitHub calls in reply-on-github.ts, its record in
// thread-record.ts.
import type { TriggeringComment } from './trigger.js'
import { Input } from '../kernel/action-names.js'
import { runLink } from '../github/octokit.js'
import type { Runner } from '../github/runner.js'
import { log } from '../runtime/log.js'
import { describeEnding } from '../ending/run-ending.js'
import type { KnownJob, RunOutcome } from '../kernel/run-outcome.js'
import { neutralise } from '../safety/neutralise.js'
import type { PullRequestDetails } from '../github/pull-request-details.js'
import { describeWriteFailure } from '../github/write-failure.js'
import { WRITE_ACCESS } from '../kernel/write-access.js'
import { keepLiveComment } from '../github/live-comment.js'
import type { GitHubSession } from '../github/session.js'
import { threadRecord, describeUnrecordedEnding } from './thread-record.js'
import type { Settings } from '../kernel/settings.js'
import { describeRouteOnThread, describeThreadEnding } from '../ending/thread-words.js'
import type { Route } from '../kernel/route.js'
import { describeThread, placeReplyOn, react, readTakenOver, REPLY_CALL_MS } from './reply-on-github.js'
import { writeOutcomeReply, writeProgressReply, writeStartedReply } from './reply-text.js'

/**
 * The thread's reply step: the one reply a comment-triggered run keeps on its thread, posted when the
 * run starts, edited as the run goes (the job id once it exists, each change of status), and at the
 * end (how it ended, the pull request, the job id, how long it took). The stages call it by these
 * methods alone, each named for what the stage tells it: the live comment, the record and the
 * reaction are its own. Nothing here waits on GitHub or throws: edits are coalesced, each is
 * bounded, and the run never waits for one but at its very end.
 */
export interface ThreadReply {
  /**
   * From now on the reply carries the thread's record of its job (signed with the API key, bound to
   * the reply's comment: github/signed-record.ts), as soon as the run knows the job.
   */
  keepRecord(settings: Pick<Settings, 'apiKey' | 'projectId'>): void
  /** A reply started `deferred` posts its first body now (the request was found to be one). */
  begin(): void
  /** Where the request goes, once decided: the reply says so where the thread alone does not (a group's). */
  routed(route: Route): void
  /** The run's progress: edits the reply when what it says has changed (the job id, its status). */
  progress(job: KnownJob): void
  /**
   * Shows an ending now, without waiting for the run to end (a cancel: the run may be stopped before
   * it can say more); no progress replaces it, and finish still sends the final text.
   */
  tellEnding(outcome: RunOutcome, elapsedMs: number): void
  /**
   * Says how the run ended: updates the reply (one GitHub made but did not answer for is looked for
   * first, while the pull request's details are read), or adds one if there is none; every call
   * within `bound`, the run's end's time for GitHub (ending-bound.ts).
   */
  finish(
    outcome: RunOutcome,
    elapsedMs: number,
    pullRequest: Promise<PullRequestDetails | null> | PullRequestDetails | null,
    bound: AbortSignal
  ): Promise<void>
  /**
   * Where the thread's record is kept for a record left for a reporting run (hand-over/hand-over.ts):
   * the thread and the reply's comment, once posted; undefined while it is not (or never was), and for
   * a review comment's reply, which carries no record.
   */
  recordedIn(): { number: number; comment: number } | undefined
  /**
   * The reply's comment id once its first post is answered (or found again, or, when it left no
   * comment, posted once more), waiting at most until `bound` aborts; undefined when there is none by then.
   */
  posted(bound: AbortSignal): Promise<number | undefined>
}

/** What the reply says and records besides the run: the trigger that asks, and the request's digest (a label's). */
export interface ReplyRequest {
  trigger: string
  /** The digest of the request's text, for a label's request (thread/label-request.ts): recorded with the job. */
  asked?: string
  /**
   * The reaction and the first reply wait for begin(): a label's request is first checked against
   * the thread's record, and a repeat of it leaves no comment.
   */
  deferred?: boolean
}

/** A reply that is never written: no token, or a locked thread. */
export const NO_REPLY: ThreadReply = {
  recordedIn: () => undefined,
  posted: async () => undefined,
  keepRecord: () => {},
  begin: () => {},
  routed: () => {},
  progress: () => {},
  tellEnding: () => {},
  finish: async () => {}
}

/**
 * Puts an 👀 reaction on the comment (a review has none) and a reply linking the workflow run,
 * without waiting for either: the job is created meanwhile. A reply to a comment on the diff goes
 * under it, in its review thread; a reply to an issue comment or a review goes on the conversation.
 * The reply is one live comment (live-comment.ts), and the thread's record of its job: signed into
 * it as soon as the job is known, and given its state (still taking requests, or done with) at the
 * end. Every GitHub call that fails is a warning.
 */
export function startThreadReply(
  comment: TriggeringComment,
  github: GitHubSession,
  runner: Pick<Runner, 'runId' | 'serverUrl'>,
  request: ReplyRequest = { trigger: '/docs' }
): ThreadReply {
  if (!github.token) {
    log.warning(
      `${Input.githubToken} is empty: no reaction or reply on the ${describeThread(comment)}. The job runs all the same.`
    )
    return NO_REPLY
  }
  const where = describeThread(comment)
  // Once the run's ending is shown (a cancel shows it at once), no progress replaces it.
  let endingShown = false
  let routed: string | null = null
  const record = threadRecord(comment, request.asked, runner)
  const reply = keepLiveComment({
    load: async (call) => {
      const octokit = await call('load the GitHub client', () => github.client())
      if (!octokit) return null
      const { serverUrl } = github
      return { octokit, runUrl: runLink(serverUrl, comment.repository, runner.runId), serverUrl }
    },
    place: placeReplyOn(comment),
    what: 'reply',
    where,
    requestTimeoutMs: REPLY_CALL_MS,
    access: WRITE_ACCESS.thread,
    stamp: record.stamp
  })
  let start: (post: boolean) => void = () => {}
  const begun = new Promise<boolean>((resolve) => (start = resolve))
  let began = !request.deferred
  if (began) start(true)
  const opened = (async () => {
    const loaded = await reply.client
    if (!loaded) return null
    // Not begun when the run ended: the final body is posted by finish, or none for a skipped request.
    if (!(await begun)) return loaded
    if (comment.kind !== 'review') reply.noteSelf(await react(loaded.octokit, comment, reply.call))
    const posted = await reply.post(loaded, writeStartedReply(loaded.runUrl))
    if (posted) log.info(`Replied on the ${where}: ${neutralise(String(posted.html_url))}`)
    return loaded
  })().catch((error: unknown) => {
    log.warning(
      `Could not answer on the ${where}: ${describeWriteFailure(error, WRITE_ACCESS.thread)} The job is not affected.`
    )
    return null
  })

  return {
    keepRecord: record.keep,
    begin: () => {
      began = true
      start(true)
    },
    routed: (route) => {
      routed = describeRouteOnThread(route)
    },
    progress: (outcome) => {
      // The thread records its job as soon as the run knows it: a request meanwhile goes to it. Once
      // the ending is shown, what the thread keeps is the ending's to say.
      if (!endingShown && !reply.finished) record.know(outcome.jobId, 'open')
      void opened.then((thread) => {
        if (thread && outcome.jobId && !reply.finished && !endingShown && !reply.editRefused) {
          reply.show(writeProgressReply(outcome, thread.runUrl, routed))
        }
      })
    },
    tellEnding: (outcome, elapsedMs) => {
      endingShown = true
      const told = describeThreadEnding(outcome, request.trigger, describeEnding(outcome).next)
      record.know(outcome.jobId, told.keeps)
      void opened.then((thread) => {
        if (thread) reply.show(writeOutcomeReply(outcome, { ...thread, routed, elapsedMs, told }))
      })
    },
    recordedIn: () =>
      reply.id !== undefined && comment.kind !== 'review comment'
        ? { number: comment.thread.number, comment: reply.id }
        : undefined,
    posted: async (bound) => {
      // A reply not begun has no first post: it is never waited for.
      const thread = began ? await Promise.race([opened, whenAborted(bound)]) : undefined
      if (thread && !bound.aborted) {
        // Its first post left no comment (a 5xx GitHub did not make, say): what names the reply (the
        // hand-over's record, by which a reporting run tells the ending) needs one now, not at the end.
        const again = await Promise.race([
          reply.postAgain(thread, writeStartedReply(thread.runUrl)),
          whenAborted(bound)
        ])
        if (again) log.info(`Replied on the ${where} after all: ${neutralise(String(again.html_url))}`)
      }
      return reply.id
    },
    finish: async (outcome, elapsedMs, pullRequest, bound) => {
      start(false)
      // A repeated request, stopped before its reply began: it leaves no comment (the log says why).
      if (!began && outcome.ending === 'skipped') return
      const told = describeThreadEnding(outcome, request.trigger, describeEnding(outcome).next)
      record.know(outcome.jobId, told.keeps)
      await reply.finish(
        async (thread) => {
          const body = writeOutcomeReply(outcome, {
            ...thread,
            routed,
            elapsedMs,
            pullRequest: await pullRequest,
            told
          })
          // A queued request's record is written before this reply's last edit: a reporting run may have
          // made its job and told it here meanwhile, and its words (and the thread's record) stand.
          if (outcome.ending !== 'queued' || outcome.unkept || reply.id === undefined) return body
          return (await readTakenOver(thread.octokit, comment, reply.id, thread.runUrl)) ?? body
        },
        opened,
        bound
      )
      if (!reply.finalShown && record.jobId()) log.warning(describeUnrecordedEnding(where, record, request.trigger))
    }
  }
}

/** Resolves when `signal` aborts: for a wait that must not outlast it. */
function whenAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve()
    else signal.addEventListener('abort', () => resolve(), { once: true })
  })
}
