// The run's event as a value keyed by its name (as claude-code-action's parseGitHubContext): each
// event the action tells apart carries its payload read into its own shape, once, by runner.ts, so a
// stage switches on `event.name` and reads typed fields instead of picking through the payload again.
// The payload is outside text: every field is read with json-shape.ts (a field missing or of the
// wrong type reads as empty, never an error), and texts stay raw here: whoever logs, posts or sends
// one neutralises or quotes it.
import { readFileSync } from 'node:fs'
import { diffLocation, type DiffLocation } from './diff-location.js'
import { asArray, asObject, count, sha, text, type JsonObject } from './json-shape.js'

/** The kinds of comment that can start a run, by the event that brings them. */
export const COMMENT_EVENTS = {
  issue_comment: 'issue comment',
  pull_request_review_comment: 'review comment',
  pull_request_review: 'review'
} as const

export type CommentEventName = keyof typeof COMMENT_EVENTS

/** An account as a payload names it: its login (raw text) and its type (`Bot` for an app). */
export interface PayloadUser {
  login: string
  type: string
}

/** An issue or a pull request as an event carries it; a pull request's own fields are empty for an issue. */
export interface PayloadThread {
  number: number
  /** A pull request, or an issue that is one (an issue comment's `issue` with a `pull_request` key). */
  isPull: boolean
  title: string
  body: string
  user: PayloadUser
  /** The author's association with the repository, as the payload gives it ('' when it gives none). */
  authorAssociation: string
  locked: boolean
  htmlUrl: string
  state: string
  merged: boolean
  draft: boolean
  commits?: number
  changedFiles?: number
  additions?: number
  deletions?: number
  head: { sha: string; ref: string; repository: string; fork: boolean }
  base: { ref: string; repository: string }
}

/** A comment or a review, as a comment event carries it. */
export interface PayloadComment {
  id: number
  body: string
  user: PayloadUser
  authorAssociation: string
  /** A review comment's reply target: the first comment of its thread. */
  inReplyTo?: number
  /** A review comment's place in the diff (empty for the other kinds). */
  location: DiffLocation
}

/** A commit as a push event lists it. */
export interface PushedCommit {
  /** Its full id (entries without a commit id are left out). */
  id: string
  message: string
  /** The author's GitHub login (username) when GitHub knows the account, and the name git has. */
  author: { username: string; name: string }
  added: string[]
  removed: string[]
  modified: string[]
}

export interface PayloadRelease {
  id?: number
  tagName: string
  name: string
  body: string
  prerelease: boolean
  publishedAt: string
  createdAt: string
}

export interface PushEvent {
  name: 'push'
  ref: string
  /** The commit ids, '' when the payload gives none of the right shape (all zeros for a new or deleted branch). */
  before: string
  after: string
  created: boolean
  deleted: boolean
  forced: boolean
  sender: PayloadUser
  /** The pusher's name, as git has it. */
  pusherName: string
  defaultBranch: string
  /** At most 20, as the event lists them. */
  commits: PushedCommit[]
}

export interface PullRequestEvent {
  name: 'pull_request' | 'pull_request_target'
  action: string
  /** Null when the payload numbers no pull request. */
  pullRequest: PayloadThread | null
  sender: PayloadUser
}

export interface CommentEvent {
  name: CommentEventName
  action: string
  /** The comment (or the review); null when the payload has none with an id. */
  comment: PayloadComment | null
  /** The issue (issue_comment) or the pull request it is on; null when the payload numbers none. */
  thread: PayloadThread | null
}

export interface IssuesEvent {
  name: 'issues'
  action: string
  issue: PayloadThread | null
  sender: PayloadUser
}

export interface ReleaseEvent {
  name: 'release'
  action: string
  /** Null when the payload's release has no tag. */
  release: PayloadRelease | null
}

/** Any other event (schedule, workflow_dispatch, ...), or none ('' outside a workflow run): its name alone. */
export interface OtherEvent {
  name: 'other'
  eventName: string
}

/** The run's event, keyed by its name, each with the payload's shape it has. */
export type RunnerEvent = PushEvent | PullRequestEvent | CommentEvent | IssuesEvent | ReleaseEvent | OtherEvent

/** Reads the event named `eventName` from its parsed payload (anything unreadable reads as empty). */
export function readRunnerEvent(eventName: string, payload: unknown): RunnerEvent {
  const event = asObject(payload)
  switch (eventName) {
    case 'push':
      return readPush(event)
    case 'pull_request':
    case 'pull_request_target': {
      const pull = asObject(event.pull_request)
      const number = count(pull.number) ?? count(event.number)
      const pullRequest = number === undefined ? null : readThread(pull, number, true)
      return { name: eventName, action: text(event.action), pullRequest, sender: readUser(event.sender) }
    }
    case 'issue_comment':
    case 'pull_request_review_comment':
    case 'pull_request_review':
      return readCommentEvent(eventName, event)
    case 'issues': {
      const issue = asObject(event.issue)
      const number = count(issue.number)
      const read = number === undefined ? null : readThread(issue, number, false)
      return { name: 'issues', action: text(event.action), issue: read, sender: readUser(event.sender) }
    }
    case 'release':
      return { name: 'release', action: text(event.action), release: readRelease(asObject(event.release)) }
    default:
      return { name: 'other', eventName }
  }
}

