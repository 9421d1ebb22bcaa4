// The context of this run, as main.ts needs it: gathered from the runner's event with the settings
// given, and what there is to say about it logged.
import type { Deadline } from '../runtime/deadline.js'
import type { Settings } from '../kernel/settings.js'
import { log } from '../runtime/log.js'
import { READ_LIMITS } from '../github/reader.js'
import { neutralise } from '../safety/neutralise.js'
import type { Blanked } from '../safety/credentials.js'
import type { ChangeContext, GatherSinceMark } from './change-context.js'
import { allSkippedWithoutContext } from './skip-docs.js'
import type { Runner } from '../github/runner.js'
import type { GitHubSession } from '../github/session.js'

/** What the run's context is gathered from: the settings, the step's deadline, and the run's runner and GitHub session. */
export interface RunContextParts {
  settings: Pick<Settings, 'context' | 'contextLimit'>
  /** The prompt is a comment's instruction: the section says who asked it. */
  promptFromComment: boolean
  deadline: Deadline
  runner: Runner
  /** The run's one GitHub session: the context's reads go through it, within the context's limits. */
  github: Pick<GitHubSession, 'token' | 'reader'>
  /** A group's mark: the changes since this commit (see ChangeContextRequest.since). */
  since?: string
  /** The group's gatherer of those changes, for an event with none of its own (see GatherSinceMark). */
  gatherSinceMark?: GatherSinceMark
}

/**
 * Gathers the context for the run's event, unless `context` is none (then only a push of nothing but
 * `[skip docs]` commits is told apart), and logs its warning, its notices and its size. The reads
 * stop at the deadline, on cancel, and once they have taken their share of the time left
 * (contextBudgetMs), so that the create keeps the rest. A push that deleted a branch comes back with
 * `startsNothing`; its notice is then the caller's to give, as the reason no job is started. Never throws.
 */
export async function gatherRunContext({
  settings,
  promptFromComment,
  deadline,
  runner,
  github,
  since = '',
  gatherSinceMark
}: RunContextParts): Promise<ChangeContext | null> {
  if (settings.context === 'none') {
    const notice = allSkippedWithoutContext(runner)
    return notice ? { section: '', notices: [notice], warnings: [], requests: 0, startsNothing: true } : null
  }
  const { signal } = deadline
  const maxMs = contextBudgetMs(deadline.remainingMs())
  // The readers and the renderer load only for a run that gathers a context: the bundle keeps them
  // in a chunk of their own, so that a run with context: none does not load them before its create.
  let gather: typeof import('./change-context.js')
  try {
    gather = await import('./change-context.js')
  } catch (error) {
    // Only a bundle that lost a file gets here; the job goes out all the same, as promised.
    const message = neutralise(error instanceof Error ? error.message : String(error))
    log.warning(`Could not load the code that reads the context: ${message}. The job is created without it.`)
    return null
  }
  const request = {
    ...runner,
    detail: settings.context,
    limit: settings.contextLimit,
    github,
    promptFromComment,
    signal,
    maxMs,
    ...(since && { since })
  }
  const context = await gather.gatherChangeContext(request, READ_LIMITS, gatherSinceMark ?? null)
  for (const warning of context.warnings) log.warning(warning)
  if (context.startsNothing) return context
  for (const notice of context.notices) log.notice(notice)
  await logWhatWasKeptBack(context)
  if (context.section) {
    const reads = context.requests === 1 ? '1 GitHub request' : `${context.requests} GitHub requests`
    log.info(
      `The prompt is sent with ${context.section.length.toLocaleString('en-US')} characters of context ` +
        `(${settings.context}, at most ${settings.contextLimit.toLocaleString('en-US')}; ${reads}).`
    )
  }
  return context
}

/**
 * Blanks the credentials of a review comment's diff hunk, whole, before it is cut to its last lines:
 * the scan loads only for a comment-triggered run. What it blanked is in `blanked`, for the log and
 * the summary (blankInstruction counts it with the instruction's).
 */
export async function hunkBlanker(): Promise<{ blank: (hunk: string) => string; blanked: Blanked[] }> {
  const { blankCredentialsInText } = await import('../safety/credentials.js')
  const blanked: Blanked[] = []
  return {
    blanked,
    blank: (hunk) => {
      const result = blankCredentialsInText(hunk, "the comment's diff hunk")
      blanked.push(...result.blanked)
      return result.text
    }
  }
}

/**
 * A comment's instruction is outside text too, and it is sent (and quoted in the reply) as the
 * prompt: its credentials are blanked, logged and (for the summary) returned like the context's. The scan
 * loads here, with the context, and for the final pass over the prompt: never before a run that sends
 * no outside text.
 */
export async function blankInstruction(
  instruction: string,
  /** Blanked already, in the review comment's diff hunk (hunkBlanker). */
  inHunk: Blanked[] = [],
  /** A label's request is the thread it was put on (thread/label-request.ts), not a comment. */
  from: "comment's instruction" | 'labelled thread' = "comment's instruction"
): Promise<{ text: string; blanked: Blanked[] }> {
  const { blankCredentialsInText } = await import('../safety/credentials.js')
  const result = blankCredentialsInText(instruction, `the ${from}`)
  const blanked = [...inHunk, ...result.blanked]
  await logWhatWasKeptBack({ blanked }, from)
  return { text: result.text, blanked }
}

/** The credentials blanked and the secret files named: how many and where, never a value. */
export async function logWhatWasKeptBack(
  { blanked = [], secretFiles = [] }: Pick<ChangeContext, 'blanked' | 'secretFiles'>,
  what: 'context' | "comment's instruction" | 'labelled thread' | 'prompt' = 'context'
): Promise<void> {
  if (blanked.length > 0) {
    // Loaded already by whoever blanked them (the scan is in the context's chunk).
    const { describeBlanked } = await import('../safety/credentials.js')
    const where =
      what === 'context'
        ? "the repository's history"
        : what === 'prompt'
          ? "the workflow's prompt, its promptFile, or the text it quotes"
          : what === 'labelled thread'
            ? 'the title or body of the issue or pull request'
            : 'the comment, or in the lines of the diff it quotes'
    log.warning(
      `The ${what} held ${blanked.length === 1 ? '1 credential' : `${blanked.length} credentials`}, blanked before ` +
        `sending: ${describeBlanked(blanked)}. The values are not shown; a real one is in ${where}, so rotate it.`
    )
  }
  if (secretFiles.length > 0) {
    const shown =
      secretFiles.slice(0, 10).join(', ') + (secretFiles.length > 10 ? `, and ${secretFiles.length - 10} more` : '')
    log.info(
      `${secretFiles.length === 1 ? '1 changed file holds' : `${secretFiles.length} changed files hold`} credentials ` +
        `by convention, so the context names ${secretFiles.length === 1 ? 'it' : 'them'} without the diff: ${shown}.`
    )
  }
}

/**
 * How long the context's reads may take, with `timeLeftMs` left of the step when they start: at most
 * READ_LIMITS.totalMs, and at most half the time left; the rest is the create's (and the follow's).
 */
export function contextBudgetMs(timeLeftMs: number): number {
  return Math.max(0, Math.min(READ_LIMITS.totalMs, Math.floor(timeLeftMs * 0.5)))
}
