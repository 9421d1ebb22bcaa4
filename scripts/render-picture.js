// @ts-check
// `node scripts/render-picture.js`: the README's picture of what a run leaves, rendered from the
// demo's own output. It runs the demo (`scripts/demo.js --out DIR`), renders the job summary and the
// reply it wrote as GitHub renders Markdown (markdown-it with HTML and links on, github-markdown-css)
// and takes a screenshot with headless Chromium into docs/summary-and-reply.png, which records the
// hash of what it shows (scripts/picture-source.js; test/action/demo.test.ts compares it with what
// the demo writes now). Not part of CI, and it installs nothing: it needs `chromium` on PATH (or
// CHROMIUM=path) and, beside the project's dependencies, `npm install --no-save markdown-it
// github-markdown-css`.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PICTURE, REPLY_FILE, SOURCE_KEYWORD, SUMMARY_FILE, sourceHash, withTextChunk } from './picture-source.js'
import { fail, openPageRenderer } from './render-page.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
// The page's width as GitHub's narrowest comfortable column; its height fits the summary and the reply.
const WIDTH = 960
const HEIGHT = Number(process.env.PICTURE_HEIGHT ?? 740)

const renderPanels = await openPageRenderer()

const folder = mkdtempSync(join(tmpdir(), 'docs-agent-picture-'))
try {
  const demo = spawnSync(process.execPath, [join(ROOT, 'scripts/demo.js'), '--out', folder], {
    stdio: ['ignore', 'ignore', 'inherit']
  })
  if (demo.status !== 0) fail('The demo failed, so there is nothing to show: run npm run demo to see why.')
  const summary = readFileSync(join(folder, SUMMARY_FILE), 'utf8')
  const reply = readFileSync(join(folder, REPLY_FILE), 'utf8')

  const png = renderPanels(
    [
      { label: "The workflow run's summary (the job the demo's first run created)", markdown: summary },
      { label: 'The reply on issue #12, after <code>/docs explain the retry policy</code>', markdown: reply }
    ],
    { width: WIDTH, height: HEIGHT }
  )
  writeFileSync(join(ROOT, PICTURE), withTextChunk(png, SOURCE_KEYWORD, sourceHash(summary, reply)))
  console.log(`Wrote ${PICTURE} (${WIDTH}×${HEIGHT}) from the demo's summary and reply.`)
} finally {
  rmSync(folder, { recursive: true, force: true })
}
