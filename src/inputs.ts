import * as core from '@actions/core'
import { Input } from './constants.js'
import { parseDuration } from './duration.js'
import { ActionError } from './errors.js'

/** Everything a run needs, read and checked before the first request is sent. */
export interface Settings {
  /** The documentation project, as the service names it (not yet URL-encoded). */
  projectId: string
  /** The instruction for the agent; empty when an existing job is followed. */
  prompt: string
  /** The admin key, `svc_<secret>`; already masked in the log. */
  apiKey: string
  /** The service's address without a trailing slash: https, or http on a loopback host. */
  baseUrl: string
  /** Follow the job to a final status, or stop once it exists. */
  wait: boolean
  /** How long the step may follow the job, counted from the step's start. */
  timeoutMs: number
  /** The steady interval between polls once a job has run a while. */
  pollIntervalMs: number
  /** An existing job to follow instead of creating one; empty to create. */
  jobId: string
  /** Fail a completed job that opened no pull request. */
  requirePr: boolean
}

const KEY_SHAPE = /^svc_[^\s]+$/
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost'])

/**
 * Masks the API key in everything the runner prints from now on. It runs first, before any input
 * is checked or logged, so no later message (an error, a debug line) can show the key.
 */
export function maskApiKey(): void {
  const raw = core.getInput(Input.apiKey, { trimWhitespace: false })
  for (const value of new Set([raw, raw.trim()])) {
    if (value) core.setSecret(value)
  }
}

/** `commentPrompt`: in a comment-triggered run, the prompt read from the comment (the prompt input is empty). */
export function readSettings(commentPrompt = ''): Settings {
  const projectId = required(Input.projectId, 'the documentation project, as the service names it')
  const apiKey = required(
    Input.apiKey,
    'the admin key from a repository secret, e.g. ${{ secrets.DOCS_AGENT_API_KEY }}'
  )
  const baseUrl = readBaseUrl(required(Input.baseUrl, "the service's address, https://..."))
  const prompt = core.getInput(Input.prompt) || commentPrompt
  const jobId = core.getInput(Input.jobId)

  if (!KEY_SHAPE.test(apiKey)) {
    throw new ActionError(
      `Input ${Input.apiKey} does not look like an API key of the service (the value is not shown). ` +
        `A key is svc_ followed by its secret part, with no spaces, as generated on the API keys page ` +
        `of the project's dashboard. Check the secret that the workflow passes as ${Input.apiKey}.`
    )
  }
  if (!prompt && !jobId) {
    throw new ActionError(
      `Input ${Input.prompt} is empty and no ${Input.jobId} is given: there is nothing to do. ` +
        `Give a prompt to create a job, or a jobId to follow an existing one.`
    )
  }
  if (prompt && jobId) {
    core.warning(`Both ${Input.prompt} and ${Input.jobId} are given: following job ${jobId}; the prompt is not sent.`)
  }

  return {
    projectId,
    prompt: jobId ? '' : prompt,
    apiKey,
    baseUrl,
    wait: readBoolean(Input.wait, true),
    timeoutMs: parseDuration(core.getInput(Input.timeout) || '30m', Input.timeout),
    pollIntervalMs: parseDuration(core.getInput(Input.pollInterval) || '5s', Input.pollInterval),
    jobId,
    requirePr: readBoolean(Input.requirePr, false)
  }
}

/** The settings as a debug line, with the key and the prompt left out. */
export function describeSettings(settings: Settings): string {
  const { apiKey: _key, prompt, ...shown } = settings
  return JSON.stringify({ ...shown, prompt: prompt ? `(${prompt.length} characters)` : '' })
}

function required(name: string, what: string): string {
  const value = core.getInput(name)
  if (!value) throw new ActionError(`Input ${name} is required: ${what}.`)
  return value
}

function readBoolean(name: string, fallback: boolean): boolean {
  const value = core.getInput(name)
  if (value === '') return fallback
  if (/^(true|yes|on)$/i.test(value)) return true
  if (/^(false|no|off)$/i.test(value)) return false
  throw new ActionError(`Input ${name} is '${value}', which is not a boolean. Use true or false.`)
}

function readBaseUrl(text: string): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new ActionError(
      `Input ${Input.baseUrl} is '${text}', which is not a URL. Give the service's address, https://...`
    )
  }
  if (url.username || url.password) {
    throw new ActionError(
      `Input ${Input.baseUrl} carries credentials. Give the address alone; the key goes in ${Input.apiKey}.`
    )
  }
  if (url.search || url.hash) {
    // Not quoted: a query is where a key pasted by mistake would sit.
    throw new ActionError(
      `Input ${Input.baseUrl} has a query (?) or fragment (#). Give the service's address alone, https://...`
    )
  }
  const loopback = LOOPBACK_HOSTS.has(url.hostname)
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new ActionError(
      `Input ${Input.baseUrl} is '${text}', but the key may only travel over https. ` +
        `Use https://... (plain http is accepted only for 127.0.0.1, ::1 and localhost, for local testing).`
    )
  }
  return url.href.replace(/\/+$/, '')
}
