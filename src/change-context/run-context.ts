// The context of this run, as main.ts needs it: gathered from the runner's event with the settings
// given, and what there is to say about it logged.
import type { Deadline } from '../deadline.js'
import type { Settings } from '../inputs.js'
import { log } from '../log.js'
import { contextBudgetMs } from '../retry-policy.js'
import { contextRequestFromRunner } from './from-runner.js'
import { gatherChangeContext, type ChangeContext } from './gather.js'

/**
 * Gathers the context for the run's event, unless `context` is none, and logs its warning, its
 * notices and its size. The reads stop at the deadline, on cancel, and once they have taken their
 * share of the time left (contextBudgetMs), so that the create keeps the rest. A push that deleted a
 * branch comes back with `startsNothing`; its notice is then the caller's to give, as the reason no
 * job is started. Never throws.
 */
export async function gatherRunContext(
  settings: Pick<Settings, 'context' | 'contextLimit' | 'githubToken'>,
  promptFromComment: boolean,
  deadline: Deadline,
  env: NodeJS.ProcessEnv = process.env
): Promise<ChangeContext | null> {
  if (settings.context === 'none') return null
  const { signal } = deadline
  const maxMs = contextBudgetMs(deadline.remainingMs())
  const request = contextRequestFromRunner(
    {
      detail: settings.context,
      limit: settings.contextLimit,
      token: settings.githubToken,
      promptFromComment,
      signal,
      maxMs
    },
    env
  )
  const context = await gatherChangeContext(request)
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
