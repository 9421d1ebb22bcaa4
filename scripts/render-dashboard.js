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
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { fail, openPageRenderer } from './render-page.js'
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

const renderPanels = await openPageRenderer()

const service = await startStandInService({
  plan: { activeReads: 1_000_000, prLink: `${SERVER}/${REPO}/pull/31`, repository: `${SERVER}/${REPO}` }
})
const github = await startStandInGitHub({ workflows: [{ id: 7001, path: WORKFLOW }] })
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

  const png = renderPanels(
    [
      {
        label: `Issue #${index?.number} · Documentation jobs · opened by github-actions (locked)`,
        markdown: String(body)
      }
    ],
    { width: WIDTH, height: HEIGHT }
  )
  writeFileSync(join(ROOT, PICTURE), png)
  console.log(`Wrote ${PICTURE} (${WIDTH}×${HEIGHT}) from the index issue the action kept.`)
} finally {
  await github.close()
  await service.close()
}
