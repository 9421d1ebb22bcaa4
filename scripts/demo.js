// @ts-check
// `npm run demo`: the bundled action, end to end, against the stand-in service on 127.0.0.1 (and a
// stand-in for GitHub's API): a job created and followed, a follow-up message to it, then what a
// person looks at, the job summary the first run wrote and the reply a `/docs` comment gets.
// Needs only the committed dist/ and Node's built-ins: no install step, no network.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runAction } from '../test/support/run-action.js'
import { startStandInService } from '../test/support/stand-in-service.js'
import {
  apiPullRequest,
  issueCommentEvent,
  removeEventFiles,
  runnerEnvironment,
  startStandInGitHub,
  workflowDispatchEvent
} from '../test/support/stand-in-github.js'
import { bundleFreshness, SOURCE_HASH_FILE } from './source-hash.js'
import { REPLY_FILE, SUMMARY_FILE } from './picture-source.js'
import { summaryAsText } from './summary-text.js'

/** Where `--out DIR` asks the summary and the reply to be written; a folder of the demo's own without it. */
const OUT = process.argv.includes('--out') ? process.argv[process.argv.indexOf('--out') + 1] : undefined

/**
 * The runner's commands as its log shows them: masks and debug lines hidden (debug logging is off),
 * annotations as their kind and text.
 * @param {string} text
 */
function asTheLogShowsIt(text) {
  return text
    .replace(/^::(add-mask|debug)::.*\n/gm, '')
    .replace(/^::(error|warning|notice)::/gm, (_, kind) => `${kind[0].toUpperCase()}${kind.slice(1)}: `)
}

// The demo runs the committed dist/: after a change to src/ it shows the old behaviour, however
// green the tests (they run what src/ builds). Say so first.
const freshness = bundleFreshness(fileURLToPath(new URL('..', import.meta.url)), 'dist')
if (freshness === 'stale') {
  console.warn(
    'Warning: dist/ was built from other sources than src/ holds now, so this demo shows the behaviour of the ' +
      'committed bundle, not of your changes. Run npm run bundle first to see them.\n'
  )
} else if (freshness === 'unknown') {
  console.warn(
    `Note: dist/ records no hash of the sources it was built from (dist/${SOURCE_HASH_FILE}), so whether it is ` +
      'older than src/ is not known; npm run bundle writes one.\n'
  )
}

// After the follow-up message the stand-in, like the real service may, shows the job's old final
// status for one more read: the action waits until it sees the job working again.
const service = await startStandInService({
  plan: { activeMs: 2500, final: 'completed' },
  messagePlan: { activeMs: 2000, final: 'completed' },
  staleReadsAfterMessage: 1
})
// GitHub, for the agent's pull requests (the stand-in service opens #1, then #2 for the comment's job)
// and the comment thread.
const pulls = Object.fromEntries(
  [1, 2].map((number) => [number, apiPullRequest({ number, repository: 'example/docs', title: 'Document --dry-run' })])
)
const github = await startStandInGitHub({ repository: { pulls } })
const token = 'ghs_demo_token_0123456789'
console.log(`Stand-in service listening on ${service.url}, a stand-in for GitHub's API on ${github.apiUrl}\n`)
console.log("--- the action's log ---")

try {
  const inputs = {
    projectId: 'demo-docs',
    apiKey: service.apiKey,
    baseUrl: service.url,
    githubToken: token,
    pollInterval: '1s',
    timeout: '1m'
  }
  // On github.com, where the stand-in service's pull requests are: the summary and the reply show
  // each with its title, read from the stand-in GitHub.
  const onGitHub = { GITHUB_SERVER_URL: 'https://github.com' }
  const byHand = runnerEnvironment(github, 'workflow_dispatch', workflowDispatchEvent(), onGitHub)
  /**
   * Runs the step once, showing its log as it goes and then its outputs.
   * @param {Record<string, string>} extra
   * @param {Record<string, string>} env
   */
  const step = async (extra, env = byHand) => {
    const run = await runAction({
      inputs: { ...inputs, ...extra },
      env,
      onStdout: (chunk) => process.stdout.write(asTheLogShowsIt(chunk))
    })
    process.stderr.write(run.stderr)
    console.log('\n--- step outputs ---')
    for (const [name, value] of Object.entries(run.outputs)) console.log(`${name.padEnd(17)} ${value}`)
    console.log(`\nThe action exited with code ${run.code}.`)
    return run
  }
  const create = await step({ prompt: 'Document the new --dry-run flag in the CLI reference.' })

  // A second run of the step, as a later workflow would: the same job, with one more instruction.
  console.log("\n--- a follow-up: the same step with jobId and a prompt; the action's log ---")
  const followUp = await step({ jobId: create.outputs.jobId, prompt: 'Also say that --dry-run never writes files.' })

  console.log('\n--- what the service received ---')
  for (const r of service.requests) console.log(`${r.method} ${r.path}`)

  // What a person looks at: the first run's job summary, as text here; GitHub renders it on the run's page.
  console.log("\n--- the first run's job summary (GitHub renders it on the workflow run's page) ---\n")
  console.log(summaryAsText(create.summary))
  // A folder of its own: two demos at once (two checkouts, or the suite beside CI) must not share a page.
  // `--out DIR` names it (scripts/render-picture.js renders the README's picture from what is written there).
  const folder = OUT ?? mkdtempSync(join(tmpdir(), 'docs-agent-demo-'))
  mkdirSync(folder, { recursive: true })
  // The summary exactly as the runner's summary file holds it: what GitHub renders as Markdown.
  writeFileSync(join(folder, SUMMARY_FILE), create.summary)
  const page = join(folder, 'summary.html')
  writeFileSync(
    page,
    `<!doctype html><meta charset="utf-8"><title>Job summary</title><body style="font-family:sans-serif;max-width:60em">` +
      `${create.summary}</body>\n`
  )
  console.log(`\n(The summary's HTML, to open in a browser: ${page})`)

  // A `/docs` comment on an issue: the run reacts, replies on the thread and edits its reply as it goes.
  console.log("\n--- a comment run: '/docs explain the retry policy' on issue #12; the action's log ---")
  const comment = { body: '/docs explain the retry policy', number: 12, title: 'Retries are not documented' }
  const commented = await step({}, runnerEnvironment(github, 'issue_comment', issueCommentEvent(comment), onGitHub))
  const reply = github.comments.find((c) => c.issueNumber === 12)
  console.log('\n--- the reply on the thread, as it ended (Markdown; GitHub renders it) ---\n')
  console.log(reply?.body ?? '(no reply was posted)')
  if (reply) writeFileSync(join(folder, REPLY_FILE), reply.body)
  console.log(
    `\n(The summary and the reply as GitHub receives them: ${join(folder, SUMMARY_FILE)}, ${join(folder, REPLY_FILE)})`
  )

  const done = (/** @type {import('../test/support/run-action.js').ActionRun} */ run) =>
    run.code === 0 && run.outputs.status === 'completed' && run.outputs.prLink
  const sameJob = followUp.outputs.jobId === create.outputs.jobId && service.created === 2 && service.messages === 1
  process.exitCode = done(create) && done(followUp) && done(commented) && sameJob && reply ? 0 : 1
} finally {
  await service.close()
  await github.close()
  removeEventFiles()
}
