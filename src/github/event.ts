// What the runner tells a step about its event: the event's name, its payload and the GITHUB_*
// variables, as runner.ts reads them once for every stage; and the events a comment starts a run by.
import { readFileSync } from 'node:fs'

/** The kinds of comment that can start a run, by the event that brings them. */
export const COMMENT_EVENTS = {
  issue_comment: 'issue comment',
  pull_request_review_comment: 'review comment',
  pull_request_review: 'review'
} as const

/** Whether the event is one a comment-triggered run answers. */
export function isCommentEvent(eventName: string | undefined): eventName is keyof typeof COMMENT_EVENTS {
  return eventName !== undefined && Object.hasOwn(COMMENT_EVENTS, eventName)
}

/** The run's event and repository, as the runner's environment (GITHUB_*) names them. */
export interface RunnerEvent {
  /** GITHUB_EVENT_NAME. */
  eventName: string
  /** The event payload, parsed (the event file); anything unreadable is `{}`. */
  payload: unknown
  /** GITHUB_REPOSITORY, `owner/name`. */
  repository: string
  /** GITHUB_SERVER_URL (github.com's by default), without a trailing slash: for links. */
  serverUrl: string
  /** GITHUB_API_URL (github.com's by default): the only address the token is sent to. */
  apiUrl: string
  /** GITHUB_RUN_ID, to find this run's workflow. */
  runId?: string
  /** GITHUB_WORKFLOW_REF (`owner/name/.github/workflows/file.yml@ref`): names the workflow without a request. */
  workflowRef?: string
  /** GITHUB_REF_NAME: the branch or tag the run is for. */
  refName?: string
  /** GITHUB_SHA: the commit the run is for. */
  sha?: string
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
