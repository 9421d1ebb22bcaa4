// What leaves the repository for the service, said where the user looks: the job summary counts it
// (the prompt's size, the context's, what the context left out, the credentials blanked and the
// secret files named), and a dry run shows the exact prompt in the log and the summary instead of
// sending it.
import { describeBlanked, type Blanked } from '../safety/credentials/blanked.js'
import type { ChangeContext } from '../context/change-context.js'
import { log } from '../runtime/log.js'
import { plural } from '../runtime/plural.js'

export interface WhatLeaves {
  dryRun: boolean
  /** Exactly what is sent as the job's prompt. */
  sent: string
  /** The prompt as given, before the context. */
  promptChars: number
  contextChars: number
  contextLimit: number
  /** The section's own sentences that say what it left out (context/render.ts records them). */
  leftOut: string[]
  blanked: Blanked[]
  secretFiles: string[]
  /** Commits left out for `[skip docs]`. */
  skippedCommits: number
  /** False when the run ended before the prompt started to go out (a cancel, the timeout); true once it did. */
  wasSent?: boolean
}

export function whatLeaves({
  sent,
  prompt,
  context,
  settings,
  instructionBlanked = []
}: {
  sent: string
  prompt: string
  context: ChangeContext | null
  settings: { dryRun: boolean; contextLimit: number }
  /** Credentials blanked in a comment's instruction, which is sent as the prompt. */
  instructionBlanked?: Blanked[]
}): WhatLeaves {
  const section = context?.section ?? ''
  return {
    dryRun: settings.dryRun,
    sent,
    promptChars: prompt.length,
    contextChars: section.length,
    contextLimit: settings.contextLimit,
    leftOut: (context?.leftOut ?? []).map((gap) => gap.sentence),
    blanked: [...instructionBlanked, ...(context?.blanked ?? [])],
    secretFiles: context?.secretFiles ?? [],
    skippedCommits: context?.skippedCommits ?? 0
  }
}

/** A dry run: the exact prompt in the log, line by line (its status output is ending/outputs.ts's). */
export function showDryRun(what: WhatLeaves | null): void {
  if (!what) return
  log.info(`Dry run: the prompt that would be sent (${chars(what.sent.length)}), between the lines of dashes:`)
  log.info('-'.repeat(40))
  for (const line of what.sent.split('\n')) log.info(line)
  log.info('-'.repeat(40))
}

/** The summary's account of what left (or, in a dry run, would leave), escaped for HTML, on one line. */
export function whatLeavesHtml(what: WhatLeaves, escape: (text: string) => string): string {
  const verb = what.dryRun
    ? 'Would be sent'
    : what.wasSent === false
      ? 'Not sent (the run ended before it went out)'
      : 'Sent to the service'
  const items = [
    `${verb}: ${chars(what.sent.length)}: the prompt, ${chars(what.promptChars)}` +
      (what.contextChars
        ? `, and the context, ${chars(what.contextChars)} (at most ${what.contextLimit.toLocaleString('en-US')}).`
        : ', and no context.')
  ]
  if (what.leftOut.length) {
    const said = listWithin(what.leftOut.map(shortened), ' ', (n) => `(${plural(n, 'more sentence')} left out here.)`)
    items.push(`The context left out: ${said}`)
  }
  if (what.skippedCommits) {
    items.push(`Commits marked [skip docs] left out: ${what.skippedCommits.toLocaleString('en-US')}.`)
  }
  if (what.blanked.length)
    items.push(`Credentials blanked before sending: ${what.blanked.length}: ${blankedList(what.blanked)}.`)
  if (what.secretFiles.length) {
    const shown = listWithin(what.secretFiles.slice(0, 10).map(shortened), ', ', () => '…')
    const more = what.secretFiles.length > 10 ? ', …' : ''
    items.push(
      `Files that hold credentials by convention, named without their diff: ${what.secretFiles.length} (${shown}${more}).`
    )
  }
  // The exact prompt of a dry run is ending/summary.ts's to show, within the summary's size limit.
  // Folded, with its first line as its title: a reader who wants more opens it.
  const title = what.dryRun
    ? 'What would leave the repository'
    : what.wasSent === false
      ? 'What would have left the repository'
      : 'What left the repository'
  return (
    `<details><summary>${title}</summary>` +
    `<ul>${items.map((item) => `<li>${escape(item)}</li>`).join('')}</ul></details>`
  )
}

// Each list in the account is cut to fit, with a count of what it left out: GitHub drops a summary
// over 1 MiB whole, and a list is outside text of any length (~140 kinds of credential, each named
// in up to 5 places, paths as long as a repository's may be). The texts after it take what is left.
/** The most characters one list of the account takes, before escaping. */
const LIST_MAX_CHARS = 8000
/** The most characters one entry (a place, a path, a sentence) takes: its start and its end are kept. */
const ENTRY_MAX_CHARS = 200

/** The credentials blanked, by kind, as describeBlanked says them: the kinds that fit, then how many did not. */
function blankedList(blanked: readonly Blanked[]): string {
  const byKind = new Map<string, Blanked[]>()
  for (const { kind, where } of blanked) {
    const group = byKind.get(kind) ?? []
    group.push({ kind, where: shortened(where) })
    byKind.set(kind, group)
  }
  const groups = [...byKind.values()]
  return listWithin(
    groups.map((group) => describeBlanked(group)),
    '; ',
    (n) => {
      const left = groups.slice(groups.length - n).reduce((sum, group) => sum + group.length, 0)
      return `and ${plural(n, 'more kind')} of credential left out of this list (${plural(left, 'credential')})`
    }
  )
}

/**
 * The entries joined, as many from the start as fit in LIST_MAX_CHARS, then `more(count left out)`
 * when any were.
 */
function listWithin(entries: readonly string[], separator: string, more: (leftOut: number) => string): string {
  const shown: string[] = []
  let size = 0
  for (const entry of entries) {
    const cost = entry.length + (shown.length ? separator.length : 0)
    if (size + cost > LIST_MAX_CHARS) break
    shown.push(entry)
    size += cost
  }
  if (shown.length === entries.length) return shown.join(separator)
  return [...shown, more(entries.length - shown.length)].join(separator)
}

/** `text`, or its start and its end around an ellipsis, within ENTRY_MAX_CHARS (whole characters). */
function shortened(text: string): string {
  const points = [...text]
  if (points.length <= ENTRY_MAX_CHARS) return text
  const head = Math.floor(ENTRY_MAX_CHARS / 3)
  return `${points.slice(0, head).join('')}…${points.slice(points.length - (ENTRY_MAX_CHARS - head - 1)).join('')}`
}

function chars(n: number): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? 'character' : 'characters'}`
}
