// `/docs` on a group's code pull request goes to the group's docs, run by run on a stand-in GitHub that
// keeps its state between runs: the group's `pull_request` run leaves its signed status comment on the
// code pull request; a comment there then sends one message to the job of the group's open docs pull
// request (no second job, no second docs pull request), and the reply names that pull request; a later
// comment there keeps going to it. With the group's docs pull request merged, the comment starts the
// group's next job, whose pull request becomes the group's, and the next push goes to it. A status
// marker in an outsider's comment, or one that does not verify, routes nowhere: the comment starts a job
// of its own, and the log says why. A GitHub that does not answer lets the create out, within its bound.
import { afterAll, describe, expect, it } from 'vitest'
import { statusSignature, groupStatusMarker } from '../../src/group/group-status-marker.js'
import { inputsFor, runAction, type ActionRun } from '../support/run-action.js'
import { issueCommentEvent, removeEventFiles, runnerEnvironment } from '../support/stand-in-github.js'
import {
  GROUP,
  LABEL,
  REPO,
  SEVERAL_RUNS_MS,
  TOKEN,
  commit,
  counted,
  creates,
  groupWorld,
  markOn,
  messages,
  notes,
  onCodePull,
  promptOf,
  pullOf,
  signedNote,
  SOURCE,
  type World
} from '../support/group-world.js'

afterAll(removeEventFiles)

const CODE_PR = 7
const [a, b] = ['a', 'b'].map(commit)

/** A `/docs` comment on the code pull request, by a maintainer, run by the comment workflow (no group input). */
function commentOnCode(w: World, body: string, extra: Record<string, string> = {}): Promise<ActionRun> {
  const event = issueCommentEvent({ body, onPullRequest: true, number: CODE_PR, commentId: Date.now() % 1e9 })
  return runAction({
    inputs: inputsFor(w.service, { prompt: '', githubToken: TOKEN, context: 'none', ...extra }),
    env: runnerEnvironment(w.github, 'issue_comment', event)
  })
}

/** The action's replies on the code pull request (every comment of its but the status comment). */
const repliesOnCode = (w: World) =>
  w.github.comments.filter((c) => c.issueNumber === CODE_PR && !c.body.includes('docs-agent-group-status'))

/** Edits a comment as its author would (the stand-in keeps who wrote it). */
async function editComment(w: World, id: number, body: string): Promise<void> {
  const answer = await fetch(`${w.github.apiUrl}/repos/${REPO}/issues/comments/${id}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ body })
  })
  expect(answer.status).toBe(200)
}

/** The signed status marker of the group on the code pull request, as the action writes it. */
function statusMarkerFor(key: string, group = GROUP): string {
  const runner = { serverUrl: 'https://github.example' }
  const pr = { owner: 'octo-org', repo: 'docs-site', number: CODE_PR }
  return groupStatusMarker(group, statusSignature({ apiKey: key, projectId: 'docs' }, pr, group, runner))
}

/** The /docs comment on the code pull request, run once: the step succeeds and the service gets one write (a create or a message). */
async function askOnCode(w: World, text = '/docs also mention the --force flag', inputs?: Record<string, string>) {
  const asked = await counted(w, () => commentOnCode(w, text, inputs))
  expect(asked.code).toBe(0)
  expect(asked.writes).toBe(1)
  return asked
}

/** A /docs comment on the code pull request that no status comment of the action's names: a job of its own, and a notice. */
async function expectRoutedNowhere(w: World) {
  const asked = await askOnCode(w)
  expect(messages(w)).toHaveLength(0)
  expect(creates(w)).toHaveLength(2)
  expect(asked.stdout).toContain(
    `::notice::Pull request #${CODE_PR} has a group's status marker that is not the action's`
  )
}

