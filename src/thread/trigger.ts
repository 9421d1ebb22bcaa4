import { COMMENT_EVENTS, type CommentEvent } from '../github/event.js'
import type { DiffLocation } from '../github/diff-location.js'
import type { Runner } from '../github/runner.js'
import { FRESH_FLAG, type CommentSettings } from '../kernel/comment-settings.js'
import { Input } from '../kernel/action-names.js'
import { assertNever } from '../runtime/assert-never.js'
import { ActionError } from '../runtime/errors.js'
import { neutralise } from '../safety/neutralise.js'
import { instructionAt } from './review-location.js'

export type CommentKind = (typeof COMMENT_EVENTS)[keyof typeof COMMENT_EVENTS]

/** The comment that started a job, and the thread it was written on. */
export interface TriggeringComment {
  /** The comment's (or review's) id, for the 👀 reaction and the reply. */
  id: number
  /**
   * What was written: a comment on the conversation, a comment on a line of the diff, or a review's
   * body; or a label put on the thread (thread/label-request.ts), whose `id` is the thread's number.
   */
  kind: CommentKind | 'label'
  /** For a review comment: the first comment of its thread, which replies go under (GitHub allows no reply to a reply). */
  replyTo?: number
  /** Who wrote it (login). */
  author: string
  /** `owner/name` of the repository the thread is in. */
  repository: string
  /** The issue or pull request the comment is on. */
  thread: { kind: 'issue' | 'pull request'; number: number; title: string; url: string }
  /** For a review comment: the place in the diff it is on. */
  location?: DiffLocation
  /** For a label request: the thread is locked, so nothing is written on it. */
  locked?: boolean
}

/**
 * What a comment-triggered run does: start with `prompt` (a new job, or a follow-up to the job of
 * the agent's own pull request unless `fresh`), or start nothing, for `reason`.
 */
export type CommentRequest =
  { start: true; prompt: string; comment: TriggeringComment; fresh: boolean } | { start: false; reason: string }

/** The comment settings (trigger, allowedAssociations), and what the runner says of the event. */
export interface CommentRules extends CommentSettings {
  /** `GITHUB_SERVER_URL`, for the thread's link in the prompt. */
  serverUrl: string
  /** The runner's repository (GITHUB_REPOSITORY, or the payload's: runner.ts). */
  repository: string
  /** Blanks the credentials in a review comment's whole diff hunk, before it is cut (review-location.ts). */
  blankHunk?: (hunk: string) => string
}

