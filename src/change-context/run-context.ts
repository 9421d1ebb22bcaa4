// The context of this run, as main.ts needs it: gathered from the runner's event with the settings
// given, and what there is to say about it logged.
import type { Settings } from '../inputs.js'
import { log } from '../log.js'
import { neutralise } from '../untrusted-text.js'
import { contextRequestFromRunner } from './from-runner.js'
import type { ChangeContext } from './gather.js'

/**
 * Gathers the context for the run's event, unless `context` is none, and logs its warning, its
 * notices and its size. A push that deleted a branch comes back with `startsNothing`; its notice is
 * then the caller's to give, as the reason no job is started. Never throws.
 */
export async function gatherRunContext(
  settings: Pick<Settings, 'context' | 'contextLimit' | 'githubToken'>,
  promptFromComment: boolean,
  signal: AbortSignal,
  env: NodeJS.ProcessEnv = process.env
): Promise<ChangeContext | null> {
  if (settings.context === 'none') return null
  // The readers and the renderer load only for a run that gathers a context: the bundle keeps them
  // in a chunk of their own, so that a run with context: none does not load them before its create.
  let gather: typeof import('./gather.js')
  try {
    gather = await import('./gather.js')
  } catch (error) {
    // Only a bundle that lost a file gets here; the job goes out all the same, as promised.
    const message = neutralise(error instanceof Error ? error.message : String(error))
    log.warning(`Could not load the code that reads the context: ${message}. The job is created without it.`)
    return null
  }
  const request = contextRequestFromRunner(
    { detail: settings.context, limit: settings.contextLimit, token: settings.githubToken, promptFromComment, signal },
    env
  )
  const context = await gather.gatherChangeContext(request)
  for (const warning of context.warnings) log.warning(warning)
  if (context.startsNothing) return context
  for (const notice of context.notices) log.notice(notice)
  if (context.section) {
    const reads = context.requests === 1 ? '1 GitHub request' : `${context.requests} GitHub requests`
    log.info(
      `The prompt is sent with ${context.section.length.toLocaleString('en-US')} characters of context ` +
        `(${settings.context}, at most ${settings.contextLimit.toLocaleString('en-US')}; ${reads}).`
    )
  }
  return context
}

/** The prompt the service gets: the prompt as given, then, after a blank line, the section if there is one. */
export function promptWithSection(prompt: string, section: string): string {
  return section ? `${prompt}\n\n${section}` : prompt
}
