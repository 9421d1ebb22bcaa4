import type { TriggeringComment } from './trigger.js'
import { Input } from '../kernel/action-names.js'
import { formatDuration } from '../runtime/duration.js'
import { runLink, type Octokit } from '../github/octokit.js'
import type { Runner } from '../github/runner.js'
import { log } from '../runtime/log.js'
import { blankSecrets } from '../safety/run-secrets.js'
import { describeEnding, type KnownJob, type RunOutcome, type ValueFormat } from '../ending/run-ending.js'
import { codeSpan, neutralise } from '../safety/neutralise.js'
import { changeLine, type PullRequestDetails } from '../github/pull-request-details.js'
import { isFinal } from '../service/job-record.js'
import { isSourceOf } from './agent-note-record.js'
import { parsePullRequestLink } from '../github/note-place.js'
import { describeWriteFailure } from '../github/write-failure.js'
import { WRITE_ACCESS } from '../kernel/write-access.js'
import { keepLiveComment, type CommentPlace, type LiveComment } from '../github/live-comment.js'
import type { GitHubSession } from '../github/session.js'
import { threadRecord, describeUnrecordedEnding } from './thread-record.js'
import type { Settings } from '../kernel/settings.js'
import { describeRouteOnThread, describeThreadEnding, type ThreadEnding } from '../ending/thread-words.js'
import type { Route } from '../kernel/route.js'

/**
 * The one reply a comment-triggered run keeps on its thread: posted when the run starts, edited as
 * the run goes (the job id once it exists, each change of status), and at the end (how it ended,
 * the pull request, the job id, how long it took). Nothing here waits on GitHub or throws: edits
 * are coalesced, each is bounded, and the run never waits for one but at its very end.
 */
export interface CommentReplies {
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
  /** The reply's comment id, once posted; undefined while it is not (or never was). */
  replyId(): number | undefined
  /**
   * The reply's comment id once its first post is answered (or found again), waiting at most until
   * `bound` aborts; undefined when there is none by then.
   */
  posted(bound: AbortSignal): Promise<number | undefined>
}

// A reply is a courtesy: each GitHub call is bounded, and once the run has ended, whatever is left
// of them (the final reply included) shares the ending's bound with its other calls (ending-bound.ts).
const REPLY_CALL_MS = 10_000

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
export const NO_REPLIES: CommentReplies = {
  replyId: () => undefined,
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
export function startCommentReplies(
  comment: TriggeringComment,
  github: GitHubSession,
  runner: Pick<Runner, 'runId' | 'serverUrl'>,
  request: ReplyRequest = { trigger: '/docs' }
): CommentReplies {
  if (!github.token) {
    log.warning(
      `${Input.githubToken} is empty: no reaction or reply on the ${describe(comment)}. The job runs all the same.`
    )
    return NO_REPLIES
  }
  const where = describe(comment)
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
    replyId: () => reply.id,
    posted: async (bound) => {
      // A reply not begun has no first post: it is never waited for.
      if (began) await Promise.race([opened, whenAborted(bound)])
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

/**
 * The reply's body when a reporting run has written it (it holds the thread's signed record of a job,
 * which a queued request's own reply never does, or no longer links this run); null when it has not,
 * or it cannot be read.
 */
async function readTakenOver(
  octokit: Octokit,
  comment: TriggeringComment,
  id: number,
  runUrl: string
): Promise<string | null> {
  const [owner, repo] = comment.repository.split('/')
  try {
    const read = await octokit.rest.issues.getComment({
      owner,
      repo,
      comment_id: id,
      request: { signal: AbortSignal.timeout(REPLY_CALL_MS) }
    })
    const body = read.data.body ?? ''
    return body && (body.includes('<!-- docs-agent-record: thread ') || !body.includes(`](${runUrl})`)) ? body : null
  } catch {
    return null
  }
}

/** Resolves when `signal` aborts: for a wait that must not outlast it. */
function whenAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve()
    else signal.addEventListener('abort', () => resolve(), { once: true })
  })
}

