// @ts-check
// The start-up baseline of `npm run bench`: the least a Node program can do to create a job. It
// reads the same INPUT_* variables as the action and sends the same POST, with node:http (or with
// the global fetch when BENCH_CLIENT=fetch), prints the job's id and exits: no checks, no retries,
// no following.
import { createRequire } from 'node:module'

const env = process.env
const url = `${env.INPUT_BASEURL}/v2/agent/${encodeURIComponent(env.INPUT_PROJECTID ?? '')}/job`
const body = JSON.stringify({ prompt: env.INPUT_PROMPT })
const headers = { authorization: `Bearer ${env.INPUT_APIKEY}`, 'content-type': 'application/json' }

if (env.BENCH_CLIENT === 'fetch') {
  const response = await fetch(url, { method: 'POST', headers, body })
  console.log(JSON.parse(await response.text()).id)
} else {
  // Required, as the bundle requires built-ins, rather than imported: on Node 24, importing
  // node:http as an ES module evaluates its lazy getters, which loads Node's own undici (~20 ms).
  const { request } = /** @type {typeof import('node:http')} */ (createRequire(import.meta.url)('node:http'))
  const text = await new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let data = ''
        res.setEncoding('utf8').on('data', (chunk) => (data += chunk))
        res.on('end', () => resolve(data)).on('error', reject)
      }
    )
    req.on('error', reject).end(body)
  })
  console.log(JSON.parse(text).id)
}
