// The context section for the agent: what the event is, and what changed, read from the event and
// GitHub's API before the create. It may cost the create a few requests and at most a few seconds,
// and it never stops the create: whatever goes wrong is a warning, and a thinner section.
import { Input } from '../kernel/action-names.js'
import { blankCredentials, type Blanked } from '../safety/credentials.js'
import { GitHubReader, READ_LIMITS, UNUSABLE_API_URL, type ReadLimits } from '../github/reader.js'
import { Gathering, type ChangeContextRequest, type Gathered, type SinceCover } from './gather-session.js'
import { gatherIssueComment } from './issue-comment.js'
import { gatherIssue } from './issue.js'
import { sha } from '../github/json-shape.js'
import { eventNameOf, type RunnerEvent } from '../github/event.js'
import { assertNever } from '../runtime/assert-never.js'
import { oneLineCodeSpan, oneLine } from '../safety/quote-for-agent.js'
import { gatherPullRequest } from './pull-request.js'
import { gatherPush } from './push.js'
import { failuresWarning, ReadFailure } from '../github/read-failure.js'
import { gatherRelease } from './release.js'
import { renderSection, type LeftOut } from './render.js'
import { allSkippedNotice, leaveOutSkipDocs } from './skip-docs.js'

export type { ChangeContextRequest, SinceCover } from './gather-session.js'

/** The context section and what to log about it. */
export interface ChangeContext {
  /** The section to send after the prompt and a blank line; '' when there is none. */
  section: string
  /** For the log as notices: how the context was narrowed, and why nothing is started. */
  notices: string[]
  /** At most one: the reads that failed, which permission or what to do, and what the section holds instead. */
  warnings: string[]
  /** GitHub API requests sent. */
  requests: number
  /** The event asks for no job (a push that deleted a branch): the notices say why. */
  startsNothing: boolean
  /** Credentials blanked in the section (see safety/credentials.ts), and files whose diff is never sent. */
  blanked?: Blanked[]
  secretFiles?: string[]
  /** Commits left out of the section because their message says `[skip docs]`. */
  skippedCommits?: number
  /** What the section does not hold whole, and why (the renderer's account, for the summary). */
  leftOut?: LeftOut[]
  /** With a group's mark: whether the section tells of every change since it. */
  since?: SinceCover
}

const NOTHING: ChangeContext = { section: '', notices: [], warnings: [], requests: 0, startsNothing: false }

/** The event's own gatherer; null for an event with none (it is told in one line, or since a group's mark). */
function gathererOf(event: RunnerEvent): ((gathering: Gathering) => Promise<Gathered>) | null {
  switch (event.name) {
    case 'push':
      return (gathering) => gatherPush(gathering, event)
    case 'pull_request':
    case 'pull_request_target':
      return (gathering) => gatherPullRequest(gathering, event)
    case 'issues':
      return (gathering) => gatherIssue(gathering, event)
    case 'issue_comment':
    case 'pull_request_review_comment':
    case 'pull_request_review':
      return (gathering) => gatherIssueComment(gathering, event)
    case 'release':
      return (gathering) => gatherRelease(gathering, event)
    case 'other':
      return null
    default:
      return assertNever(event, 'event')
  }
}

/**
 * What an event with no gatherer of its own tells in a run with a group's mark: the changes since the
 * mark. The group owns it (group/since-mark.ts), so the run that has a group hands it in.
 */
export type GatherSinceMark = (gathering: Gathering, eventLine: string) => Promise<Gathered | null>

/**
 * Gathers the context for the event and renders it within `request.limit` characters. Never
 * throws: a bug here costs the context, never the job.
 * @param limits how much the reading may cost; tests make it small
 * @param gatherSinceMark the group's gatherer of the changes since its mark (see GatherSinceMark); null without it
 */
