// @ts-check
// `node scripts/render-dashboard.js`: the picture of the index issue's dashboard in docs/report-later.md
// (docs/index-dashboard.png), from what the action itself writes. Against the stand-in service and the
// stand-in GitHub on 127.0.0.1, it runs the bundle as a new reporting workflow (it records itself and
// turns itself off), then three hand-overs (a /docs comment on #12, one on #14, a push), lets two of
// the jobs end, and runs the reporting workflow again; the index issue's body is then rendered as
// GitHub renders an issue (markdown-it with HTML and links on, github-markdown-css) and screenshot
// with headless Chromium. Not part of CI, and it installs nothing: it needs `chromium` on PATH (or
// CHROMIUM=path), `npm install --no-save markdown-it github-markdown-css`, and a bundle current with
// src/ (`npm run bundle`, or ACTION_ENTRY=path to one).
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runAction } from '../test/support/run-action.js'
import {
  issueCommentEvent,
  pushEvent,
  runnerEnvironment,
  standInCommit,
  startStandInGitHub,
  workflowDispatchEvent
} from '../test/support/stand-in-github.js'
import { startStandInService } from '../test/support/stand-in-service.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const PICTURE = 'docs/index-dashboard.png'
const WIDTH = 1000
const HEIGHT = Number(process.env.PICTURE_HEIGHT ?? 580)
const SERVER = 'https://github.example'
const REPO = 'octo-org/docs-site'
const WORKFLOW = '.github/workflows/report-later.yml'

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

const service = await startStandInService({
  plan: { activeReads: 1_000_000, prLink: `${SERVER}/${REPO}/pull/31`, repository: `${SERVER}/${REPO}` }
})
const github = await startStandInGitHub({ workflows: [{ id: 7001, path: WORKFLOW }] })
const folder = mkdtempSync(join(tmpdir(), 'docs-agent-dashboard-'))
try {
  const inputs = { projectId: 'docs', apiKey: service.apiKey, baseUrl: service.url, githubToken: 'ghs_picture' }
  const report = (/** @type {string} */ runId) =>
    runAction({
      inputs: { ...inputs, report: 'pending' },
      env: runnerEnvironment(github, 'schedule', workflowDispatchEvent(), {
        GITHUB_SERVER_URL: SERVER,
        GITHUB_RUN_ID: runId,
        GITHUB_WORKFLOW_REF: `${REPO}/${WORKFLOW}@refs/heads/main`
      })
    })
  const ask = (/** @type {number} */ number, /** @type {string} */ body) =>
    runAction({
      inputs: { ...inputs, wait: 'false' },
      env: runnerEnvironment(github, 'issue_comment', issueCommentEvent({ body, number }), {
        GITHUB_SERVER_URL: SERVER
      })
    })
  await report('7100')
  const retries = await ask(12, '/docs document the retry policy')
  await ask(14, '/docs explain the --dry-run flag')
  const pushed = await runAction({
    inputs: { ...inputs, wait: 'false', prompt: 'Document the new flags', context: 'none' },
    env: runnerEnvironment(github, 'push', pushEvent({ commits: [standInCommit('Add --dry-run')] }), {
      GITHUB_SERVER_URL: SERVER
    })
  })
  const end = (/** @type {string} */ id, /** @type {string} */ final) => {
    const job = service.jobs.get(id)
    if (!job) fail(`The stand-in service has no job ${id}: a hand-over failed.`)
    else job.plan = { ...job.plan, activeReads: 0, final, ...(final === 'completed' ? {} : { prLink: null }) }
  }
  end(retries.outputs.jobId, 'completed')
  end(pushed.outputs.jobId, 'failed')
  const told = await report('7101')
  if (told.code !== 0)
    fail('The reporting run failed: run the tests of test/action/report-later-index.test.ts to see why.')
  const index = github.issues.find((i) => i.labels.includes('docs-agent:jobs'))
  const body = index && github.issue(index.number)?.body
  if (typeof body !== 'string') fail('No index issue was made: the bundle may be older than src/ (npm run bundle).')

  const md = new MarkdownIt({ html: true, linkify: true })
  const page =
    `<!doctype html><meta charset="utf-8"><style>${css}\n` +
    'body{margin:0;padding:20px;background:#f6f8fa;font-family:-apple-system,"Segoe UI",sans-serif}' +
    'section{background:#fff;border:1px solid #d1d9e0;border-radius:6px}' +
    '.label{padding:8px 16px;border-bottom:1px solid #d1d9e0;background:#f6f8fa;color:#59636e;font-size:14px;border-radius:6px 6px 0 0}' +
    '.markdown-body{padding:16px 24px;font-size:15px}</style>' +
    `<section><div class="label">Issue #${index?.number} · Documentation jobs · opened by github-actions (locked)</div>` +
    `<article class="markdown-body">${md.render(String(body))}</article></section>`
  const html = join(folder, 'dashboard.html')
  writeFileSync(html, page)
  const png = join(folder, 'dashboard.png')
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
  writeFileSync(join(ROOT, PICTURE), readFileSync(png))
  console.log(`Wrote ${PICTURE} (${WIDTH}×${HEIGHT}) from the index issue the action kept.`)
} finally {
  rmSync(folder, { recursive: true, force: true })
  await github.close()
  await service.close()
}
