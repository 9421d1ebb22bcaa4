// The prompt the service gets, put together in one place: promptFile's standing instruction and the
// prompt input (or a comment's instruction), then the change context after a blank line; and what
// that carries, for the summary and a dry run (what-leaves.ts).
import type { ChangeContext } from '../context/change-context.js'
import { gatherRunContext } from '../context/for-this-run.js'
import { joinPrompts } from '../inputs/prompt-file.js'
import type { Settings } from '../inputs/settings.js'
import type { Deadline } from '../runtime/deadline.js'
import type { Blanked } from '../safety/credentials.js'
import { whatLeaves, type WhatLeaves } from './what-leaves.js'

/** The prompt that goes out, and what it carries, for the summary. */
export interface Prepared {
  /** The prompt as given: promptFile's and the input's, or the comment's instruction. */
  prompt: string
  /** The context section sent after the prompt; empty when there is none. */
  context: string
  /** Exactly what is sent. */
  sent: string
  leaving: WhatLeaves | null
}

/**
 * The prompt that goes out: promptFile's standing instruction first, then the prompt input or the
 * comment's instruction (a follow-up on the agent's pull request is the comment's instruction alone,
 * as with jobId), then what changed (settings.context), read before it is sent, within a few
 * requests and seconds, never in its way (it takes at most half the time left).
 */
export async function preparePrompt(
  settings: Settings,
  /** A comment's instruction, credentials blanked; null when the run is not comment-triggered. */
  instruction: { text: string; blanked: Blanked[] } | null,
  toAgentJob: boolean,
  deadline: Deadline
): Promise<Prepared | { skipped: string }> {
  const { text, blanked } = instruction ?? { text: '', blanked: [] }
  const prompt = toAgentJob ? text : joinPrompts(settings.prompt, text)
  const context: ChangeContext | null = prompt ? await gatherRunContext(settings, instruction !== null, deadline) : null
  if (context?.startsNothing) return { skipped: context.notices.join(' ') }
  const section = context?.section ?? ''
  const sent = promptWithSection(prompt, section)
  const leaving = prompt ? whatLeaves(sent, prompt, context, settings, blanked) : null
  return { prompt, context: section, sent, leaving }
}

/** The prompt the service gets: the prompt as given, then, after a blank line, the section if there is one. */
export function promptWithSection(prompt: string, section: string): string {
  return section ? `${prompt}\n\n${section}` : prompt
}