export async function gatherChangeContext(
  request: ChangeContextRequest,
  limits: ReadLimits = READ_LIMITS,
  gatherSinceMark: GatherSinceMark | null = null
): Promise<ChangeContext> {
  // Outside a workflow run (a local run) there is no event to tell of.
  if (!eventNameOf(request.event)) return NOTHING
  const repository = repositoryOf(request)
  const reader = repository ? openReader({ ...request, repository }, limits) : NO_READER
  const gathering = new Gathering(
    { ...request, repository: repository || 'unknown/unknown' },
    reader.instance,
    reader.failure
  )
  try {
    const gather = repository ? gathererOf(request.event) : null
    // An event with no gatherer of its own, in a run with a group's mark: the range since the mark.
    const sinceMark =
      !gather && repository && gatherSinceMark ? await gatherSinceMark(gathering, eventLine(request, repository)) : null
    const gathered = (gather && (await gather(gathering))) || sinceMark || { facts: null }
    const facts = gathered.facts ?? (gathered.startsNothing ? null : { summary: [eventLine(request, repository)] })
    const skip = facts ? leaveOutSkipDocs(facts) : null
    if (skip?.all) {
      gathering.notices.push(allSkippedNotice(skip.skipped))
      return { ...NOTHING, notices: gathering.notices, requests: gathering.requests, startsNothing: true }
    }
    const scan = facts ? await blankCredentials(facts) : null
    const rendered = scan ? renderSection(scan.facts, request.detail, request.limit) : null
    const section = rendered?.text ?? ''
    const failures = gathering.failures.filter((failure) => failure.kind !== 'cancelled')
    return {
      section,
      notices: gathering.notices,
      warnings: failures.length ? [failuresWarning(failures, gathered.instead ?? '', Input.githubToken)] : [],
      requests: gathering.requests,
      startsNothing: gathered.startsNothing === true,
      ...(gathered.since && { since: gathered.since }),
      ...(scan && { blanked: scan.blanked, secretFiles: scan.secretFiles, skippedCommits: skip?.skipped ?? 0 }),
      ...(rendered && { leftOut: rendered.leftOut })
    }
  } catch (error) {
    return {
      section: '',
      notices: [],
      warnings: [
        `The context for the agent could not be gathered (${oneLine(String(error instanceof Error ? error.message : error), 200)}); the prompt is sent without it. ` +
          "Please report this, with the step's log, as an issue on the action's repository."
      ],
      requests: gathering.requests,
      startsNothing: false
    }
  } finally {
    await reader.instance?.close()
  }
}

/** The events with nothing to read: where the run is, in one line. */
function eventLine(request: ChangeContextRequest, repository: string): string {
  const name = eventNameOf(request.event)
  const event = /^[a-z_]{1,40}$/.test(name) ? name : 'a workflow event'
  const branch = request.refName ? `, branch ${oneLineCodeSpan(request.refName)}` : ''
  const commit = sha(request.sha) ? `, commit ${sha(request.sha)}` : ''
  return `Event: ${event} on ${repository || 'the repository'}${branch}${commit}.`
}

function repositoryOf(request: ChangeContextRequest): string {
  return /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(request.repository) ? request.repository : ''
}

interface Reader {
  instance: GitHubReader | null
  /** Why there is no reader, as the failure of a read. */
  failure: (what: string, permission: ReadFailure['permission']) => ReadFailure
}

// Without a repository no event gatherer runs, so nothing asks why there is no reader.
const NO_READER: Reader = {
  instance: null,
  failure: (what, permission) => new ReadFailure('unreachable', what, permission)
}

/** A reader for the API from the run's session, or why there is none: every read then fails with that, once. */
function openReader(request: ChangeContextRequest, limits: ReadLimits): Reader {
  if (!request.github.token) {
    return { instance: null, failure: (what, permission) => new ReadFailure('no-token', what, permission) }
  }
  // A short timeout cuts the reads' time (and each read's), so that the create keeps its share.
  const totalMs = Math.min(limits.totalMs, request.maxMs ?? Infinity)
  const cut = { ...limits, totalMs, requestMs: Math.max(1, Math.min(limits.requestMs, totalMs)) }
  const reader = request.github.reader(cut, request.signal)
  if (!reader) {
    return {
      instance: null,
      failure: (what, permission) => new ReadFailure('unreachable', what, permission, { detail: UNUSABLE_API_URL })
    }
  }
  return { instance: reader, failure: () => never() }
}

function never(): never {
  throw new Error('A reader exists: no failure stands in for it.')
}
