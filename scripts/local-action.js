// @ts-check
// `npm run local-action`: runs src/main.ts (the TypeScript sources, not dist/) under GitHub's
// @github/local-action, which stubs @actions/core and reads the inputs from a .env file.
//
//   npm run local-action                       the inputs in ./.env, as given, when there is one;
//                                              otherwise the stand-ins on 127.0.0.1 (and it says so)
//   npm run local-action -- --stand-in         the stand-ins, whatever ./.env holds (what .ci/run runs)
//
// Against the stand-ins nothing leaves 127.0.0.1: the stand-in service takes the job, and the stand-in
// for GitHub's API (GITHUB_API_URL) takes every GitHub call (the note on the job's pull request), with a
// made-up token. Without it, local-action would send the literal `${{ github.token }}` (action.yml's
// default, which it does not expand) to api.github.com.
//   npm run local-action -- --env-file PATH    the inputs in PATH
//
// For a run against your own service: cp .env.example .env, and edit it.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs, stripVTControlCharacters } from 'node:util'
import {
  removeEventFiles,
  runnerEnvironment,
  startStandInGitHub,
  workflowDispatchEvent
} from '../test/support/stand-in-github.js'
import { startStandInService } from '../test/support/stand-in-service.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const localAction = join(root, 'node_modules/@github/local-action/bin/local-action.js')
if (!existsSync(localAction)) {
  console.error('@github/local-action is not installed (it is a devDependency): run npm install, then this again.')
  process.exit(1)
}

const { values: args } = parseArgs({
  options: { 'stand-in': { type: 'boolean', default: false }, 'env-file': { type: 'string' } }
})
const defaultEnvFile = join(root, '.env')
/** The .env file the user gave, or null to run against the stand-in. */
const givenEnvFile = args['stand-in']
  ? null
  : args['env-file'] !== undefined
    ? resolve(args['env-file'])
    : existsSync(defaultEnvFile)
      ? defaultEnvFile
      : null
if (givenEnvFile && !existsSync(givenEnvFile)) {
  console.error(`There is no file ${givenEnvFile}: give the .env file to read the inputs from.`)
  process.exit(1)
}

/** @type {import('../test/support/stand-in-service.js').StandInService | null} */
let service = null
/** @type {import('../test/support/stand-in-github.js').StandInGitHub | null} */
let github = null
/** @type {string | null} */
let folder = null
let envFile
/** @type {Record<string, string>} The runner's variables of a stand-in run. */
let runner = {}
const shownEnvFile = givenEnvFile && relative(process.cwd(), givenEnvFile)
if (givenEnvFile) {
  envFile = givenEnvFile
  console.log(
    `Running src/main.ts with the inputs in ${shownEnvFile}, as given, ` +
      `against the baseUrl it names (the stand-in service is not started; --stand-in runs against it instead).`
  )
} else {
  service = await startStandInService({ plan: { activeMs: 2000 } })
  github = await startStandInGitHub()
  folder = await mkdtemp(join(tmpdir(), 'local-action-'))
  envFile = join(folder, '.env')
  // A run by hand (workflow_dispatch) of a workflow in a repository on github.com, whose API is the stand-in:
  // the job's pull request (a github.com link) gets its note there.
  runner = runnerEnvironment(github, 'workflow_dispatch', workflowDispatchEvent(), {
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_REPOSITORY: 'example/docs',
    GITHUB_WORKFLOW_REF: 'example/docs/.github/workflows/docs.yml@refs/heads/main'
  })
  await writeFile(
    envFile,
    [
      'INPUT_PROJECTID=demo-docs',
      "INPUT_PROMPT='Document the new --dry-run flag in the CLI reference.'",
      `INPUT_BASEURL=${service.url}`,
      `INPUT_APIKEY=${service.apiKey}`,
      'INPUT_GITHUBTOKEN=ghs_local_action_stand_in_token',
      'INPUT_POLLINTERVAL=1s',
      'INPUT_TIMEOUT=1m',
      ...Object.entries(runner).map(([name, value]) => `${name}=${value}`),
      ''
    ].join('\n'),
    { mode: 0o600 }
  )
  console.log(
    `${args['stand-in'] ? 'As asked (--stand-in)' : 'No .env here'}: running src/main.ts against the stand-in ` +
      `service and a stand-in for GitHub's API, both on 127.0.0.1, with inputs of their own. For your own ` +
      `service, cp .env.example .env, edit it, and run npm run local-action again.`
  )
}

// The run sees only the inputs of the .env file: none of the INPUT_* or GITHUB_* variables of the shell (or
// of a CI job) it was started from, so it runs the same on a laptop and in a workflow.
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(INPUT|GITHUB)_/i.test(name)))
// A stand-in run's GITHUB_* variables are in its .env and in the environment too: local-action's stub of
// @actions/github reads GITHUB_API_URL when it loads, before the .env is read.
Object.assign(env, runner)
if (process.stdout.isTTY) env.FORCE_COLOR = '1' // its output goes through a pipe here, to be read back
// A Ctrl-C reaches local-action too (same process group): let it end the run, then clean up here.
process.on('SIGINT', () => {})

let log = ''
let code
try {
  const child = spawn(process.execPath, [localAction, 'run', '.', 'src/main.ts', envFile], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit']
  })
  child.stdout.setEncoding('utf8')
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk)
    log += chunk
  })
  code = await new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (exitCode, signal) => resolve(exitCode ?? signal))
  })
} finally {
  await service?.close()
  await github?.close()
  removeEventFiles()
  if (folder) await rm(folder, { recursive: true, force: true })
}

// local-action exits 0 even when the action fails (its setFailed only records the failure), so
// the outcome is read from what the action said: its status output and its error lines.
const lines = stripVTControlCharacters(log).split('\n')
const lastOutput = (/** @type {string} */ name) => {
  const prefix = `::set-output name=${name}::`
  return lines.findLast((line) => line.startsWith(prefix))?.slice(prefix.length) ?? ''
}
const errors = lines.filter((line) => line.startsWith('::error::'))
const [jobId, status] = [lastOutput('jobId'), lastOutput('status')]
if (service) {
  const creates = service.requestsOf('POST').length
  const reads = service.requestsOf('GET').length
  console.log(`The stand-in service received ${creates} create request(s) and ${reads} read(s).`)
}
if (github) console.log(`The stand-in for GitHub's API received ${github.requests.length} request(s).`)
if (code !== 0) {
  console.log(`local-action ended with ${code}: the action did not run to its end (see above).`)
  process.exitCode = 1
} else if (!service) {
  // Your own inputs: a job left active (wait: false) is an outcome too; an error line is not.
  const ended = jobId ? `job ${jobId}, status ${status || 'unknown'}` : 'no job'
  console.log(
    `local-action ran src/main.ts with the inputs in ${shownEnvFile}: ${ended}${errors.length ? ', with the errors above' : ''}.`
  )
  if (errors.length > 0) process.exitCode = 1
} else if (status !== 'completed' || errors.length > 0) {
  console.log(`The action did not end with a completed job (status: ${status || 'none'}); its errors are above.`)
  process.exitCode = 1
} else {
  console.log(`local-action ran src/main.ts against the stand-in: job ${jobId} completed.`)
}
