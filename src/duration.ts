import { ActionError } from './errors.js'

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/

/**
 * Reads `500ms`, `90s`, `15m`, `1h` or a bare number of seconds. Anything else is an error that
 * quotes what was given, so a typo in a workflow is found on the first run, not after 30 minutes.
 */
export function parseDuration(text: string, inputName: string): number {
  const match = DURATION.exec(text.trim())
  const ms = match ? Number(match[1]) * UNIT_MS[match[2] ?? 's'] : NaN
  if (!Number.isFinite(ms) || ms <= 0) {
    throw new ActionError(
      `Input ${inputName} is '${text}', which is not a duration. ` +
        `Use a positive number with ms, s, m or h (500ms, 90s, 15m, 1h), or a bare number of seconds.`
    )
  }
  return Math.round(ms)
}

/** `1h 2m`, `3m 5s`, `4.2s`, `350ms`: short enough for a log line or a summary cell. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)}s`
  const totalSeconds = Math.round(ms / 1000)
  const h = Math.floor(totalSeconds / 3600)
  const m = Math.floor((totalSeconds % 3600) / 60)
  const s = totalSeconds % 60
  if (h > 0) return m > 0 ? `${h}h ${m}m` : `${h}h`
  if (m > 0) return s > 0 ? `${m}m ${s}s` : `${m}m`
  return `${s}s`
}