/** The event's name as the runner gave it (GITHUB_EVENT_NAME). */
export function eventNameOf(event: RunnerEvent): string {
  return event.name === 'other' ? event.eventName : event.name
}

/** Whether the event is one a comment-triggered run answers. */
export function isCommentEvent(event: RunnerEvent): event is CommentEvent {
  return Object.hasOwn(COMMENT_EVENTS, event.name)
}

/** The pull request the event is about: a pull request event's, or a comment's on one (reviews included). */
export function eventPullRequest(event: RunnerEvent): PayloadThread | null {
  if (event.name === 'pull_request' || event.name === 'pull_request_target') return event.pullRequest
  if (event.name === 'pull_request_review' || event.name === 'pull_request_review_comment') return event.thread
  return null
}

/** The repository the payload names (`repository.full_name`): for a runner that names none. */
export function payloadRepository(payload: unknown): string {
  return text(asObject(asObject(payload).repository).full_name)
}

/** The event payload as read: parsed, or why not (no path given, or the file's own error). */
export type LoadedPayload = { payload: unknown } | { problem: 'no path' } | { problem: 'unreadable'; error: string }

/** Reads and parses the event payload; the caller says what a payload it cannot read means for it. */
export function loadEventPayload(path: string | undefined): LoadedPayload {
  if (!path) return { problem: 'no path' }
  try {
    return { payload: JSON.parse(readFileSync(path, 'utf8')) }
  } catch (error) {
    return { problem: 'unreadable', error: error instanceof Error ? error.message : String(error) }
  }
}

function readPush(event: JsonObject): PushEvent {
  return {
    name: 'push',
    ref: text(event.ref),
    before: sha(event.before),
    after: sha(event.after),
    created: event.created === true,
    deleted: event.deleted === true,
    forced: event.forced === true,
    sender: readUser(event.sender),
    pusherName: text(asObject(event.pusher).name),
    defaultBranch: text(asObject(event.repository).default_branch),
    commits: asArray(event.commits).flatMap((value) => {
      const entry = asObject(value)
      const id = sha(entry.id)
      if (!id) return []
      const author = asObject(entry.author)
      const paths = (field: string) => asArray(entry[field]).map(text).filter(Boolean)
      return [
        {
          id,
          message: text(entry.message),
          author: { username: text(author.username), name: text(author.name) },
          added: paths('added'),
          removed: paths('removed'),
          modified: paths('modified')
        }
      ]
    })
  }
}

function readCommentEvent(name: CommentEventName, event: JsonObject): CommentEvent {
  // An issue comment is on `issue`; a review comment and a review are on `pull_request`.
  const onIssue = name === 'issue_comment'
  const written = asObject(name === 'pull_request_review' ? event.review : event.comment)
  const issue = asObject(onIssue ? event.issue : event.pull_request)
  const id = count(written.id)
  const number = count(issue.number)
  const comment: PayloadComment | null =
    id === undefined
      ? null
      : {
          id,
          body: text(written.body),
          user: readUser(written.user),
          authorAssociation: text(written.author_association),
          inReplyTo: count(written.in_reply_to_id),
          location: diffLocation(name === 'pull_request_review_comment' ? written : {})
        }
  const thread = number === undefined ? null : readThread(issue, number, !onIssue || isPullIssue(issue))
  return { name, action: text(event.action), comment, thread }
}

function readThread(thread: JsonObject, number: number, isPull: boolean): PayloadThread {
  const head = asObject(thread.head)
  const base = asObject(thread.base)
  const headRepository = asObject(head.repo)
  return {
    number,
    isPull,
    title: text(thread.title),
    body: text(thread.body),
    user: readUser(thread.user),
    authorAssociation: text(thread.author_association),
    locked: thread.locked === true,
    htmlUrl: text(thread.html_url),
    state: text(thread.state),
    merged: thread.merged === true,
    draft: thread.draft === true,
    commits: count(thread.commits),
    changedFiles: count(thread.changed_files),
    additions: count(thread.additions),
    deletions: count(thread.deletions),
    head: {
      sha: sha(head.sha),
      ref: text(head.ref),
      repository: text(headRepository.full_name),
      fork: headRepository.fork === true
    },
    base: { ref: text(base.ref), repository: text(asObject(base.repo).full_name) }
  }
}

function isPullIssue(issue: JsonObject): boolean {
  return issue.pull_request !== undefined && issue.pull_request !== null
}

function readUser(value: unknown): PayloadUser {
  const user = asObject(value)
  return { login: text(user.login), type: text(user.type) }
}

function readRelease(release: JsonObject): PayloadRelease | null {
  const tagName = text(release.tag_name)
  if (!tagName) return null
  return {
    id: count(release.id),
    tagName,
    name: text(release.name),
    body: text(release.body),
    prerelease: release.prerelease === true,
    publishedAt: text(release.published_at),
    createdAt: text(release.created_at)
  }
}
