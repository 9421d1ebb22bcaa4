// @ts-check
// `npm run demo`: the bundled action, end to end, against the stand-in service on 127.0.0.1.
// Needs only the committed dist/ and Node's built-ins: no install step, no network.
import { fileURLToPath } from 'node:url'
import { runAction } from '../test/support/run-action.js'
import { startStandInService } from '../test/support/stand-in-service.js'
import { bundleFreshness, SOURCE_HASH_FILE } from './source-hash.js'

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
console.log(`Stand-in service listening on ${service.url}\n`)
console.log("--- the action's log ---")

try {
  const inputs = {
    projectId: 'demo-docs',
    apiKey: service.apiKey,
    baseUrl: service.url,
    pollInterval: '1s',
    timeout: '1m'
  }
  /** Runs the step once, showing its log as it goes and then its outputs. @param {Record<string, string>} extra */
  const step = async (extra) => {
    const run = await runAction({
      inputs: { ...inputs, ...extra },
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
  const done = (/** @type {import('../test/support/run-action.js').ActionRun} */ run) =>
    run.code === 0 && run.outputs.status === 'completed' && run.outputs.prLink
  const sameJob = followUp.outputs.jobId === create.outputs.jobId && service.created === 1 && service.messages === 1
  process.exitCode = done(create) && done(followUp) && sameJob ? 0 : 1
} finally {
  await service.close()
}
