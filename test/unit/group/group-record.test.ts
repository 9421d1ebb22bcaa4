// What a run with a group leaves on GitHub once it has ended (recordGroupRun), in process against the
// stand-in GitHub: the mark moves only after a message the service took, and only forward; a merged
// code pull request's docs pull request is told what its job was not sent. The group is looked up
// first (lookUpGroup), as the run does, so the record works on what a run would have found.
import { afterEach, describe, expect, it } from 'vitest'
import { lookUpGroup, type GroupRun } from '../../../src/group/group-lookup.js'
import { recordGroupRun } from '../../../src/group/group-record.js'
import type { GroupEnding } from '../../../src/group/group-status.js'
import { markedGroups } from '../../../src/group/group-job.js'
import { readRunner, type Runner } from '../../../src/github/runner.js'
import { openGitHubSession } from '../../../src/github/session.js'
import { signMarker } from '../../../src/comment/agent-pull-request.js'
import { groupMarker } from '../../../src/group/group-job.js'
import {
  changedFile,
  pullRequestEvent,
  pushEvent,
  removeEventFiles,
  runnerEnvironment,
  standInCommit,
  startStandInGitHub,
  type StandInGitHub
} from '../../support/stand-in-github.js'

const KEY = 'svc_stand_in_key_for_the_group'
const TOKEN = 'ghs_stand_in_token_0123456789'
const REPO = 'octo-org/docs-site'
const GROUP = 'docs-follow-code'
const settings = { githubToken: TOKEN, apiKey: KEY, projectId: 'docs' }
const groupSettings = { name: GROUP, repository: REPO }
const place = { host: 'github.example', pr: { owner: 'octo-org', repo: 'docs-site', number: 31 }, projectId: 'docs' }
const base = standInCommit('Start the CLI', [changedFile('src/cli.ts')])
const first = standInCommit('Add the --first flag', [changedFile('src/first.ts')])
const second = standInCommit('Add the --second flag', [changedFile('src/second.ts')])
const signal = new AbortController().signal

/** The group's note on its docs pull request #31, by job_g, with the group's mark at `mark`. */
const note = (mark: string): string =>
  `${signMarker({ apiKey: KEY }, place, 'job_g')}\n` +
  `${groupMarker({ apiKey: KEY }, place, { jobId: 'job_g', group: GROUP, mark })}\n📝 note`

let github: StandInGitHub | null = null
afterEach(async () => {
  await github?.close()
  github = null
  removeEventFiles()
})

/** The stand-in GitHub with the group's open docs pull request #31, its note's mark at `base`. */
async function docsWorld(): Promise<StandInGitHub> {
  github = await startStandInGitHub({
    repository: { history: [base, first, second] },
    labels: { 31: [`docs-agent:${GROUP}`] },
    threadComments: [{ issueNumber: 31, body: note(base.sha), login: 'github-actions[bot]' }]
  })
  return github
}

/** The run's runner for `event`, and the group as the run's look-up finds it. */
async function lookUp(world: StandInGitHub, eventName: string, payload: object): Promise<[Runner, GroupRun]> {
  const runner = readRunner(runnerEnvironment(world, eventName, payload))
  const group = await lookUpGroup(groupSettings, settings, signal, { runner, github: openGitHubSession(TOKEN, runner) })
  return [runner, group]
}

/** Records the group's run as tell-ending does, with the run's own session. */
async function record(runner: Runner, group: GroupRun, outcome: GroupEnding, delivered?: 'create' | 'message') {
  const onGitHub = { runner, github: openGitHubSession(TOKEN, runner) }
  await recordGroupRun({ outcome, group, delivered, settings, statusComment: null }, signal, onGitHub)
}

/** The group's marks in the note on #31, as a later run reads them (verified only). */
function marksOnTheNote(world: StandInGitHub): string[] {
  const [theNote] = world.threadComments(31)
  return markedGroups(theNote.body, { apiKey: KEY }, place, GROUP)
    .filter((m) => m.verified)
    .map((m) => m.mark)
}

const sent: GroupEnding = {
  ending: 'final',
  jobId: 'job_g',
  job: { status: 'completed', prLink: null },
  followUp: true
}

describe("the group's record after a run", () => {
  it('moves the mark to the commit a delivered message told of, by editing the note once', async () => {
    const world = await docsWorld()
    const [runner, group] = await lookUp(world, 'push', pushEvent({ before: base.sha, after: first.sha }))
    expect(group.open?.jobId).toBe('job_g')

    await record(runner, group, sent, 'message')

    expect(marksOnTheNote(world)).toEqual([first.sha])
    expect(world.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1)
  })

  it('leaves the mark where it was when nothing reached the service, so the next run sends those changes', async () => {
    const world = await docsWorld()
    const [runner, group] = await lookUp(world, 'push', pushEvent({ before: base.sha, after: first.sha }))

    const held: GroupEnding = { ending: 'held', hold: { why: 'waited-out' }, jobId: 'job_g', job: null }
    await record(runner, group, held, undefined)

    expect(marksOnTheNote(world)).toEqual([base.sha])
    expect(world.requests.filter((r) => r.method === 'PATCH')).toEqual([])
  })

  it('never moves the mark back over a later run that moved it meanwhile', async () => {
    const world = await docsWorld()
    // Two runs look the group up side by side; the later one (of `second`) records first.
    const [runner, group] = await lookUp(world, 'push', pushEvent({ before: base.sha, after: first.sha }))
    const [laterRunner, later] = await lookUp(world, 'push', pushEvent({ before: first.sha, after: second.sha }))
    await record(laterRunner, later, sent, 'message')
    expect(marksOnTheNote(world)).toEqual([second.sha])

    await record(runner, group, sent, 'message')

    expect(marksOnTheNote(world)).toEqual([second.sha])
    expect(world.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1)
  })

  it("tells a merged code pull request's docs pull request the changes its job was not sent", async () => {
    const world = await docsWorld()
    const merged = pullRequestEvent({ number: 12, action: 'closed', merged: true, headSha: first.sha })
    const [runner, group] = await lookUp(world, 'pull_request', merged)

    const held: GroupEnding = { ending: 'held', hold: { why: 'waited-out' }, jobId: 'job_g', job: null }
    await record(runner, group, held, undefined)

    const told = world.threadComments(31).slice(1)
    expect(told).toHaveLength(1)
    expect(told[0].body).toContain('[octo-org/docs-site#12](https://github.example/octo-org/docs-site/pull/12)')
    expect(told[0].body).toContain(`/compare/${base.sha}...${first.sha}`)
    expect(marksOnTheNote(world)).toEqual([base.sha])
  })
})
