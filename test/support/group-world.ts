// A group's world for the action tests: the stand-in service and a stand-in GitHub that keeps its
// state between runs (labels, comments, pull requests' states, a history that grows as commits are
// pushed), and the runs a group sees: pushes, pull request events, schedules, re-runs. What the tests
// count is read from the stand-ins: the writes the service took, and what each prompt carried.
import type { TestContext } from 'vitest'
import { signMarker } from '../../src/thread/agent-note-record.js'
import { groupMarker } from '../../src/group/group-marker.js'
import { inputsFor, runAction, type ActionRun } from './run-action.js'
import {
  changedFile,
  pullRequestEvent,
  pushEvent,
  runnerEnvironment,
  standInCommit,
  startStandInGitHub,
  workflowDispatchEvent,
  type Options as GitHubOptions,
  type StandInCommit,
  type StandInGitHub
} from './stand-in-github.js'
import { startStandInService, type Options as ServiceOptions, type StandInService } from './stand-in-service.js'

export const TOKEN = 'ghs_stand_in_token_0123456789'
export const SERVER = 'https://github.example'
export const REPO = 'octo-org/docs-site'
export const SOURCE = `${SERVER}/${REPO}`
export const GROUP = 'docs-follow-code'
export const LABEL = `docs-agent:${GROUP}`
/** Job n opens pull request 30 + n in this repository; a message keeps the job's pull request. */
export const pullOf = (n: number): string => `${SOURCE}/pull/${30 + n}`
/** Several runs in a row: more than the default 15 s on a loaded machine. */
export const SEVERAL_RUNS_MS = 90_000

export interface World {
  service: StandInService
  github: StandInGitHub
  /** The repository's history, oldest first: a push appends to it. */
  history: StandInCommit[]
}

/** The commit `name` ("Add the <name> flag"), changing a file of its own. */
export function commit(name: string): StandInCommit {
  return standInCommit(`Add the ${name} flag`, [changedFile(`src/flag-${name}.ts`)])
}

export const base = standInCommit('Start the CLI', [changedFile('src/cli.ts')])

/** A world whose history is `base`; the service's job n opens pull request 30 + n. */
export async function groupWorld(
  test: TestContext,
  service: ServiceOptions = {},
  github: Omit<GitHubOptions, 'repository'> = {}
): Promise<World> {
  const history = [base]
  const w = {
    history,
    service: await startStandInService({
      plan: (n) => ({ activeReads: 1, prLink: pullOf(n), repository: SOURCE }),
      messagePlan: { activeReads: 1, prLink: pullOf(1), repository: SOURCE },
      ...service
    }),
    github: await startStandInGitHub({ repository: { history, workflowRuns: [] }, ...github })
  }
  test.onTestFinished(async () => {
    await w.service.close()
    await w.github.close()
  })
  return w
}

/** The event of a push of `commits` on top of the history (added to it), or of commits already in it. */
export function pushOf(w: World, commits: StandInCommit[]): object {
  const first = w.history.findIndex((c) => c.sha === commits[0].sha)
  if (first < 0) w.history.push(...commits)
  const at = w.history.findIndex((c) => c.sha === commits[0].sha)
  return pushEvent({ before: w.history[at - 1].sha, commits })
}

/** Runs the action with the group on `event` (`push`, `pull_request`, `schedule`...). */
export function runGroup(
  w: World,
  eventName: string,
  payload: object,
  extra: Record<string, string> = {},
  env: Record<string, string> = {}
): Promise<ActionRun> {
  return runAction({
    inputs: inputsFor(w.service, { prompt: 'Keep the docs in step', githubToken: TOKEN, group: GROUP, ...extra }),
    env: runnerEnvironment(w.github, eventName, payload, env)
  })
}

/** A push of `commits` (added to the history when new), run with the group. */
export function push(w: World, commits: StandInCommit[], extra: Record<string, string> = {}): Promise<ActionRun> {
  return runGroup(w, 'push', pushOf(w, commits), extra)
}

/** A scheduled (or dispatched) run at the history's head. */
export function scheduled(w: World, extra: Record<string, string> = {}): Promise<ActionRun> {
  return runGroup(w, 'schedule', workflowDispatchEvent(), extra, { GITHUB_SHA: w.history.at(-1)!.sha })
}

/** A `pull_request` event of the code pull request #7 at `head`. */
export function onCodePull(
  w: World,
  action: string,
  head: StandInCommit,
  extra: Record<string, string> = {},
  merged = false
): Promise<ActionRun> {
  return runGroup(w, 'pull_request', pullRequestEvent({ number: 7, action, headSha: head.sha, merged }), extra)
}

/** The service's writes: creates (POST …/job) and messages (POST …/message), with their prompts. */
export const creates = (w: World) => w.service.requestsOf('POST').filter((r) => r.path.endsWith('/job'))
export const messages = (w: World) => w.service.requestsOf('POST', '/message')
export const promptOf = (request: { body: string }): string => JSON.parse(request.body).prompt

/** The prompts the service took (jobs made, messages delivered), in order. */
export function promptsTaken(w: World): string[] {
  const taken: { at: number; prompt: string }[] = []
  for (const job of w.service.jobs.values()) {
    if (job.number < 900) taken.push({ at: job.createdAt, prompt: job.prompt })
    for (const message of job.messages) taken.push(message)
  }
  return taken.sort((a, b) => a.at - b.at).map((t) => t.prompt)
}

/** The group's notes on pull request `pr`: the action's comments holding a group marker. */
export const notes = (w: World, pr = 31) =>
  w.github.comments.filter((c) => c.issueNumber === pr && c.body.includes('<!-- docs-agent-group: '))
/** The mark a group's note holds. */
export const markOn = (body: string): string =>
  /<!-- docs-agent-group: \S+ \S+ ([0-9a-f]+|-) g1\./.exec(body)?.[1] ?? ''

/** Runs `run` and returns it with the service writes it made. */
export async function counted(w: World, run: () => Promise<ActionRun>): Promise<ActionRun & { writes: number }> {
  const before = w.service.requestsOf('POST').length
  const result = await run()
  return { ...result, writes: w.service.requestsOf('POST').length - before }
}

/** A note the action would have left on `pr` for `jobId`, signed with `key` (the job's marker and the group's). */
export function signedNote(
  key: string,
  jobId: string,
  options: { pr?: number; group?: string; mark?: string; projectId?: string; repository?: string } = {}
): string {
  const [owner, repo] = (options.repository ?? REPO).split('/')
  const place = {
    host: 'github.example',
    pr: { owner, repo, number: options.pr ?? 31 },
    projectId: options.projectId ?? 'docs'
  }
  return (
    `${signMarker({ apiKey: key }, place, jobId)}\n` +
    `${groupMarker({ apiKey: key }, place, { jobId, group: options.group ?? GROUP, mark: options.mark ?? base.sha })}\n📝 note`
  )
}

/** Waits (counting requests, not time) until `done` says so, at most `tries` looks 20 ms apart. */
export async function until(done: () => boolean, tries = 1_000): Promise<void> {
  for (let i = 0; i < tries && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 20))
  if (!done()) throw new Error('The condition waited for never came.')
}

export { startStandInGitHub }