// owner/name as GitHub allows them: it goes into API paths and into the link of every reply.
const REPOSITORY = /^[A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+$/

/**
 * Reads the comment event of a comment-triggered run (see Settings.comment) and decides whether it
 * starts a job.
 */
export function readCommentRequest(
  rules: CommentSettings & Pick<CommentRules, 'blankHunk'>,
  event: CommentEvent,
  runner: Pick<Runner, 'eventFile' | 'serverUrl' | 'repository'>
): CommentRequest {
  checkEventFile(runner.eventFile)
  return decideComment(event, { ...rules, serverUrl: runner.serverUrl, repository: runner.repository })
}

/**
 * Decides whether a comment event's payload starts a job. The order matters only for what the log
 * says: an edit, then a bot, then a comment that is not an instruction, then an author who may not
 * give one, then an instruction with nothing in it.
 */
export function decideComment(event: CommentEvent, rules: CommentRules): CommentRequest {
  const kind = COMMENT_EVENTS[event.name]
  // An issue comment is on `issue`; a review comment and a review are on `pull_request`.
  const { comment: written, thread: issue } = event
  if (!written || !issue) {
    throw new ActionError(
      `The ${event.name} event has no ${kind === 'review' ? 'review' : 'comment'} or no ${kind === 'issue comment' ? 'issue' : 'pull request'} in its payload ` +
        '(GITHUB_EVENT_PATH); there is nothing to read a prompt from.'
    )
  }
  // The payload's texts are outside text: they reach the log only neutralised.
  const author = neutralise(written.user.login, 60) || 'someone'
  const association = (written.authorAssociation || 'NONE').toUpperCase()
  const what = kind === 'review' ? 'review' : 'comment'

  const expected = kind === 'review' ? 'submitted' : 'created'
  if (event.action !== expected) {
    return skip(
      `The ${what} was ${neutralise(event.action, 40) || 'changed'}, not ${expected}: only a new ${what} starts a job. Write a new comment starting with ${rules.trigger}.`
    )
  }
  if (written.user.type === 'Bot')
    return skip(`The ${what} is by a bot (${author}): ${what}s by bots never start a job.`)
  const given = instructionAfter(written.body, rules.trigger)
  const fresh = given !== null && instructionAfter(given, FRESH_FLAG) !== null
  const instruction = fresh ? instructionAfter(given, FRESH_FLAG) : given
  if (instruction === null) return skip(`The ${what} does not start with ${rules.trigger}: it starts nothing.`)
  if (!rules.allowedAssociations.includes(association)) {
    return skip(
      `The ${what} by ${author} starts with ${rules.trigger}, but their association with the repository is ${neutralise(association, 40)}, ` +
        `which is not in ${Input.allowedAssociations} (${rules.allowedAssociations.join(', ')}): no job was started.`
    )
  }
  if (instruction === '')
    return skip(
      `The ${what} by ${author} has nothing after ${fresh ? `${rules.trigger} ${FRESH_FLAG}` : rules.trigger}: write the instruction after it, e.g. "${rules.trigger} explain the retry policy".`
    )

  const { repository } = rules
  if (!repository)
    throw new ActionError(`Neither GITHUB_REPOSITORY nor the event names the repository the ${what} is in.`)
  if (!REPOSITORY.test(repository)) {
    throw new ActionError(
      `The repository the ${what} is in, '${neutralise(repository, 100)}', is not of the form owner/name; ` +
        `the run cannot answer on its thread. Check GITHUB_REPOSITORY.`
    )
  }
  const { isPull } = issue
  const triggering: TriggeringComment = {
    id: written.id,
    kind,
    author,
    repository,
    thread: {
      kind: isPull ? 'pull request' : 'issue',
      number: issue.number,
      title: issue.title,
      url: `${rules.serverUrl}/${repository}/${isPull ? 'pull' : 'issues'}/${issue.number}`
    }
  }
  // Who asked, and on which thread, reaches the agent in the context section (context/issue-comment.ts);
  // the place in the diff goes with the instruction itself, so that a follow-up carries it too.
  if (kind !== 'review comment') return { start: true, prompt: instruction, comment: triggering, fresh }
  if (written.inReplyTo !== undefined) triggering.replyTo = written.inReplyTo
  const location = (triggering.location = written.location)
  return { start: true, prompt: instructionAt(instruction, location, rules.blankHunk), comment: triggering, fresh }
}

/**
 * The text after the trigger, trimmed, or null when the comment does not start with it. Leading
 * blanks are allowed and case is ignored, as a workflow's `startsWith()` ignores it; the trigger
 * must stand alone (`/docsify` is not `/docs`).
 */
export function instructionAfter(body: string, trigger: string): string | null {
  const start = body.trimStart()
  if (start.slice(0, trigger.length).toLowerCase() !== trigger.toLowerCase()) return null
  const rest = start.slice(trigger.length)
  if (rest !== '' && !/^\s/.test(rest)) return null
  return rest.replace(/\r\n?/g, '\n').trim()
}

/** A comment's run stops when its event file could not be read: there is no comment to answer. */
function checkEventFile(file: Runner['eventFile']): void {
  switch (file.problem) {
    case null:
      return
    case 'no path':
      throw new ActionError('The run is a comment event but GITHUB_EVENT_PATH is not set: the comment cannot be read.')
    case 'unreadable':
      throw new ActionError(`The comment event's payload (${file.path}) could not be read: ${file.error}.`)
    default:
      return assertNever(file, 'event file')
  }
}

function skip(reason: string): CommentRequest {
  return { start: false, reason }
}
