// The inputs of a comment-triggered run (trigger, allowedAssociations): read on their own, before
// the others, so that such a run can answer on its thread even when the other inputs are wrong.
import * as core from '@actions/core'
import { isCommentEvent } from '../github/event.js'
import type { Runner } from '../github/runner.js'
import { isRequestEvent } from '../github/request-event.js'
import { ActionError } from '../runtime/errors.js'
import { hasControlCharacter } from '../safety/neutralise.js'
import { Input } from '../kernel/action-names.js'
import { DEFAULT_ASSOCIATIONS, DEFAULT_TRIGGER, type CommentSettings } from '../kernel/comment-settings.js'

// GitHub's author_association values, so that a typo in the input is an error and not a silent lock-out.
const ASSOCIATIONS = new Set([
  'OWNER',
  'MEMBER',
  'COLLABORATOR',
  'CONTRIBUTOR',
  'FIRST_TIME_CONTRIBUTOR',
  'FIRST_TIMER',
  'MANNEQUIN',
  'NONE'
])
/**
 * The comment-triggered part of the settings, or null when the run is not comment-triggered (a
 * comment event, with neither prompt nor jobId given) nor a label request (without a jobId). Read on its own first, so that a
 * comment-triggered run can answer on its thread even when the other inputs are wrong.
 */
export function readCommentSettings(runner: Pick<Runner, 'event'>): CommentSettings | null {
  // A label request (github/request-event.ts) is one with or without a prompt: the prompt goes first.
  const labelled = isRequestEvent(runner.event)
  const commented = isCommentEvent(runner.event) && !core.getInput(Input.prompt)
  if (!(labelled || commented) || core.getInput(Input.jobId)) return null
  return {
    trigger: readTrigger(core.getInput(Input.trigger) || DEFAULT_TRIGGER),
    allowedAssociations: parseAssociations(core.getInput(Input.allowedAssociations) || DEFAULT_ASSOCIATIONS)
  }
}

/** The trigger, as the note on the agent's pull request names it in any run: the default when the input is unusable. */
export function readNoteTrigger(): string {
  try {
    return readTrigger(core.getInput(Input.trigger) || DEFAULT_TRIGGER)
  } catch {
    return DEFAULT_TRIGGER
  }
}

export function parseAssociations(list: string): string[] {
  const values = list
    .split(/[\s,]+/)
    .map((value) => value.trim().toUpperCase())
    .filter((value) => value !== '')
  const unknown = values.filter((value) => !ASSOCIATIONS.has(value))
  if (values.length === 0 || unknown.length > 0) {
    throw new ActionError(
      `Input ${Input.allowedAssociations} is '${list}'${unknown.length ? `, and ${unknown.join(', ')} is not an author association` : ''}. ` +
        `Give a comma-separated list of ${[...ASSOCIATIONS].join(', ')} (default ${DEFAULT_ASSOCIATIONS}).`
    )
  }
  return values
}

function readTrigger(trigger: string): string {
  if (hasControlCharacter(trigger)) {
    throw new ActionError(
      `Input ${Input.trigger} has a control character in it. Give one word, such as ${DEFAULT_TRIGGER}.`
    )
  }
  if (/\s/.test(trigger)) {
    throw new ActionError(
      `Input ${Input.trigger} is '${trigger}', which has a blank in it. Give one word, such as ${DEFAULT_TRIGGER}.`
    )
  }
  return trigger
}
