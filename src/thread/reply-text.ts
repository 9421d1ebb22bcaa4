// The words of the thread's reply (comment-reply.ts keeps it live): the first body, the one while
// the run goes and the one once it has ended. A reporting run writes the last of them into the same
// reply later (hand-over/report-job.ts), so they are worded here, apart from the posting.
import { formatDuration } from '../runtime/duration.js'
import { blankSecrets } from '../safety/run-secrets.js'
import { codeSpan, neutralise } from '../safety/neutralise.js'
import { describeEnding } from '../ending/run-ending.js'
import type { ValueFormat } from '../ending/value-format.js'
import type { KnownJob, RunOutcome } from '../kernel/run-outcome.js'
import { describeThreadEnding, type ThreadEnding } from '../ending/thread-words.js'
import { changeLine, type PullRequestDetails } from '../github/pull-request-details.js'
import { parsePullRequestLink } from '../github/note-place.js'
import { isFinal } from '../service/job-record.js'
import { isSourceOf } from './agent-note-record.js'

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
