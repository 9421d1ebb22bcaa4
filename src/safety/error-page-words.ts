// The words of an error page (a proxy's or a load balancer's HTML), for a one-line excerpt. The page
// is outside text of up to the body limit (1 MiB), read while the step's deadline and the runner's
// cancel wait on the same thread: every pass here is linear in its length, whatever the page holds.
// (A pattern such as /<[^>]*>/g rescans to the end from every `<` without a `>`: a page of `<`
// took minutes, and neither the timeout nor a cancel could end the step meanwhile.)

// Each of these finds its match without going back over text it has passed: an opener is a fixed
// word; a tag ends at the first `>` and never runs past the next `<`.
const SCRIPT_OR_STYLE = /<(script|style)\b/gi
const TAG = /<[^<>]*>/g

/** The text of an HTML page: scripts, styles and tags removed, `&nbsp;` a blank. */
export function pageText(html: string): string {
  return withoutScriptsAndStyles(html)
    .replace(TAG, ' ')
    .replace(/&nbsp;/g, ' ')
}

/**
 * The page without its `<script>` and `<style>` elements. One never closed takes the rest of the
 * page with it, as in a browser: so each search for a closer starts where the last one ended, and
 * the page is read once.
 */
function withoutScriptsAndStyles(html: string): string {
  let kept = ''
  let from = 0
  SCRIPT_OR_STYLE.lastIndex = 0
  for (let opener = SCRIPT_OR_STYLE.exec(html); opener; opener = SCRIPT_OR_STYLE.exec(html)) {
    kept += `${html.slice(from, opener.index)} `
    const close = indexOfCloser(html, opener[1], SCRIPT_OR_STYLE.lastIndex)
    if (close < 0) return kept
    from = close
    SCRIPT_OR_STYLE.lastIndex = close
  }
  return kept + html.slice(from)
}

/** Where the text after `</kind>` starts, searching from `from`; -1 when there is none. */
function indexOfCloser(html: string, kind: string, from: number): number {
  const closer = new RegExp(`</${kind}\\s*>`, 'gi')
  closer.lastIndex = from
  const found = closer.exec(html)
  return found ? found.index + found[0].length : -1
}
