// A request by label: an `issues` event (labeled, or opened with the label already set) or a
// `pull_request` `labeled` event. The workflow's `if:` picks the label (`docs`, say); the action
// takes every such event that reaches it as a request, and checks who labelled.
import type { IssuesEvent, PullRequestEvent, RunnerEvent } from './event.js'

/** The events a label request comes by: any `issues` event, and a `pull_request` one when it is `labeled`. */
export function isRequestEvent(event: RunnerEvent): event is IssuesEvent | PullRequestEvent {
  if (event.name === 'issues') return true
  return event.name === 'pull_request' && event.action === 'labeled'
}

/** The `issues` actions that start a job; any other (edited, closed...) starts nothing. */
export const REQUEST_ACTIONS = ['labeled', 'opened'] as const