describe.concurrent("a /docs comment on a group's code pull request", () => {
  it(
    "goes to the group's job as one message, with no second job, says so on the thread, and the next one goes there too",
    async (test) => {
      const w = await groupWorld(test)
      w.history.push(a)
      const opened = await onCodePull(w, 'opened', a)
      expect(opened.outputs.jobCreated).toBe('true')
      const groupJob = opened.outputs.jobId
      expect(w.github.comments.filter((c) => c.body.includes('docs-agent-group-status'))).toHaveLength(1)

      const asked = await askOnCode(w)
      expect(creates(w)).toHaveLength(1)
      expect(messages(w)).toHaveLength(1)
      expect(messages(w)[0].path).toContain(`/job/${encodeURIComponent(groupJob)}/message`)
      expect(promptOf(messages(w)[0])).toContain('also mention the --force flag')
      expect(asked.outputs.jobCreated).toBe('false')
      expect(asked.outputs.jobId).toBe(groupJob)
      expect(asked.stdout).toContain(
        `Pull request #${CODE_PR} is group ${GROUP}'s code pull request (from the action's signed status comment there)`
      )
      const [reply] = repliesOnCode(w)
      expect(reply.body).toContain(
        `That is group \`${GROUP}\`'s job, on its docs pull request ${REPO}#31, which this pull request's docs status comment shows.`
      )
      // No second docs pull request: the group's note is on #31 alone.
      expect(w.github.comments.filter((c) => c.body.includes('<!-- docs-agent-group: '))).toHaveLength(1)

      await askOnCode(w, '/docs and the --quiet flag')
      expect(creates(w)).toHaveLength(1)
      expect(messages(w).map((m) => m.path)).toEqual([messages(w)[0].path, messages(w)[0].path])
      expect(promptOf(messages(w)[1])).toContain('and the --quiet flag')
    },
    SEVERAL_RUNS_MS
  )

  it(
    "starts the group's next job once its docs pull request is merged: that job's pull request becomes the group's, from the group's mark",
    async (test) => {
      const w = await groupWorld(test)
      w.history.push(a)
      expect((await onCodePull(w, 'opened', a)).outputs.jobCreated).toBe('true')
      w.github.setPullState(31, 'merged')

      const asked = await askOnCode(w)
      expect(creates(w)).toHaveLength(2)
      expect(asked.outputs.jobCreated).toBe('true')
      const [reply] = repliesOnCode(w)
      expect(reply.body).toContain(
        `Group \`${GROUP}\`'s last docs pull request, ${REPO}#31, is closed: this request started the group's next job, and its pull request becomes the group's.`
      )
      // Its pull request, #32, is the group's now, with the group's mark where it was (a): the comment carried no commits.
      expect(notes(w, 32).map((n) => markOn(n.body))).toEqual([a.sha])
      expect(w.github.labelsOf(32)).toContain(LABEL)

      // The next push on the code pull request goes to that job, with its own changes.
      w.history.push(b)
      const next = await counted(w, () => onCodePull(w, 'synchronize', b))
      expect(next.writes).toBe(1)
      expect(next.outputs.jobCreated).toBe('false')
      expect(next.outputs.jobId).toBe(asked.outputs.jobId)
      expect(promptOf(messages(w).at(-1)!)).toContain('Add the b flag')
    },
    SEVERAL_RUNS_MS
  )

  it("starts the group's next job when the group's job has ended (archived): no message it would refuse", async (test) => {
    const w = await groupWorld(test, { plan: (n) => ({ activeReads: 1, prLink: pullOf(n + 1), repository: SOURCE }) })
    w.history.push(a)
    const ended = w.service.seedJob({ plan: { readStatuses: ['archived'], prLink: pullOf(1), repository: SOURCE } })
    w.github.addLabels(31, [LABEL])
    const bot = 'github-actions[bot]'
    w.github.addComment({ issueNumber: 31, body: signedNote(w.service.apiKey, ended, { mark: a.sha }), login: bot })
    w.github.addComment({ issueNumber: CODE_PR, body: `${statusMarkerFor(w.service.apiKey)}\n📝 Docs`, login: bot })

    const asked = await askOnCode(w)
    expect(messages(w)).toHaveLength(0)
    expect(asked.outputs.jobCreated).toBe('true')
    const [reply] = repliesOnCode(w)
    expect(reply.body).toContain(
      `Group \`${GROUP}\`'s job on its docs pull request ${REPO}#31 has ended: this request started the group's next job, and its pull request becomes the group's.`
    )
    expect(notes(w, 32).map((n) => markOn(n.body))).toEqual([a.sha])
    expect(w.github.labelsOf(32)).toContain(LABEL)
  })

  it(
    "an outsider's comment holding a copy of the signed status marker routes nothing: the comment starts a job of its own",
    async (test) => {
      const w = await groupWorld(test)
      w.history.push(a)
      // The group has its docs pull request (a push run made it); the code pull request has no status comment of the action's.
      expect((await onCodePull(w, 'opened', a)).code).toBe(0)
      const ours = w.github.comments.find((c) => c.body.includes('docs-agent-group-status'))!
      await editComment(w, ours.id, 'Docs status moved elsewhere')
      w.github.addComment({
        issueNumber: CODE_PR,
        body: `${statusMarkerFor(w.service.apiKey)}\nMine now`,
        login: 'mallory'
      })
      await expectRoutedNowhere(w)
    },
    SEVERAL_RUNS_MS
  )

  it(
    "a status marker whose signature does not verify routes nothing, even in a comment by the action's account",
    async (test) => {
      const w = await groupWorld(test)
      w.history.push(a)
      expect((await onCodePull(w, 'opened', a)).code).toBe(0)
      const ours = w.github.comments.find((c) => c.body.includes('docs-agent-group-status'))!
      // Signed with another key: a forgery, or a key since rotated.
      await editComment(w, ours.id, `${statusMarkerFor('svc_another_key')}\nForged`)
      await expectRoutedNowhere(w)
    },
    SEVERAL_RUNS_MS
  )

  it(
    "a GitHub that does not answer the group's look-up lets the create out within its bound, and says it could not see the group's job",
    async (test) => {
      const faults: Record<string, unknown> = {}
      const w = await groupWorld(test, {}, { faults })
      w.history.push(a)
      expect((await onCodePull(w, 'opened', a)).code).toBe(0)
      faults['issue-list'] = 'hang'
      const asked = await askOnCode(w, '/docs also mention the --force flag', { timeout: '20s' })
      expect(creates(w)).toHaveLength(2)
      expect(asked.stdout).toContain(
        `::warning::Could not see group ${GROUP}'s job from pull request #${CODE_PR}: GitHub did not answer within 5.0s`
      )
    },
    SEVERAL_RUNS_MS
  )
})
