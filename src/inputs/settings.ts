// Reads and checks every input once, at the start, into the run's Settings (their shape is
// kernel/settings.ts): a mistake is refused in a sentence before the first request is sent.
import * as core from '@actions/core'
import { parseContextLimit, parseContextMode } from './context-settings.js'
import { eventNameOf, isCommentEvent } from '../github/event.js'
import { readRunner, type Runner } from '../github/runner.js'
import { forkKeySentence, forkWithoutSecrets } from '../github/fork.js'
import { readCommentSettings, readNoteTrigger } from './comment-settings.js'
import type { FirstInputs, Settings } from '../kernel/settings.js'
import { Input } from '../kernel/action-names.js'
import { readBaseUrl } from './base-url.js'
import { readDocsRepository, readGroupSettings } from '../group/group-settings.js'
import { formatDuration, parseDuration } from '../runtime/duration.js'
import { ActionError } from '../runtime/errors.js'
import { describeMisnamed, misnamedInputs, type MisnamedInput } from './misnamed-inputs.js'
import { bareSecondsWarning } from './timing-notes.js'
import { jobIdProblem, MAX_JOB_ID_LENGTH } from '../safety/job-id.js'
import { log } from '../runtime/log.js'
import { readPromptFile } from './prompt-file.js'
import { joinPrompts } from '../prompt/join-prompts.js'
import { registerSecret } from '../safety/run-secrets.js'
import { hasControlCharacter, neutralise } from '../safety/neutralise.js'

// svc_ and printable ASCII: anything else is no key, and a header undici would refuse to send.
const KEY_SHAPE = /^svc_[\x21-\x7e]+$/
/** The shortest pollInterval accepted: anything shorter is a load on the service, not a poll. */
const POLL_INTERVAL_BOUNDS = {
  minMs: 1000,
  whyMin: 'polling more often only adds load on the service'
}

/**
 * Masks the API key and the GitHub token in everything the runner prints from now on. It runs
 * first, before any input is checked or logged, so no later message (an error, a debug line) can
 * show either.
 */
export function maskSecrets(): void {
  registerSecret(core.getInput(Input.apiKey, { trimWhitespace: false }))
  registerSecret(core.getInput(Input.githubToken, { trimWhitespace: false }))
  // A key given under a misspelt name (api_key) is not read, but it is still a key.
  for (const { variable, meant } of misnamedInputs()) {
    if (meant === Input.apiKey || meant === Input.githubToken) registerSecret(process.env[variable] ?? '')
  }
}

/** The githubToken input, read once: the run's GitHub session (github/session.ts) is built with it. */
export function readGitHubToken(): string {
  return core.getInput(Input.githubToken)
}

/** Reads the inputs a run needs before the others (see FirstInputs); the token as readGitHubToken read it. */
export function readFirstInputs(runner: Runner, githubToken: string = readGitHubToken()): FirstInputs {
  return { comment: readCommentSettings(runner), githubToken }
}

/**
 * Reads and checks every input; `runner` tells whether the run is comment-triggered. The inputs read
 * first (the comment settings and the token, see FirstInputs) are handed in, so that they are read once. A refusal carries the hint about a misspelt input name
 * (logged as a warning above it) that its sentence does not give already: the summary and the reply
 * show the refusal alone, and the hint is often its cause.
 */
export function readSettings(
  runner: Runner = readRunner(process.env),
  first: FirstInputs = readFirstInputs(runner)
): Settings {
  const misnamed = misnamedInputs()
  for (const input of misnamed) log.warning(describeMisnamed(input))
  try {
    return readCheckedSettings(runner, misnamed, first)
  } catch (error) {
    if (!(error instanceof ActionError)) throw error
    const hints = misnamed.filter(({ variable }) => !error.message.includes(variable)).map(describeMisnamed)
    throw hints.length ? new ActionError([error.message, ...hints].join(' ')) : error
  }
}

