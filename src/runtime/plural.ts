// Counts in the action's sentences: `1 commit`, `1,234 files`.

/** `n` and the word, with an s unless n is 1; n in en-US digits (1,234). */
export function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`
}
