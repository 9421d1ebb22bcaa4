// @ts-check
// `npm run demo`: the bundled action, end to end, against the stand-in service on 127.0.0.1.
// Needs only the committed dist/ and Node's built-ins: no install step, no network.
import { runAction } from '../test/support/run-action.js'
import { startStandInService } from '../test/support/stand-in-service.js'

const service = await startStandInService({ plan: { activeMs: 2500, final: 'completed' } })
console.log(`Stand-in service listening on ${service.url}\n`)
console.log('--- the action\'s log ---')

try {
  const run = await runAction({
    inputs: {
      projectId: 'demo-docs',
      prompt: 'Document the new --dry-run flag in the CLI reference.',
      apiKey: service.apiKey,
      baseUrl: service.url,
      pollInterval: '1s',
      timeout: '1m'
    },
    onStdout: (chunk) => process.stdout.write(chunk.replace(/^::add-mask::.*\n/gm, ''))
  })
  process.stderr.write(run.stderr)

  console.log('\n--- step outputs ---')
  for (const [name, value] of Object.entries(run.outputs)) console.log(`${name.padEnd(17)} ${value}`)
  console.log('\n--- what the service received ---')
  for (const r of service.requests) console.log(`${r.method} ${r.path}`)
  console.log(`\nThe action exited with code ${run.code}.`)
  process.exitCode = run.code === 0 && run.outputs.status === 'completed' && run.outputs.prLink ? 0 : 1
} finally {
  await service.close()
}