function readCheckedSettings(
  runner: Runner,
  misnamed: MisnamedInput[],
  { comment, githubToken }: FirstInputs
): Settings {
  const eventName = eventNameOf(runner.event)
  const { projectId, apiKey, baseUrl } = readServiceAccess(runner, misnamed)
  const inlinePrompt = core.getInput(Input.prompt)
  const jobId = readJobId(core.getInput(Input.jobId))
  // A job to follow needs no prompt, so its file is not read.
  const prompt = joinPrompts(jobId ? '' : readPromptFile(core.getInput(Input.promptFile)), inlinePrompt)

  if (!prompt && !jobId && !comment) {
    throw new ActionError(
      `Input ${Input.prompt} is empty and no ${Input.jobId} is given: there is nothing to do. ` +
        `Give a prompt (or a ${Input.promptFile}) to create a job, or a jobId to follow an existing one.`
    )
  }
  // A prompt with a jobId is a follow-up message to that job (see JobService.sendMessage).
  if (inlinePrompt && isCommentEvent(runner.event)) {
    log.warning(
      `This run was started by a comment (${eventName}) and has a ${Input.prompt} input, so it starts a job ` +
        `${jobId ? '(here, a message to one) ' : ''}whoever wrote the comment: who may start one is not checked. To let only trusted people start jobs, ` +
        `leave ${Input.prompt} out and let the comment give the instruction (see ${Input.trigger} and ` +
        `${Input.allowedAssociations}), or check github.event.comment.author_association in the workflow's if: condition.`
    )
  }

  const wait = readBoolean(Input.wait, true)
  const timeoutMs = parseDuration(core.getInput(Input.timeout) || '30m', Input.timeout)
  const bareSeconds = bareSecondsWarning(core.getInput(Input.timeout))
  if (bareSeconds) log.warning(bareSeconds)
  const pollIntervalMs = parseDuration(
    core.getInput(Input.pollInterval) || '5s',
    Input.pollInterval,
    POLL_INTERVAL_BOUNDS
  )
  if ((wait || jobId) && pollIntervalMs >= timeoutMs) warnPollIntervalNotShorter(pollIntervalMs, timeoutMs)

  return {
    projectId,
    prompt,
    apiKey,
    baseUrl,
    wait,
    timeoutMs,
    pollIntervalMs,
    jobId,
    requirePr: readBoolean(Input.requirePr, false),
    comment,
    context: parseContextMode(core.getInput(Input.context)),
    contextLimit: parseContextLimit(core.getInput(Input.contextLimit)),
    githubToken,
    dryRun: readBoolean(Input.dryRun, false),
    noteTrigger: readNoteTrigger(),
    group: readGroupSettings(runner, wait),
    docsRepository: readDocsRepository(runner)
  }
}

/** The service's access (project, key, address), read and checked: every run that talks to the service needs them. */
export function readServiceAccess(
  runner: Runner,
  misnamed: MisnamedInput[]
): Pick<Settings, 'projectId' | 'apiKey' | 'baseUrl'> {
  const required = (name: string, what: string): string => requiredInput(name, what, misnamed)
  const projectId = readProjectId(required(Input.projectId, 'the documentation project, as the service names it'))
  // On a fork's pull request GitHub gives the run no secrets: the key is empty for a reason the user can act on.
  const fork = core.getInput(Input.apiKey) ? null : forkWithoutSecrets(runner.event)
  if (fork && !misnamed.some((input) => input.meant === Input.apiKey))
    throw new ActionError(forkKeySentence(fork, Input.apiKey))
  const apiKey = required(
    Input.apiKey,
    'the admin key from a repository secret, e.g. ${{ secrets.DOCS_AGENT_API_KEY }}'
  )
  const baseUrl = readBaseUrl(required(Input.baseUrl, "the service's address, https://..."))
  if (!KEY_SHAPE.test(apiKey)) {
    throw new ActionError(
      keyMistake(apiKey) ??
        `Input ${Input.apiKey} does not look like an API key of the service (the value is not shown). ` +
          `A key is svc_ followed by its secret part in printable ASCII, with no spaces, as generated on the API keys page ` +
          `of the project's dashboard. Check the secret that the workflow passes as ${Input.apiKey}.`
    )
  }
  return { projectId, apiKey, baseUrl }
}

/** The settings as a debug line, with the secrets and the prompt left out. */
export function describeSettings(settings: Settings): string {
  const { apiKey: _key, prompt, githubToken, ...shown } = settings
  return JSON.stringify({
    ...shown,
    githubToken: githubToken ? '(set)' : '',
    prompt: prompt ? `(${prompt.length} characters)` : ''
  })
}

