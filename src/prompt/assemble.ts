// The prompt the service gets, put together in one place: promptFile's standing instruction and the
// prompt input (or a comment's instruction), then the change context after a blank line; and what
// that carries, for the summary and a dry run (what-leaves.ts).
import { groupMarkOf, messageSource, type Route } from '../kernel/route.js'
import type { ChangeContext, GatherSinceMark, SinceCover } from '../context/change-context.js'
import { gatherRunContext, logWhatWasKeptBack } from '../context/run-context.js'
import { joinPrompts } from './join-prompts.js'
import type { Settings } from '../kernel/settings.js'
import type { Deadline } from '../runtime/deadline.js'
import type { Runner } from '../github/runner.js'
import type { GitHubSession } from '../github/session.js'
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
  /** With a group's mark: whether the context tells of every change since it (see SinceCover). */
  since?: SinceCover
}

/** What the prompt is made of: the settings, the comment's instruction, the route, and the runner's event for the context. */
export interface PromptParts {
  settings: Settings
  /** A comment's instruction, credentials blanked; null when the run is not comment-triggered. */
  instruction: { text: string; blanked: Blanked[] } | null
  route: Route
  deadline: Deadline
  runner: Runner
  /** The run's GitHub session: the context is read through it. */
  github: Pick<GitHubSession, 'token' | 'reader'>
  /** The group's gatherer of the changes since its mark, handed in by the mode (see GatherSinceMark). */
  gatherSinceMark?: GatherSinceMark
}

/**
 * The prompt that goes out: promptFile's standing instruction first, then the prompt input or the
 * comment's instruction (a follow-up on the agent's pull request is the comment's instruction alone,
 * as with jobId), then what changed (settings.context), read before it is sent, within a few
 * requests and seconds, never in its way (it takes at most half the time left).
 */
export async function preparePrompt({
  settings,
  instruction,
  route,
  deadline,
  runner,
  github,
  gatherSinceMark
}: PromptParts): Promise<Prepared | { skipped: string }> {
  const { text, blanked } = instruction ?? { text: '', blanked: [] }
  // A message to a job the comment's place named (not the jobId input, nor a group) is the instruction alone.
  const toAgentJob = messageSource(route) === 'place'
  const prompt = toAgentJob ? text : joinPrompts(settings.prompt, text)
  // A group's job (or a new job of the group) is told of the changes since the group's mark: the last
  // commit a job of the group was told of.
  const since = groupMarkOf(route)
  const context: ChangeContext | null = prompt
    ? await gatherRunContext({
        settings,
        promptFromComment: instruction !== null,
        deadline,
        runner,
        github,
        since,
        gatherSinceMark
      })
    : null
  if (context?.startsNothing) return { skipped: context.notices.join(' ') }
  if (!prompt) return { prompt, context: '', sent: '', leaving: null }
  // The final pass: the prompt as it goes (promptFile's text, the prompt input or the instruction, and
  // the section), scanned once more after every cut, so that what is scanned is what is sent.
  const final = await blankWhatIsSent(prompt, context?.section ?? '')
  const leaving = whatLeaves({
    sent: final.sent,
    prompt: final.prompt,
    context,
    settings,
    instructionBlanked: [...blanked, ...final.blanked]
  })
  return {
    prompt: final.prompt,
    context: final.section,
    sent: final.sent,
    leaving,
    ...(context?.since && { since: context.since })
  }
}

/**
 * The final pass over what is sent: the prompt (promptFile's text, the prompt input or the comment's
 * instruction) and the context section, after every normalisation and cut, scanned once more, so that
 * what is scanned is exactly what is sent. Returns the prompt as sent, its two parts as the summary
 * shows them, and what this pass blanked (logged), which the earlier passes could not see. The scan
 * loads here, for a run that sends a prompt.
 */
export async function blankWhatIsSent(
  prompt: string,
  section: string
): Promise<{ sent: string; prompt: string; section: string; blanked: Blanked[] }> {
  const { blankPrompt } = await import('../safety/credentials.js')
  const {
    texts: [sent, blankedPrompt, blankedSection],
    blanked
  } = blankPrompt([promptWithSection(prompt, section), prompt, section])
  await logWhatWasKeptBack({ blanked }, 'prompt')
  return { sent, prompt: blankedPrompt, section: blankedSection, blanked }
}

/** The prompt the service gets: the prompt as given, then, after a blank line, the section if there is one. */
export function promptWithSection(prompt: string, section: string): string {
  return section ? `${prompt}\n\n${section}` : prompt
}