/** The 👀 reaction on the comment that asked; who the action writes as, when GitHub's answer says. */
async function react(
  octokit: Octokit,
  comment: TriggeringComment,
  call: LiveComment<{ octokit: Octokit }>['call']
): Promise<string | undefined> {
  const [owner, repo] = comment.repository.split('/')
  const what = comment.kind === 'issue comment' ? 'comment' : comment.kind === 'label' ? 'request' : comment.kind
  const reacted = await call(`react to the ${what} on the ${describe(comment)}`, (signal) => {
    const target = { owner, repo, comment_id: comment.id, content: 'eyes' as const, request: { signal } }
    // A label asked: the 👀 goes on the issue or pull request itself.
    if (comment.kind === 'label') {
      return octokit.rest.reactions.createForIssue({
        owner,
        repo,
        issue_number: comment.thread.number,
        content: 'eyes',
        request: { signal }
      })
    }
    return comment.kind === 'review comment'
      ? octokit.rest.reactions.createForPullRequestReviewComment(target)
      : octokit.rest.reactions.createForIssueComment(target)
  })
  const login = (reacted?.data as { user?: { login?: unknown } | null } | undefined)?.user?.login
  return typeof login === 'string' ? login : undefined
}

/** Where the reply goes: under the comment on the diff (its review thread), or on the conversation. */
function placeReplyOn(comment: TriggeringComment): CommentPlace {
  const [owner, repo] = comment.repository.split('/')
  const issue = { owner, repo, issue_number: comment.thread.number }
  if (comment.kind !== 'review comment') {
    return {
      post: (octokit, body, signal) => octokit.rest.issues.createComment({ ...issue, body, request: { signal } }),
      edit: (octokit, id, body, signal) =>
        octokit.rest.issues.updateComment({ owner, repo, comment_id: id, body, request: { signal } }),
      list: (octokit, since, signal) =>
        octokit.rest.issues.listComments({ ...issue, since, per_page: 100, request: { signal } })
    }
  }
  const pull = { owner, repo, pull_number: comment.thread.number }
  return {
    post: (octokit, body, signal) =>
      octokit.rest.pulls.createReplyForReviewComment({
        ...pull,
        comment_id: comment.replyTo ?? comment.id,
        body,
        request: { signal }
      }),
    edit: (octokit, id, body, signal) =>
      octokit.rest.pulls.updateReviewComment({ owner, repo, comment_id: id, body, request: { signal } }),
    list: (octokit, since, signal) =>
      octokit.rest.pulls.listReviewComments({ ...pull, since, per_page: 100, request: { signal } })
  }
}

/** The first reply, at once. It never starts with the trigger, so it cannot start a run itself. */
export function writeStartedReply(runUrl: string): string {
  return `👀 On it: a documentation agent job is starting for this request. [Follow the workflow run](${runUrl}); this comment is updated as it goes.`
}

/**
 * The reply while the run goes: the job's id and its status as last read (and, after a message, that it
 * was sent). The waiting mark only while the job works: a final status read before the run ends is said
 * without it, and after a message the job's old final status is not shown as if it were the news.
 */
export function writeProgressReply(outcome: KnownJob, runUrl: string, routed: string | null = null): string {
  const id = VALUES_IN_CODE_SPANS.id(outcome.jobId)
  const status = outcome.job ? VALUES_IN_CODE_SPANS.status(outcome.job.status) : '`starting`'
  const final = outcome.job !== null && isFinal(outcome.job.status)
  const state = outcome.followUp
    ? final
      ? `⏳ The instruction went to job ${id} as a follow-up; waiting for the agent to take it up`
      : `⏳ The instruction went to job ${id} as a follow-up; it is ${status}`
    : final
      ? `Job ${id} is ${status}; the run is finishing`
      : `⏳ Job ${id} is ${status}`
  const where = routed ? ` ${routed}` : ''
  return blankSecrets(`${state}.${where} [Follow the workflow run](${runUrl}); this comment is updated as it goes.`)
}