/**
 * The project as given, once it is sure to name one: it is a segment of every request's path, so
 * `.` and `..` (which would send the key to another route) are refused, as written or
 * percent-encoded; and it is logged, so a control character (a line break) is refused too.
 */
function readProjectId(projectId: string): string {
  if (hasControlCharacter(projectId)) {
    throw new ActionError(
      `Input ${Input.projectId} has a control character (a line break, a tab...) in it, which no project id has. ` +
        `Give the project id as the service names it.`
    )
  }
  if (isDotSegment(projectId)) {
    throw new ActionError(
      `Input ${Input.projectId} is '${projectId}', which names no project: as part of the request's path it ` +
        `would point at another route of the service. Give the project id as the service names it.`
    )
  }
  return projectId
}

/** A job to follow, or '' to create one: it must have the shape of a job id (see isJobId). */
function readJobId(jobId: string): string {
  const problem = jobId === '' ? '' : jobIdProblem(jobId)
  if (!problem) return jobId
  throw new ActionError(
    `Input ${Input.jobId} is '${neutralise(jobId, 140)}', which is not a job id: ${problem}. A job id is any text ` +
      `of 1 to ${MAX_JOB_ID_LENGTH} characters without control characters. Give the id from the run that ` +
      `created the job (its jobId output), or leave ${Input.jobId} out to create a job.`
  )
}

/** `.` or `..`, as written or percent-encoded (`%2e`, `.%2E`, even encoded twice). */
function isDotSegment(text: string): boolean {
  let decoded = text
  for (let round = 0; round < 3; round++) {
    try {
      decoded = decodeURIComponent(decoded)
    } catch {
      break
    }
  }
  return text === '.' || text === '..' || decoded === '.' || decoded === '..'
}

/** A required input's value; when it is missing but a misspelt name for it is given, the error names that. */
function requiredInput(name: string, what: string, misnamed: MisnamedInput[]): string {
  const value = core.getInput(name)
  if (value) return value
  const given = misnamed.find((input) => input.meant === name)
  const hint = given ? ` The step gives ${given.given} instead (${given.variable}): name it ${name}.` : ''
  throw new ActionError(`Input ${name} is required: ${what}.${hint}`)
}

function readBoolean(name: string, fallback: boolean): boolean {
  const value = core.getInput(name)
  if (value === '') return fallback
  if (/^(true|yes|on)$/i.test(value)) return true
  if (/^(false|no|off)$/i.test(value)) return false
  throw new ActionError(`Input ${name} is '${value}', which is not a boolean. Use true or false.`)
}

/**
 * A pollInterval as long as the timeout leaves few reads (the first interval's ramp, then one just
 * before the deadline): a job that ends early is seen, and logged, that late. Warned, not refused:
 * the job is still followed and reported right, and tests of a timeout rely on such settings.
 */
function warnPollIntervalNotShorter(pollIntervalMs: number, timeoutMs: number): void {
  const [poll, timeout] = [formatDuration(pollIntervalMs), formatDuration(timeoutMs)]
  log.warning(
    `Input ${Input.pollInterval} (${poll}) is not shorter than ${Input.timeout} (${timeout}): the job is read ` +
      `only a few times within the time allowed, the last just before it runs out, so a job that ends sooner ` +
      `may be seen late. ` +
      `Give a ${Input.pollInterval} well below ${Input.timeout} (a tenth of it, say), or a longer ${Input.timeout}.`
  )
}

/**
 * What is wrong with a key that has not the shape of one, when it is a common slip: the header's
 * `Bearer ` copied with it, or the quotes of a shell or .env file kept in the secret. Never quotes it.
 */
function keyMistake(apiKey: string): string | null {
  if (/^bearer\s/i.test(apiKey)) {
    return (
      `Input ${Input.apiKey} starts with 'Bearer ' (the value is not shown): the action writes the Authorization ` +
      `header itself. Remove 'Bearer ' from the secret, so that it holds the key alone, svc_...`
    )
  }
  if (/^['"`]/.test(apiKey) || /['"`]$/.test(apiKey)) {
    return (
      `Input ${Input.apiKey} begins or ends with a quote mark (the value is not shown): the quotes were stored as ` +
      `part of the secret. Remove them from the secret, so that it holds the key alone, svc_...`
    )
  }
  return null
}
