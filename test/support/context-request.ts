// What the change-context unit tests hand gatherChangeContext: a run of the docs.yml workflow in
// octo-org/docs-site, reading from a stand-in GitHub API, with read limits small enough for a test.
import type { ChangeContextRequest } from '../../src/context/change-context.js'
import type { ReadLimits } from '../../src/github/reader.js'
import { readRunnerEvent } from '../../src/github/event.js'
import { openGitHubSession } from '../../src/github/session.js'
import type { StandInGitHub } from './stand-in-github.js'

export const TOKEN = 'ghs_context_token_0123456789'
export const REPO = 'octo-org/docs-site'
export const SERVER = 'https://github.example'
export const WORKFLOW_REF = `${REPO}/.github/workflows/docs.yml@refs/heads/main`

/**
 * Three requests, as in a run, and time limits no answer from the stand-in comes near on a busy
 * machine: a test of a limit sets that one short itself (test/unit/context/bounds.test.ts).
 */
export const TEST_LIMITS: ReadLimits = {
  maxRequests: 3,
  totalMs: 10_000,
  requestMs: 10_000,
  maxBodyBytes: 16 * 1024 * 1024
}

/**
 * The request, read through a GitHub session with `token` (TOKEN by default) at `apiUrl` (the
 * stand-in's by default), as the run's one session reads it.
 */
export function contextRequest(
  github: StandInGitHub,
  eventName: string,
  payload: unknown,
  { token = TOKEN, apiUrl = github.apiUrl, ...extra }: Partial<ChangeContextRequest> & { token?: string } = {}
): ChangeContextRequest {
  return {
    detail: 'changes',
    limit: 20_000,
    event: readRunnerEvent(eventName, payload),
    repository: REPO,
    serverUrl: SERVER,
    apiUrl,
    github: openGitHubSession(token, { serverUrl: SERVER, apiUrl }),
    runId: '4711',
    workflowRef: WORKFLOW_REF,
    refName: 'main',
    ...extra
  }
}
