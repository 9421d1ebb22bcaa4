// What the runner tells a step about its event, read into a request for the context.
import { readFileSync } from 'node:fs'
import type { ChangeContextRequest } from '../context/gather-session.js'

/** The request for the context, from the runner's environment (GITHUB_*) and the settings given. */
export function contextRequestFromRunner(
  settings: Pick<ChangeContextRequest, 'detail' | 'limit' | 'token' | 'promptFromComment' | 'signal' | 'maxMs'>,
  env: NodeJS.ProcessEnv = process.env
): ChangeContextRequest {
  return {
    ...settings,
    eventName: env.GITHUB_EVENT_NAME ?? '',
    payload: readEventPayload(env.GITHUB_EVENT_PATH),
    repository: env.GITHUB_REPOSITORY ?? '',
    serverUrl: env.GITHUB_SERVER_URL || 'https://github.com',
    apiUrl: env.GITHUB_API_URL || 'https://api.github.com',
    runId: env.GITHUB_RUN_ID,
    workflowRef: env.GITHUB_WORKFLOW_REF,
    refName: env.GITHUB_REF_NAME || (env.GITHUB_REF ?? '').replace(/^refs\/(heads|tags)\//, '') || undefined,
    sha: env.GITHUB_SHA
  }
}

/** The event payload, or `{}` when there is none or it cannot be read: the context is then thinner. */
export function readEventPayload(path: string | undefined): unknown {
  if (!path) return {}
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return {}
  }
}
