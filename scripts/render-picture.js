// @ts-check
// `node scripts/render-picture.js`: the README's picture of what a run leaves, rendered from the
// demo's own output. It runs the demo (`scripts/demo.js --out DIR`), renders the job summary and the
// reply it wrote as GitHub renders Markdown (markdown-it with HTML and links on, github-markdown-css)
// and takes a screenshot with headless Chromium into docs/summary-and-reply.png, which records the
// hash of what it shows (scripts/picture-source.js; test/action/demo.test.ts compares it with what
// the demo writes now). Not part of CI, and it installs nothing: it needs `chromium` on PATH (or
// CHROMIUM=path) and, beside the project's dependencies, `npm install --no-save markdown-it
// github-markdown-css`.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PICTURE, REPLY_FILE, SOURCE_KEYWORD, SUMMARY_FILE, sourceHash, withTextChunk } from './picture-source.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
// The page's width as GitHub's narrowest comfortable column; its height fits the summary and the reply.
const WIDTH = 960
const HEIGHT = Number(process.env.PICTURE_HEIGHT ?? 740)

/** @param {string} sentence */
function fail(sentence) {
  console.error(sentence)
  process.exit(1)
}

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

const folder = mkdtempSync(join(tmpdir(), 'docs-agent-picture-'))
try {
  const demo = spawnSync(process.execPath, [join(ROOT, 'scripts/demo.js'), '--out', folder], {
    stdio: ['ignore', 'ignore', 'inherit']
  })
  if (demo.status !== 0) fail('The demo failed, so there is nothing to show: run npm run demo to see why.')
  const summary = readFileSync(join(folder, SUMMARY_FILE), 'utf8')
  const reply = readFileSync(join(folder, REPLY_FILE), 'utf8')

  const md = new MarkdownIt({ html: true, linkify: true })
  const panel = (/** @type {string} */ label, /** @type {string} */ markdown) =>
    `<section><div class="label">${label}</div><article class="markdown-body">${md.render(markdown)}</article></section>`
  const page =
    `<!doctype html><meta charset="utf-8"><style>${css}\n` +
    'body{margin:0;padding:20px;background:#f6f8fa;font-family:-apple-system,"Segoe UI",sans-serif}' +
    'section{background:#fff;border:1px solid #d1d9e0;border-radius:6px;margin-bottom:20px}' +
    '.label{padding:8px 16px;border-bottom:1px solid #d1d9e0;background:#f6f8fa;color:#59636e;font-size:14px;border-radius:6px 6px 0 0}' +
    '.markdown-body{padding:16px 24px;font-size:15px}</style>' +
    panel("The workflow run's summary (the job the demo's first run created)", summary) +
    panel('The reply on issue #12, after <code>/docs explain the retry policy</code>', reply)
  const html = join(folder, 'picture.html')
  writeFileSync(html, page)
  const png = join(folder, 'picture.png')
  execFileSync(
    chromium,
    [
      '--headless',
      '--no-sandbox',
      '--hide-scrollbars',
      '--force-device-scale-factor=1',
      `--window-size=${WIDTH},${HEIGHT}`,
      `--screenshot=${png}`,
      `file://${html}`
    ],
    { stdio: 'ignore' }
  )
  writeFileSync(join(ROOT, PICTURE), withTextChunk(readFileSync(png), SOURCE_KEYWORD, sourceHash(summary, reply)))
  console.log(`Wrote ${PICTURE} (${WIDTH}×${HEIGHT}) from the demo's summary and reply.`)
} finally {
  rmSync(folder, { recursive: true, force: true })
}
