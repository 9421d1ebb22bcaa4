// @ts-check
// What the two picture scripts (render-picture.js, render-dashboard.js) share: Markdown rendered as
// GitHub renders it (markdown-it with HTML and links on, github-markdown-css), in labelled panels
// like GitHub's boxes, screenshot with headless Chromium. Neither markdown-it nor the CSS is a
// dependency of the action, and Chromium is not installed by the project: each missing piece is named
// in a sentence that says how to get it.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** @param {string} sentence */
export function fail(sentence) {
  console.error(sentence)
  process.exit(1)
}

/**
 * Checks that markdown-it, github-markdown-css and Chromium are here (or ends the script in a
 * sentence), and returns the function that renders panels of Markdown into a PNG.
 */
export async function openPageRenderer() {
  const require = createRequire(import.meta.url)
  /** @type {any} */
  let MarkdownIt
  let css = ''
  try {
    // Named by a variable: not a dependency, so the typecheck does not look for it.
    const markdownIt = 'markdown-it'
    MarkdownIt = (await import(markdownIt)).default
    css = readFileSync(require.resolve('github-markdown-css/github-markdown-light.css'), 'utf8')
  } catch {
    fail(
      'markdown-it and github-markdown-css are not installed (they are not dependencies of the action): ' +
        'run npm install --no-save markdown-it github-markdown-css, then this again.'
    )
  }
  const chromium = process.env.CHROMIUM ?? 'chromium'
  if (spawnSync(chromium, ['--version'], { stdio: 'ignore' }).status !== 0) {
    fail(`${chromium} was not found: install Chromium (apt-get install chromium), or set CHROMIUM to its path.`)
  }
  const md = new MarkdownIt({ html: true, linkify: true })

  /**
   * The panels, each a label (HTML) over Markdown, on one page of `width` by `height` pixels, as PNG bytes.
   * @param {{ label: string, markdown: string }[]} panels
   * @param {{ width: number, height: number }} size
   * @returns {Buffer}
   */
  return function renderPanels(panels, { width, height }) {
    const page =
      `<!doctype html><meta charset="utf-8"><style>${css}\n` +
      'body{margin:0;padding:20px;background:#f6f8fa;font-family:-apple-system,"Segoe UI",sans-serif}' +
      'section{background:#fff;border:1px solid #d1d9e0;border-radius:6px;margin-bottom:20px}' +
      '.label{padding:8px 16px;border-bottom:1px solid #d1d9e0;background:#f6f8fa;color:#59636e;font-size:14px;border-radius:6px 6px 0 0}' +
      '.markdown-body{padding:16px 24px;font-size:15px}</style>' +
      panels
        .map(
          ({ label, markdown }) =>
            `<section><div class="label">${label}</div><article class="markdown-body">${md.render(markdown)}</article></section>`
        )
        .join('')
    const folder = mkdtempSync(join(tmpdir(), 'docs-agent-page-'))
    try {
      const html = join(folder, 'page.html')
      writeFileSync(html, page)
      const png = join(folder, 'page.png')
      execFileSync(
        chromium,
        [
          '--headless',
          '--no-sandbox',
          '--hide-scrollbars',
          '--force-device-scale-factor=1',
          `--window-size=${width},${height}`,
          `--screenshot=${png}`,
          `file://${html}`
        ],
        { stdio: 'ignore' }
      )
      return readFileSync(png)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  }
}
