// What was blanked, for the log and the summary: a credential's kind and where it was, never its
// value. Apart from the scan, so that the summary's code does not load the scan (which loads only
// for a run that sends a prompt).

/** One credential blanked: its kind and where it was (a commit, a file, the description). */
export interface Blanked {
  kind: string
  where: string
}

/** "3 credentials blanked: 2 GitHub tokens (commit abc1234, file src/a.ts), 1 ..." for the log and summary. */
export function describeBlanked(blanked: readonly Blanked[]): string {
  const byKind = new Map<string, Set<string>>()
  const counts = new Map<string, number>()
  for (const { kind, where } of blanked) {
    byKind.set(kind, (byKind.get(kind) ?? new Set()).add(where))
    counts.set(kind, (counts.get(kind) ?? 0) + 1)
  }
  return [...byKind]
    .map(([kind, wheres]) => {
      const places = [...wheres]
      const shown = places.slice(0, 5).join(', ') + (places.length > 5 ? `, and ${places.length - 5} more` : '')
      return `${counts.get(kind)} × ${kind} (${shown})`
    })
    .join('; ')
}
