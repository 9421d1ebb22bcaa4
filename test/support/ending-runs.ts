// What the action tests of a run's ending share: a job that opens a pull request in the workflow's own
// repository (so the run reads it and leaves a note there), the stand-ins each test starts and ends,
// a comment run's environment and inputs, and how a test picks the note, the reply and the heading.
import { afterAll, type TestContext } from 'vitest'
import {
  apiPullRequest,
  issueCommentEvent,
  removeEventFiles,
  runnerEnvironment,
  startStandInGitHub,
  type Options as GitHubOptions,
  type StandInGitHub
} from './stand-in-github.js'
import { startStandInService, type Options, type StandInService } from './stand-in-service.js'

export const TOKEN = 'ghs_endings_edge_token_0123456789'
export const SERVER = 'https://github.example'
export const REPO = 'octo-org/docs-site'
export const SOURCE = `${SERVER}/${REPO}`
export const AGENT_PR = 31
export const AGENT_PR_LINK = `${SERVER}/${REPO}/pull/${AGENT_PR}`
/** A job whose source is this repository, and which opens AGENT_PR there: its run reads the pull request and leaves a note. */
export const OPENS_AGENT_PR: Options = {
  plan: { activeReads: 1, prLink: AGENT_PR_LINK, repository: SOURCE },
  messagePlan: { activeReads: 1, prLink: AGENT_PR_LINK, repository: SOURCE }
}
/** A test of several runs, or of a bound of a few seconds: more than the default 15 s on a loaded machine. */
export const LONG_TEST_MS = 30_000

afterAll(removeEventFiles)

export async function standIn(test: TestContext, options: Options = {}): Promise<StandInService> {
  const service = await startStandInService(options)
  test.onTestFinished(() => service.close())
  return service
}

export async function standInGitHub(test: TestContext, options: GitHubOptions = {}): Promise<StandInGitHub> {
  const github = await startStandInGitHub({
    repository: { pulls: { [AGENT_PR]: apiPullRequest({ number: AGENT_PR, title: 'Retries, documented' }) } },
    ...options
  })
  test.onTestFinished(() => github.close())
  return github
}

export function commentEnv(github: StandInGitHub, body: string, onPullRequest = false): Record<string, string> {
  const event = issueCommentEvent({ body, number: onPullRequest ? AGENT_PR : 12, onPullRequest })
  return runnerEnvironment(github, 'issue_comment', event, { GITHUB_SERVER_URL: SERVER })
}

export function commentInputs(service: StandInService, extra: Record<string, string> = {}): Record<string, string> {
  return {
    projectId: 'docs',
    apiKey: service.apiKey,
    baseUrl: service.url,
    pollInterval: '1s',
    timeout: '30s',
    githubToken: TOKEN,
    ...extra
  }
}

const isNote = (body: string): boolean => body.includes('<!-- docs-agent-job: ')
/** The action's notes among the comments the stand-in GitHub holds. */
export const notes = (github: StandInGitHub) => github.comments.filter((c) => isNote(c.body))
/** The comments that are not notes: the replies on the thread. */
export const replies = (github: StandInGitHub) => github.comments.filter((c) => !isNote(c.body))
/** The summary's heading: the first <h3>, as text. */
export const heading = (summary: string): string => /<h3>(.*?)<\/h3>/.exec(summary)?.[1] ?? ''