// A reply is posted where the runner's masking does not apply and Markdown is rendered: the
// service's values go in code spans (no mention, link or image works there; a backslash would not
// stop a mention), and the whole body is blanked of secrets.
const VALUES_IN_CODE_SPANS: ValueFormat = {
  id: (jobId) => codeSpan(neutralise(jobId)),
  status: (status) => codeSpan(neutralise(status)),
  link: (url) => codeSpan(neutralise(url))
}

/** Where a link the reply shows as a code span is a link: the summary on the workflow run's page. */
const LIVE_IN_SUMMARY = "a link in the workflow run's summary"

/**
 * The values as VALUES_IN_CODE_SPANS shows them, but for a pull request on this GitHub (`serverUrl`) in the
 * job's own source repository: that one is written as GitHub's reference, `owner/repo#7`, which
 * GitHub renders as a link to that pull request and nothing else (its owner and name are letters,
 * digits and . _ - only, checked by parsePullRequestLink). Any other link is a code span, with where it
 * is a link: GitHub would make any https address with a /pull/N path a live link the
 * repository's bot posted.
 */
function threadFormat(sourceRepository: string | null, serverUrl: string): ValueFormat {
  return {
    ...VALUES_IN_CODE_SPANS,
    link: (url) => {
      const pr = parsePullRequestLink(url, serverUrl)
      if (pr && isSourceOf(sourceRepository, pr, serverUrl)) return `${pr.owner}/${pr.repo}#${pr.number}`
      // Its address, not live, and where a reader finds it live.
      return `${VALUES_IN_CODE_SPANS.link(url)} (${LIVE_IN_SUMMARY})`
    }
  }
}

/** What the reply once the run ends is written from, besides the outcome. */
export interface OutcomeReplyParts {
  /** The workflow run's page, and this GitHub's address. */
  runUrl: string
  serverUrl: string
  /** Where the request went, when the thread alone does not say (describeRouteOnThread). */
  routed?: string | null
  /** How long the run took. */
  elapsedMs: number
  /** The pull request the job opened, as GitHub showed it; null when it was not read. */
  pullRequest?: PullRequestDetails | null
  /** What the thread keeps after this ending (thread-words.ts); the default trigger's words by default. */
  told?: ThreadEnding
}

/**
 * The reply once the run ends: the pull request (with its title, state, files and lines when GitHub
 * showed it), no changes, failed, timed out..., the step a person on the thread can take where there
 * is one, the one line on how to ask for more (thread-words.ts: never a step for the workflow's
 * author, which the summary keeps), then how long the run took. The sentence names the job, so
 * nothing after it does again. Its words are the action's own; the service's and GitHub's only as
 * code spans or as GitHub's own reference to a pull request (see threadFormat), and a pull request
 * link only of the shape pull-request-link.ts accepts.
 */
export function writeOutcomeReply(
  outcome: RunOutcome,
  {
    runUrl,
    serverUrl,
    routed = null,
    elapsedMs,
    pullRequest = null,
    told = describeThreadEnding(outcome, '/docs', describeEnding(outcome).next)
  }: OutcomeReplyParts
): string {
  const format = threadFormat(outcome.job?.sourceRepository ?? null, serverUrl)
  const { icon, short } = describeEnding(outcome, format)
  const agentDid = pullRequest ? `\n\n${codeSpan(neutralise(pullRequest.title))} · ${changeLine(pullRequest)}` : ''
  // Said once the service took the request: an error or a cancel says what became of it instead.
  const took = ['final', 'created', 'timeout', 'noSign'].includes(outcome.ending)
  const wentTo = routed && took ? `\n\n${routed}` : ''
  const nextStep = told.next ? `\n\n${told.next}` : ''
  const askForMore = told.askForMore ? `\n\n${told.askForMore}` : ''
  return blankSecrets(
    `${icon} ${short}${agentDid}${wentTo}${nextStep}${askForMore}\n\nTook ${formatDuration(elapsedMs)} · [Workflow run](${runUrl})`
  )
}

function describe(comment: TriggeringComment): string {
  return `${comment.thread.kind} #${comment.thread.number}`
}
