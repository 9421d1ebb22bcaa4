import { COMMENT_EVENTS, isCommentEvent } from '../github/event.js'
import type { Runner } from '../github/runner.js'
import { asObject, text } from '../github/json-shape.js'
import { FRESH_FLAG, type CommentSettings } from '../inputs/comment-settings.js'
import { Input } from '../inputs/action-names.js'
import { ActionError } from '../runtime/errors.js'
import { neutralise } from '../safety/neutralise.js'
import { diffLocation, instructionAt, type DiffLocation } from './review-location.js'

export type CommentKind = (typeof COMMENT_EVENTS)[keyof typeof COMMENT_EVENTS]

/** The comment that started a job, and the thread it was written on. */
export interface TriggeringComment {
  /** The comment's (or review's) id, for the 👀 reaction and the reply. */
  id: number
  /**
   * What was written: a comment on the conversation, a comment on a line of the diff, or a review's
   * body; or a label put on the thread (comment/label-request.ts), whose `id` is the thread's number.
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
  /** `GITHUB_REPOSITORY`, when the runner sets it (the payload's repository otherwise). */
  repository?: string
  /** `GITHUB_EVENT_NAME`: which of COMMENT_EVENTS brought the comment (default issue_comment). */
  eventName?: string
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
  runner: Runner
): CommentRequest {
  return decideComment(commentPayload(runner.eventFile), {
    ...rules,
    serverUrl: runner.serverUrl,
    repository: runner.repository || undefined,
    eventName: runner.eventName
  })
}

/**
 * Decides whether a comment event's payload starts a job. The order matters only for what the log
 * says: an edit, then a bot, then a comment that is not an instruction, then an author who may not
 * give one, then an instruction with nothing in it.
 */
export function decideComment(payload: unknown, rules: CommentRules): CommentRequest {
  const eventName = isCommentEvent(rules.eventName) ? rules.eventName : 'issue_comment'
  const kind = COMMENT_EVENTS[eventName]
  const event = asObject(payload)
  // An issue comment is on `issue`; a review comment and a review are on `pull_request`.
  const written = asObject(kind === 'review' ? event.review : event.comment)
  const issue = asObject(kind === 'issue comment' ? event.issue : event.pull_request)
  const user = asObject(written.user)
  if (typeof written.id !== 'number' || typeof issue.number !== 'number') {
    throw new ActionError(
      `The ${eventName} event has no ${kind === 'review' ? 'review' : 'comment'} or no ${kind === 'issue comment' ? 'issue' : 'pull request'} in its payload ` +
        '(GITHUB_EVENT_PATH); there is nothing to read a prompt from.'
    )
  }
  // The payload's texts are outside text: they reach the log only neutralised.
  const author = neutralise(text(user.login), 60) || 'someone'
  const association = (text(written.author_association) || 'NONE').toUpperCase()
  const what = kind === 'review' ? 'review' : 'comment'

  const expected = kind === 'review' ? 'submitted' : 'created'
  if (event.action !== expected) {
    return skip(
      `The ${what} was ${neutralise(text(event.action), 40) || 'changed'}, not ${expected}: only a new ${what} starts a job. Write a new comment starting with ${rules.trigger}.`
    )
  }
  if (user.type === 'Bot') return skip(`The ${what} is by a bot (${author}): ${what}s by bots never start a job.`)
  const given = instructionAfter(text(written.body), rules.trigger)
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

  const repository = rules.repository || text(asObject(event.repository).full_name)
  if (!repository)
    throw new ActionError(`Neither GITHUB_REPOSITORY nor the event names the repository the ${what} is in.`)
  if (!REPOSITORY.test(repository)) {
    throw new ActionError(
      `The repository the ${what} is in, '${neutralise(repository, 100)}', is not of the form owner/name; ` +
        `the run cannot answer on its thread. Check GITHUB_REPOSITORY.`
    )
  }
  const isPull = kind !== 'issue comment' || (issue.pull_request !== undefined && issue.pull_request !== null)
  const triggering: TriggeringComment = {
    id: written.id,
    kind,
    author,
    repository,
    thread: {
      kind: isPull ? 'pull request' : 'issue',
      number: issue.number,
      title: text(issue.title),
      url: `${rules.serverUrl}/${repository}/${isPull ? 'pull' : 'issues'}/${issue.number}`
    }
  }
  // Who asked, and on which thread, reaches the agent in the context section (context/issue-comment.ts);
  // the place in the diff goes with the instruction itself, so that a follow-up carries it too.
  if (kind !== 'review comment') return { start: true, prompt: instruction, comment: triggering, fresh }
  const replyTo = written.in_reply_to_id
  if (typeof replyTo === 'number' && Number.isSafeInteger(replyTo)) triggering.replyTo = replyTo
  const location = (triggering.location = diffLocation(written))
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

function commentPayload(loaded: Runner['eventFile']): unknown {
  if ('payload' in loaded) return loaded.payload
  if (loaded.problem === 'no path')
    throw new ActionError('The run is a comment event but GITHUB_EVENT_PATH is not set: the comment cannot be read.')
  throw new ActionError(`The comment event's payload (${loaded.path}) could not be read: ${loaded.error}.`)
}

function skip(reason: string): CommentRequest {
  return { start: false, reason }
}
