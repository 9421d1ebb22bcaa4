// What a person reads in a job summary or a reply, checked as they would notice it: the same words
// twice, the same address twice. Read from the text GitHub shows (tags out, entities decoded), with
// links counted by their target.

/** The visible text: HTML tags out, entities decoded, Markdown links as their text, code spans as their text. */
export function visibleText(source: string): string {
  return decodeEntities(
    source
      .replace(/<br\s*\/?>|&#10;/g, '\n')
      .replace(/<\/(p|h\d|li|tr|blockquote|pre|details|summary|table)>/g, '\n')
      .replace(/<\/t[dh]>/g, ' | ')
      .replace(/<[^>]+>/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/`([^`]*)`/g, '$1')
  )
}

/** Every address (http or https) a reader meets: a link's target once, whatever its text; a bare address once. */
export function addressesShown(source: string): string[] {
  const found: string[] = []
  const rest = source
    .replace(/<a\s[^>]*href="([^"]*)"[^>]*>[\s\S]*?<\/a>/g, (_, href: string) => {
      found.push(decodeEntities(href))
      return ' '
    })
    .replace(/\[[^\]]*\]\(([^)\s]+)\)/g, (_, href: string) => {
      found.push(href)
      return ' '
    })
  for (const [address] of decodeEntities(rest).matchAll(/https?:\/\/[^\s`'"<>()|]+[^\s`'"<>()|.,:;]/g))
    found.push(address)
  return found
}

/** Addresses shown more than once. */
export function addressesRepeated(source: string): string[] {
  return repeated(addressesShown(source))
}

/**
 * Runs of `size` words said more than once: the same sentence, or the same clause in two sentences
 * ("it may not have finished its work" under the heading and in the next step).
 */
export function phrasesSaidTwice(source: string, size = 6): string[] {
  const words = visibleText(source)
    .toLowerCase()
    .split(/[^\p{L}\p{N}_'-]+/u)
    .filter(Boolean)
  const runs: string[] = []
  for (let i = 0; i + size <= words.length; i++) runs.push(words.slice(i, i + size).join(' '))
  return repeated(runs)
}

/** How many times `text` appears in what a reader sees. */
export function timesShown(source: string, text: string): number {
  return visibleText(source).split(text).length - 1
}

function repeated(items: string[]): string[] {
  const seen = new Map<string, number>()
  for (const item of items) seen.set(item, (seen.get(item) ?? 0) + 1)
  return [...seen].filter(([, count]) => count > 1).map(([item]) => item)
}

function decodeEntities(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }
  return text.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
    if (/^#x/i.test(name)) return String.fromCodePoint(parseInt(name.slice(2), 16))
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)))
    return named[name.toLowerCase()] ?? whole
  })
}
