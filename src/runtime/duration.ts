import { MAX_TIMER_MS } from './deadline.js'
import { ActionError } from './errors.js'

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/

export interface DurationBounds {
  /** The shortest accepted, in whole milliseconds (default 1ms). */
  minMs?: number
  /** Why nothing shorter is accepted, for the error. */
  whyMin?: string
}

/**
 * Reads `500ms`, `90s`, `15m`, `1h` or a bare number of seconds, as whole milliseconds. Anything
 * else is an error that quotes what was given, so a typo in a workflow is found on the first run,
 * not after 30 minutes; so is a duration that rounds below `minMs`, or that no timer can hold.
 */
export function parseDuration(text: string, inputName: string, bounds: DurationBounds = {}): number {
  const match = DURATION.exec(text.trim())
  const exact = match ? Number(match[1]) * UNIT_MS[match[2] ?? 's'] : NaN
  if (!Number.isFinite(exact) || exact <= 0) {
    const meant = nearMissDuration(text)
    throw new ActionError(
      `Input ${inputName} is '${text}', which is not a duration. ${meant ? `Did you mean ${meant}? ` : ''}` +
        `Use a positive number with ms, s, m or h (500ms, 90s, 15m, 1h), or a bare number of seconds.`
    )
  }
  const ms = Math.round(exact)
  const minMs = bounds.minMs ?? 1
  if (ms < minMs) {
    const shortest = minMs % 1000 === 0 ? `${minMs / 1000}s` : `${minMs}ms`
    throw new ActionError(
      `Input ${inputName} is '${text}', which is shorter than ${shortest}, the shortest accepted` +
        `${bounds.whyMin ? `: ${bounds.whyMin}` : ''}. Use ${shortest} or more.`
    )
  }
  if (ms > MAX_TIMER_MS) {
    throw new ActionError(
      `Input ${inputName} is '${text}', which is longer than a timer can hold. ` +
        `The largest accepted value is ${MAX_TIMER_MS}ms, about ${Math.floor(MAX_TIMER_MS / 3_600_000)}h ` +
        `(${Math.floor(MAX_TIMER_MS / 8_640_000) / 10} days).`
    )
  }
  return ms
}

// The words people write for a unit ("30 minutes", "2hrs", "90 sec"), each to the unit the action reads.
const UNIT_WORDS: [RegExp, string][] = [
  [/^(ms|msecs?|millis|milliseconds?)$/, 'ms'],
  [/^(s|secs?|seconds?)$/, 's'],
  [/^(m|mins?|minutes?)$/, 'm'],
  [/^(h|hrs?|hours?)$/, 'h']
]

/**
 * The duration a text that is not one most likely means, written as the action reads it: `30 minutes`
 * and `30M` are `30m`, `1h30m` is `90m`; null when it is not close to one. Told in the error, so the
 * fix is in the same sentence as the refusal (the log's, the summary's and the reply's).
 */
export function nearMissDuration(text: string): string | null {
  const parts = [
    ...text
      .trim()
      .toLowerCase()
      .matchAll(/(\d+(?:\.\d+)?)\s*([a-z]+)\s*/g)
  ]
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== text.trim().toLowerCase()) return null
  let ms = 0
  const units: string[] = []
  for (const [, amount, word] of parts) {
    const unit = UNIT_WORDS.find(([pattern]) => pattern.test(word))?.[1]
    if (!unit) return null
    units.push(unit)
    ms += Number(amount) * UNIT_MS[unit]
  }
  if (!(ms > 0)) return null
  // One part keeps its unit; several are said in the largest unit that holds their sum whole.
  if (parts.length === 1) return `${parts[0][1]}${units[0]}`
  const unit = ['h', 'm', 's'].find((u) => ms % UNIT_MS[u] === 0) ?? 'ms'
  return `${Math.round(ms / UNIT_MS[unit])}${unit}`
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
