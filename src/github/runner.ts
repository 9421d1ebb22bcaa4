// What the runner tells a step, read once, at the entry (readRunner): the event's name and its payload
// (the file GITHUB_EVENT_PATH names, parsed once), the repository, this GitHub's addresses with their
// fallbacks, and the run. Every stage takes this value and never reads the environment or the event
// file again (as claude-code-action's parseGitHubContext), so a test hands a stage the runner it means.
import { loadEventPayload, type LoadedPayload, type RunnerEvent } from './event.js'

/** The runner's view of the run (RunnerEvent), and the event file as it was read. */
export interface Runner extends RunnerEvent {
  /** The event file, read once: its payload, or why it could not be read (a comment's run stops on that). */
  eventFile: LoadedPayload & { path: string }
}

/** github.com's addresses: where a runner that names none runs. */
const GITHUB_COM = { serverUrl: 'https://github.com', apiUrl: 'https://api.github.com' }

/** Reads the runner's GITHUB_* variables and its event file, once; an unreadable event file is an empty payload. */
export function readRunner(env: NodeJS.ProcessEnv): Runner {
  const path = env.GITHUB_EVENT_PATH ?? ''
  const loaded = loadEventPayload(path)
  return {
    eventName: env.GITHUB_EVENT_NAME ?? '',
    payload: 'payload' in loaded ? loaded.payload : {},
    eventFile: { ...loaded, path },
    repository: env.GITHUB_REPOSITORY ?? '',
    serverUrl: (env.GITHUB_SERVER_URL || GITHUB_COM.serverUrl).replace(/\/+$/, ''),
    apiUrl: env.GITHUB_API_URL || GITHUB_COM.apiUrl,
    runId: env.GITHUB_RUN_ID,
    workflowRef: env.GITHUB_WORKFLOW_REF,
    refName: env.GITHUB_REF_NAME || (env.GITHUB_REF ?? '').replace(/^refs\/(heads|tags)\//, '') || undefined,
    sha: env.GITHUB_SHA
  }
}
