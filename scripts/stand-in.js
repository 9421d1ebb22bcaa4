// @ts-check
// `node scripts/stand-in.js`: starts the stand-in service on 127.0.0.1 and leaves it serving in the
// background, so that later steps of a workflow job (the action itself, `uses: ./`) can talk to it.
// It writes `url` and `api-key` to $GITHUB_OUTPUT when that is set, prints the URL (on a runner,
// never the key), and ends; the server lives on in a detached process of its own, which stops by
// itself after SERVE_FOR_MS. Node's built-ins only, so the job needs no `npm ci`.
//
// On a machine of your own, for a `.env` (see .env.example): it prints the two lines to put there,
// INPUT_BASEURL=http://127.0.0.1:<port> and INPUT_APIKEY=svc_stand_in_key, the stand-in's fixed key
// (no secret: it opens nothing but this stand-in). Then `npm run local-action` talks to it.
import { spawn } from 'node:child_process'
import { appendFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { startStandInService } from '../test/support/stand-in-service.js'

/** Long enough for any job that uses it; never left running for good on a laptop. */
const SERVE_FOR_MS = 10 * 60_000

/** @typedef {{ url: string, apiKey: string } | { error: string }} Ready */

if (process.argv[2] === '--serve') await serve()
else await startInBackground()

/** The detached process: serve, and tell the parent where (the parent then closes the channel). */
async function serve() {
  try {
    const service = await startStandInService({ plan: { activeMs: 2000 } })
    setTimeout(() => service.close(), SERVE_FOR_MS)
    process.send?.(/** @type {Ready} */ ({ url: service.url, apiKey: service.apiKey }))
  } catch (error) {
    process.send?.(/** @type {Ready} */ ({ error: String(error) }))
  }
}

async function startInBackground() {
  // No stdio shared with the step: a runner may wait for every holder of its output pipe to close.
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve'], {
    detached: true,
    stdio: ['ignore', 'ignore', 'ignore', 'ipc']
  })
  const ready = await new Promise((resolve, reject) => {
    child.once('message', resolve)
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`it stopped before listening (exit code ${code})`)))
  }).catch((/** @type {Error} */ error) => ({ error: error.message }))
  const answer = /** @type {Ready} */ (ready)
  if ('error' in answer) {
    console.error(`The stand-in service did not start: ${answer.error}.`)
    process.exit(1)
  }
  child.unref()
  child.disconnect()

  if (process.env.GITHUB_OUTPUT)
    appendFileSync(process.env.GITHUB_OUTPUT, `url=${answer.url}\napi-key=${answer.apiKey}\n`)
  console.log(
    `Stand-in service listening on ${answer.url} (process ${child.pid}); it stops by itself after ` +
      `${SERVE_FOR_MS / 60_000} minutes, or with: kill ${child.pid}`
  )
  if (!process.env.GITHUB_ACTIONS) {
    console.log(`For a .env (npm run local-action):\nINPUT_BASEURL=${answer.url}\nINPUT_APIKEY=${answer.apiKey}`)
  }
}
