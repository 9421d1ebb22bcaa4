// @ts-check
// A job summary as a person reads it, in a terminal: the action writes HTML (and a little Markdown)
// for GitHub to render; the demo prints it as plain text, headings, paragraphs, table rows and
// folded blocks each on lines of their own, links as their text and (address). Node's built-ins only.

/** @param {string} text */
function decodeEntities(text) {
  const named = /** @type {Record<string, string>} */ ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' })
  // One pass, so that an escaped entity (&#38;lt;) is shown as written (&lt;), not decoded twice.
  return text.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, name) => {
    if (/^#x/i.test(name)) return String.fromCodePoint(parseInt(name.slice(2), 16))
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)))
    return named[name.toLowerCase()] ?? whole
  })
}

/**
 * The summary (or a reply) as plain text: what GitHub would show, without its styling.
 * @param {string} html
 */
export function summaryAsText(html) {
  const text = html
    .replace(/<h(\d)[^>]*>([\s\S]*?)<\/h\1>/g, (_, level, inner) => `\n${'#'.repeat(Number(level))} ${inner}\n`)
    .replace(/<summary[^>]*>([\s\S]*?)<\/summary>/g, '\n▸ $1 (folded)\n')
    .replace(/<a [^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g, (_, href, inner) =>
      inner === href ? inner : `${inner} (${href})`
    )
    .replace(/<tr[^>]*>([\s\S]*?)<\/tr>/g, (_, row) => {
      const cells = [...row.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((cell) => cell[1].trim())
      return `\n| ${cells.join(' | ')} |`
    })
    .replace(/<br\s*\/?>|&#10;/g, '\n')
    .replace(/<\/(p|table|blockquote|pre|ul|ol|details|li)>/g, '\n')
    .replace(/<li[^>]*>/g, '\n- ')
    .replace(/<[^>]+>/g, '')
  return decodeEntities(text)
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}
