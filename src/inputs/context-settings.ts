// The two inputs that shape the context, checked before anything is sent.
import { Input } from '../kernel/action-names.js'
import { ActionError } from '../runtime/errors.js'
import type { ContextMode } from '../kernel/settings.js'

export const CONTEXT_MODES: readonly ContextMode[] = ['none', 'changes', 'diff']
export const DEFAULT_CONTEXT_MODE: ContextMode = 'changes'
export const DEFAULT_CONTEXT_LIMIT = 20_000
export const CONTEXT_LIMIT_RANGE = { min: 1_000, max: 1_000_000 } as const

/** The `context` input ('' for its default). */
export function parseContextMode(value: string): ContextMode {
  const mode = value.trim().toLowerCase()
  if (mode === '') return DEFAULT_CONTEXT_MODE
  if ((CONTEXT_MODES as readonly string[]).includes(mode)) return mode as ContextMode
  throw new ActionError(
    `Input ${Input.context} is '${value}', which is not one of ${CONTEXT_MODES.join(', ')}. Use changes (the default: ` +
      `the prompt, then what changed), diff (changes and the diffs of the changed files) or none (the prompt alone).`
  )
}

/** The `contextLimit` input ('' for its default): the most characters the context section may take. */
export function parseContextLimit(value: string): number {
  const text = value.trim()
  if (text === '') return DEFAULT_CONTEXT_LIMIT
  const limit = /^\d+$/.test(text) ? Number(text) : NaN
  const { min, max } = CONTEXT_LIMIT_RANGE
  if (!(limit >= min && limit <= max)) {
    throw new ActionError(
      `Input ${Input.contextLimit} is '${value}', which is not a whole number between ${min.toLocaleString('en-US')} and ` +
        `${max.toLocaleString('en-US')}. Give the most characters the context may take, such as ${DEFAULT_CONTEXT_LIMIT} (the default).`
    )
  }
  return limit
}
