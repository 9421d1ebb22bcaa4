import { readFileSync } from 'node:fs'
import { Input } from './constants.js'
import { ActionError } from './errors.js'
import { neutralise } from './untrusted-text.js'

/** The comment that started a job, and the thread it was written on. */
export interface TriggeringComment {
  /** The comment's id, for the 👀 reaction. */
  id: number
  /** Who wrote it (login). */
  author: string
  /** `owner/name` of the repository the thread is in. */
  repository: string
  /** The issue or pull request the comment is on. */
  thread: { kind: 'issue' | 'pull request'; number: number; title: string; url: string }
}

/** What a comment-triggered run does: start a job with `prompt`, or start nothing, for `reason`. */
export type CommentRequest =
  { start: true; prompt: string; comment: TriggeringComment } | { start: false; reason: string }

export interface CommentRules {
  /** The prefix that marks a comment as an instruction, e.g. `/docs`. */
  trigger: string
  /** The author_association values whose comments may start a job, upper-case. */
  allowedAssociations: string[]
  /** `GITHUB_SERVER_URL`, for the thread's link in the prompt. */
  serverUrl: string
  /** `GITHUB_REPOSITORY`, when the runner sets it (the payload's repository otherwise). */
  repository?: string
}

// owner/name as GitHub allows them: it goes into API paths and into the link of every reply.
const REPOSITORY = /^[A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+$/

/**
 * Reads the issue_comment event of a comment-triggered run (see Settings.comment) and decides
 * whether it starts a job.
 */
export function readCommentRequest(
  rules: Pick<CommentRules, 'trigger' | 'allowedAssociations'>,
  env: NodeJS.ProcessEnv = process.env
): CommentRequest {
  return decideComment(readPayload(env.GITHUB_EVENT_PATH), {
    ...rules,
    serverUrl: (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, ''),
    repository: env.GITHUB_REPOSITORY || undefined
  })
}

/**
 * Decides whether an issue_comment payload starts a job. The order matters only for what the log
 * says: an edit, then a bot, then a comment that is not an instruction, then an author who may not
 * give one, then an instruction with nothing in it.
 */
export function decideComment(payload: unknown, rules: CommentRules): CommentRequest {
  const event = asObject(payload)
  const comment = asObject(event.comment)
  const issue = asObject(event.issue)
  const user = asObject(comment.user)
  if (typeof comment.id !== 'number' || typeof issue.number !== 'number') {
    throw new ActionError(
      'The issue_comment event has no comment or no issue in its payload (GITHUB_EVENT_PATH); there is nothing to read a prompt from.'
    )
  }
  // The payload's texts are outside text: they reach the log only neutralised.
  const author = neutralise(text(user.login), 60) || 'someone'
  const association = (text(comment.author_association) || 'NONE').toUpperCase()

  if (event.action !== 'created') {
    return skip(
      `The comment was ${neutralise(text(event.action), 40) || 'changed'}, not created: only a new comment starts a job. Write a new comment starting with ${rules.trigger}.`
    )
  }
  if (user.type === 'Bot') return skip(`The comment is by a bot (${author}): comments by bots never start a job.`)
  const instruction = instructionAfter(text(comment.body), rules.trigger)
  if (instruction === null) return skip(`The comment does not start with ${rules.trigger}: it starts nothing.`)
  if (!rules.allowedAssociations.includes(association)) {
    return skip(
      `The comment by ${author} starts with ${rules.trigger}, but their association with the repository is ${neutralise(association, 40)}, ` +
        `which is not in ${Input.allowedAssociations} (${rules.allowedAssociations.join(', ')}): no job was started.`
    )
  }
  if (instruction === '')
    return skip(
      `The comment by ${author} has nothing after ${rules.trigger}: write the instruction after it, e.g. "${rules.trigger} explain the retry policy".`
    )

  const repository = rules.repository || text(asObject(event.repository).full_name)
  if (!repository)
    throw new ActionError('Neither GITHUB_REPOSITORY nor the event names the repository the comment is in.')
  if (!REPOSITORY.test(repository)) {
    throw new ActionError(
      `The repository the comment is in, '${neutralise(repository, 100)}', is not of the form owner/name; ` +
        `the run cannot answer on its thread. Check GITHUB_REPOSITORY.`
    )
  }
  const isPull = issue.pull_request !== undefined && issue.pull_request !== null
  const triggering: TriggeringComment = {
    id: comment.id,
    author,
    repository,
    thread: {
      kind: isPull ? 'pull request' : 'issue',
      number: issue.number,
      title: text(issue.title),
      url: `${rules.serverUrl}/${repository}/${isPull ? 'pull' : 'issues'}/${issue.number}`
    }
  }
  // Who asked, and where, reaches the agent in the context section (change-context/issue-comment.ts).
  return { start: true, prompt: instruction, comment: triggering }
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

function readPayload(path: string | undefined): unknown {
  if (!path)
    throw new ActionError(
      'The run is an issue_comment event but GITHUB_EVENT_PATH is not set: the comment cannot be read.'
    )
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new ActionError(`The issue_comment event's payload (${path}) could not be read: ${(error as Error).message}.`)
  }
}

function skip(reason: string): CommentRequest {
  return { start: false, reason }
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : ''
}
