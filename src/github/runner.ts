// What the runner tells a step, read once, at the entry (readRunner): the event, keyed by its name
// with its payload read into that event's shape (event.ts; the file GITHUB_EVENT_PATH names, parsed
// once), the repository, this GitHub's addresses with their fallbacks, and the run. Every stage takes
// this value and never reads the environment or the event file again (as claude-code-action's
// parseGitHubContext), so a test hands a stage the runner it means.
import { loadEventPayload, payloadRepository, readRunnerEvent, type RunnerEvent } from './event.js'

/** The run's event and repository, as the runner's environment (GITHUB_*) and its event file give them. */
export interface Runner {
  /** GITHUB_EVENT_NAME, with its payload read into the event's shape. */
  event: RunnerEvent
  /** The event file, read once: whether it could be (a comment's run stops when it could not), and why not. */
  eventFile: EventFile
  /** GITHUB_REPOSITORY, `owner/name`; the payload's repository when the runner names none. */
  repository: string
  /** GITHUB_SERVER_URL (github.com's by default), without a trailing slash: for links. */
  serverUrl: string
  /** GITHUB_API_URL (github.com's by default): the only address the token is sent to. */
  apiUrl: string
  /** GITHUB_RUN_ID, to find this run's workflow. */
  runId?: string
  /** GITHUB_WORKFLOW_REF (`owner/name/.github/workflows/file.yml@ref`): names the workflow without a request. */
  workflowRef?: string
  /** GITHUB_REF_NAME: the branch or tag the run is for. */
  refName?: string
  /** GITHUB_SHA: the commit the run is for. */
  sha?: string
}

/** The event file (GITHUB_EVENT_PATH) as it was read: its path, and why it could not be read. */
export type EventFile = { path: string } & (
  { problem: null } | { problem: 'no path' } | { problem: 'unreadable'; error: string }
)

/** github.com's addresses: where a runner that names none runs. */
const GITHUB_COM = { serverUrl: 'https://github.com', apiUrl: 'https://api.github.com' }

/** Reads the runner's GITHUB_* variables and its event file, once; an unreadable event file is an empty payload. */
export function readRunner(env: NodeJS.ProcessEnv): Runner {
  const path = env.GITHUB_EVENT_PATH ?? ''
  const loaded = loadEventPayload(path)
  const payload = 'payload' in loaded ? loaded.payload : {}
  return {
    event: readRunnerEvent(env.GITHUB_EVENT_NAME ?? '', payload),
    eventFile: { path, ...('payload' in loaded ? { problem: null } : loaded) },
    repository: env.GITHUB_REPOSITORY || payloadRepository(payload),
    serverUrl: (env.GITHUB_SERVER_URL || GITHUB_COM.serverUrl).replace(/\/+$/, ''),
    apiUrl: env.GITHUB_API_URL || GITHUB_COM.apiUrl,
    runId: env.GITHUB_RUN_ID,
    workflowRef: env.GITHUB_WORKFLOW_REF,
    refName: env.GITHUB_REF_NAME || (env.GITHUB_REF ?? '').replace(/^refs\/(heads|tags)\//, '') || undefined,
    sha: env.GITHUB_SHA
  }
}
