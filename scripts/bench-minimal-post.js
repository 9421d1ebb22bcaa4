// @ts-check
// The start-up baseline of `npm run bench`: the least a Node program built on undici (Node's own
// fetch is undici too) does to create a job. It reads the same INPUT_* variables as the action,
// sends the same POST with the global fetch, prints the job's id and exits: no checks, no
// retries, no following.
const env = process.env
const url = `${env.INPUT_BASEURL}/v2/agent/${encodeURIComponent(env.INPUT_PROJECTID ?? '')}/job`
const response = await fetch(url, {
  method: 'POST',
  headers: { authorization: `Bearer ${env.INPUT_APIKEY}`, 'content-type': 'application/json' },
  body: JSON.stringify({ prompt: env.INPUT_PROMPT })
})
console.log(JSON.parse(await response.text()).id)
