// @ts-check
// The start-up peer of `npm run bench`: a stand-in for actions/github-script (v8, `runs.using:
// node24`) running a script that sends the create. A workflow without this action would do that.
// It is none of github-script's code: it does what github-script's entry does on start, with the
// toolkit packages installed here, and `npm run bench` bundles it with ncc as github-script is
// bundled (`ncc build`, not minified) into node_modules/.cache/, then measures it beside the action.
//
// On start github-script imports @actions/core, @actions/exec, @actions/github (getOctokit, context
// and the client's defaults), @actions/glob, @actions/io, @octokit/plugin-request-log and
// @octokit/plugin-retry; reads its inputs (the runner passes their defaults); makes the Octokit
// client with both plugins; then runs the step's `script` as the body of an async function given
// those modules. The benchmark gives it the script (scripts/bench.js, GITHUB_SCRIPT_STEP): the same
// POST as scripts/bench-minimal-post.js, with fetch. See docs/benchmark.md.
import * as core from '@actions/core'
import * as exec from '@actions/exec'
import { context, getOctokit } from '@actions/github'
import { defaults } from '@actions/github/lib/utils'
import * as glob from '@actions/glob'
import * as io from '@actions/io'
import { requestLog } from '@octokit/plugin-request-log'
import { retry } from '@octokit/plugin-retry'
import { createRequire } from 'node:module'

/** An input as github-script reads it, with the default its action.yml gives when the step sets none. */
const input = (/** @type {string} */ name, /** @type {string} */ fallback) => core.getInput(name) || fallback

async function main() {
  const token = core.getInput('github-token', { required: true })
  const debug = input('debug', 'false') === 'true'
  const userAgent = input('user-agent', 'actions/github-script')
  const previews = core.getInput('previews')
  const baseUrl = core.getInput('base-url')
  const retries = parseInt(input('retries', '0'))
  const exempt = input('retry-exempt-status-codes', '400,401,403,404,422').split(',').map(Number)
  const opts = {
    log: debug ? console : undefined,
    userAgent,
    previews: previews ? previews.split(',') : undefined,
    retry: retries > 0 ? { enabled: true, doNotRetry: exempt } : { enabled: false },
    request: retries > 0 ? { ...defaults.request, retries } : defaults.request,
    ...(baseUrl ? { baseUrl } : {})
  }
  const github = getOctokit(token, opts, retry, requestLog)
  const script = core.getInput('script', { required: true })

  const args = { require: createRequire(import.meta.url), github, octokit: github, context, core, exec, glob, io }
  const AsyncFunction = Object.getPrototypeOf(async () => null).constructor
  const result = await new AsyncFunction(...Object.keys(args), script)(...Object.values(args))
  core.setOutput('result', JSON.stringify(result))
}

main().catch((error) => core.setFailed(`Unhandled error: ${error}`))
