// A group's promise, run by run on a stand-in GitHub that keeps its state between runs: every change
// reaches the group's docs once. A re-run sends nothing (its commits are covered) and never moves the
// mark back; a docs pull request merged while the run waited for its job gets no message; a waited-out
// run's commits reach the next job even after the docs pull request is merged; a scheduled run sends
// what came since the mark; labelled issues do not hide the group's pull request, and the look-up says
// when it stops at its bound.
import { afterAll, describe, expect, it } from 'vitest'
import { removeEventFiles } from '../support/stand-in-github.js'
import {
  LABEL,
  GROUP,
  REPO,
  SEVERAL_RUNS_MS,
  commit,
  counted,
  creates,
  groupWorld,
  markOn,
  messages,
  notes,
  onCodePull,
  promptOf,
  push,
  runGroup,
  scheduled,
  until,
  pushOf,
  pullOf,
  signedNote,
  SOURCE,
  TOKEN
} from '../support/group-world.js'

afterAll(removeEventFiles)

const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(commit)

describe.concurrent("a group's stream", () => {
  it(
    "an outsider's re-posted copy of an older group note does not pull the mark back: nothing is sent twice, and their comment is never edited",
    async (test) => {
      const w = await groupWorld(test)
      expect((await push(w, [a])).outputs.jobCreated).toBe('true')
      const oldCopy = notes(w)[0].body
      expect(markOn(oldCopy)).toBe(a.sha)
      expect((await counted(w, () => push(w, [b]))).writes).toBe(1)
      expect(markOn(notes(w)[0].body)).toBe(b.sha)

      // Someone re-posts the note as it was, with the mark at a, on the docs pull request.
      const outsider = w.github.addComment({ issueNumber: 31, body: oldCopy, login: 'mallory' })
      const next = await counted(w, () => push(w, [c]))
      expect(next.writes).toBe(1)
      const toC = messages(w).map(promptOf).at(-1)
      expect(toC).toContain('Add the c flag')
      expect(toC).not.toMatch(/Add the [ab] flag/)
      expect(w.github.threadComments(31).find((x) => x.id === outsider)?.bodies).toEqual([oldCopy])
      expect(markOn(notes(w)[0].body)).toBe(c.sha)
    },
    SEVERAL_RUNS_MS
  )

  it(
    'a re-run sends nothing and says so, and re-running an older run never moves the mark back',
    async (test) => {
      const w = await groupWorld(test)
      expect((await push(w, [a])).outputs.jobCreated).toBe('true')
      const pushB = pushOf(w, [b])
      expect((await counted(w, () => runGroup(w, 'push', pushB))).writes).toBe(1)
      expect(markOn(notes(w)[0].body)).toBe(b.sha)

      // "Re-run all jobs" of the push of b: its commit is the mark.
      const again = await counted(w, () => runGroup(w, 'push', pushB))
      expect(again.code).toBe(0)
      expect(again.writes).toBe(0)
      expect(again.stdout).toContain(
        `::notice::This run's commit ${b.sha.slice(0, 7)} is at or before group ${GROUP}'s mark ${b.sha.slice(0, 7)}`
      )
      expect(again.summary).toContain('Nothing to send: the docs were told of these changes already')
      // The push of a, run again: older than the mark.
      const older = await counted(w, () => runGroup(w, 'push', pushOf(w, [a])))
      expect(older.writes).toBe(0)
      expect(older.stdout).toContain(`is at or before group ${GROUP}'s mark ${b.sha.slice(0, 7)}`)
      expect(notes(w)[0].bodies.map(markOn)).toEqual([a.sha, b.sha])

      // The next push sends its own commit alone.
      const next = await counted(w, () => push(w, [c]))
      expect(next.writes).toBe(1)
      const [, toC] = messages(w).map(promptOf)
      expect(toC).toContain('Add the c flag')
      expect(toC).not.toMatch(/Add the [ab] flag/)
      expect(markOn(notes(w)[0].body)).toBe(c.sha)
    },
    SEVERAL_RUNS_MS
  )

  it(
    'a docs pull request merged while the run waited for its job gets no message: a new job takes the changes',
    async (test) => {
      const w = await groupWorld(test, { plan: (n) => ({ activeReads: 1, prLink: pullOf(n + 1), repository: SOURCE }) })
      w.history.push(a)
      const jobId = w.service.seedJob({
        plan: { readStatuses: ['active', 'active', 'active', 'completed'], prLink: pullOf(1), repository: SOURCE }
      })
      w.github.addLabels(31, [LABEL])
      w.github.addComment({
        issueNumber: 31,
        body: signedNote(w.service.apiKey, jobId, { mark: a.sha }),
        login: 'github-actions[bot]'
      })
      // The push finds the job busy; the docs pull request is merged while the run waits for it.
      const running = counted(w, () => push(w, [b], { pollInterval: '1s' }))
      await until(() => w.service.requestsOf('GET', jobId).length > 0)
      w.github.setPullState(31, 'merged')
      const run = await running
      expect(run.code).toBe(0)
      expect(run.writes).toBe(1)
      expect(messages(w)).toHaveLength(0)
      expect(run.outputs.jobCreated).toBe('true')
      expect(run.stdout).toContain(`Group ${GROUP}'s docs pull request #31 was merged while its job was working`)
      expect(promptOf(creates(w)[0])).toContain('Add the b flag')
      expect(promptOf(creates(w)[0])).not.toContain('Add the a flag')
      expect(w.github.labelsOf(31 + 1)).toEqual([LABEL])
      expect(markOn(notes(w, 32)[0].body)).toBe(b.sha)
    },
    SEVERAL_RUNS_MS
  )

  it(
    "a waited-out run's commits go with the next job after the docs pull request is merged",
    async (test) => {
      const w = await groupWorld(test, {
        messagePlan: {
          activeReads: 1_000,
          prLink: `https://github.example/${REPO}/pull/31`,
          repository: `https://github.example/${REPO}`
        }
      })
      await push(w, [a])
      await push(w, [b]) // the job now works on b for good
      const waited = await counted(w, () => push(w, [c], { timeout: '3s' }))
      expect(waited.writes).toBe(0)
      expect(waited.summary).toContain('Waited out: the group&#39;s job was busy')
      expect(markOn(notes(w)[0].body)).toBe(b.sha)
      w.github.setPullState(31, 'merged')

      const next = await counted(w, () => push(w, [d]))
      expect(next.writes).toBe(1)
      expect(next.outputs.jobCreated).toBe('true')
      expect(next.stdout).toContain(`Group ${GROUP}'s last docs pull request, #31 of ${REPO}, is closed`)
      const prompt = promptOf(creates(w)[1])
      expect(prompt).toContain('Add the c flag')
      expect(prompt).toContain('Add the d flag')
      expect(prompt).not.toMatch(/Add the [ab] flag/)
      expect(markOn(notes(w, 32)[0].body)).toBe(d.sha)
    },
    SEVERAL_RUNS_MS
  )

  it(
    'a scheduled run sends the commits since the mark, and moves the mark over them only',
    async (test) => {
      const w = await groupWorld(test)
      await push(w, [a])
      // b and c land with no run of the group (another workflow, a push without the group).
      w.history.push(b, c)
      const run = await counted(w, () => scheduled(w))
      expect(run.code).toBe(0)
      expect(run.writes).toBe(1)
      const [toJob] = messages(w).map(promptOf)
      expect(toJob).toContain('Add the b flag')
      expect(toJob).toContain('Add the c flag')
      expect(toJob).not.toContain('Add the a flag')
      expect(markOn(notes(w)[0].body)).toBe(c.sha)
      // Scheduled again with nothing new: nothing is sent.
      expect((await counted(w, () => scheduled(w))).writes).toBe(0)
    },
    SEVERAL_RUNS_MS
  )

  it(
    'a merged code pull request sends what the docs have not seen, then tells the docs pull request',
    async (test) => {
      const w = await groupWorld(test, {
        messagePlan: (n) => ({
          activeReads: n === 1 ? 1_000 : 1,
          prLink: `https://github.example/${REPO}/pull/31`,
          repository: `https://github.example/${REPO}`
        })
      })
      w.history.push(a, b, c)
      await onCodePull(w, 'opened', a)
      await onCodePull(w, 'synchronize', b, { timeout: '6s' }) // the job works on b for good...
      const waited = await counted(w, () => onCodePull(w, 'synchronize', c, { timeout: '3s' }))
      expect(waited.writes).toBe(0)
      // ...until the pull request is merged: the job is done by then.
      w.service.jobs.get(decodeURIComponent(messages(w)[0].path.split('/')[5]))!.messages.at(-1)!.plan = {
        activeReads: 0,
        prLink: `https://github.example/${REPO}/pull/31`,
        repository: `https://github.example/${REPO}`
      }
      const closed = await counted(w, () => onCodePull(w, 'closed', c, {}, true))
      expect(closed.code).toBe(0)
      expect(closed.writes).toBe(1)
      expect(promptOf(messages(w)[1])).toContain('Add the c flag')
      expect(promptOf(messages(w)[1])).not.toContain('Add the b flag')
      const told = w.github.comments.filter(
        (x) => x.issueNumber === 31 && x.body.includes('that this docs pull request documents was merged')
      )
      expect(told).toHaveLength(1)
      expect(told[0].body).not.toContain('were not sent')
    },
    SEVERAL_RUNS_MS
  )

  it('labelled issues, however many, do not hide the group’s pull request', async (test) => {
    const w = await groupWorld(test)
    await push(w, [a])
    // 120 issues labelled with the group's label since (triage rights suffice): newer than #31.
    for (let n = 100; n < 220; n++) w.github.addLabels(n, [LABEL], { issue: true })
    const run = await counted(w, () => push(w, [b]))
    expect(run.writes).toBe(1)
    expect(run.outputs.jobCreated).toBe('false')
    expect(messages(w)).toHaveLength(1)
    expect(w.github.labelReads.filter((r) => r.query.labels === LABEL).at(-1)?.query).toMatchObject({
      page: '2',
      per_page: '100'
    })
    // Issues are never read as candidates: no comments of theirs were listed.
    expect(w.github.threadReads.filter((r) => /\/issues\/(1\d\d|2[01]\d)\/comments/.test(r.pathname))).toEqual([])
  })

  it('says so when the look-up stops at its bound', async (test) => {
    const w = await groupWorld(test)
    await push(w, [a])
    // Six labelled pull requests without the group's note, all newer than #31.
    for (let n = 40; n < 46; n++) w.github.addLabels(n, [LABEL])
    const run = await counted(w, () => push(w, [b]))
    expect(run.stdout).toContain(
      `::warning::Stopped looking for group ${GROUP}'s docs pull request after 5 pull requests read of ${REPO}`
    )
  })

  it('one failed read of the group’s note, however it falls, loses neither the group nor its mark', async (test) => {
    // Every other read of the pull request's comments, and of the note itself, fails (502): each read
    // fails once before it answers.
    let reads = 0
    const w = await groupWorld(
      test,
      {},
      {
        randomFaults: {
          rate: 0.5,
          routes: ['comment-list', 'comment-get'],
          random: () => (reads++ % 2 === 0 ? 0 : 1),
          fault: { status: 502, message: 'Server Error' }
        }
      }
    )
    await push(w, [a])
    expect(w.github.labelsOf(31)).toEqual([LABEL])
    const second = await counted(w, () => push(w, [b]))
    expect(second.writes).toBe(1)
    expect(markOn(notes(w)[0].body)).toBe(b.sha)
    const third = await counted(w, () => push(w, [c]))
    expect(third.writes).toBe(1)
    expect(promptOf(messages(w)[1])).not.toContain('Add the b flag')
    expect(w.github.randomlyFaulted.length).toBeGreaterThanOrEqual(3)
  })

  it('a group with wait: false is refused at the start, in a sentence: no job, no docs pull request per push', async (test) => {
    const w = await groupWorld(test)
    const run = await counted(w, () => push(w, [a], { wait: 'false' }))
    expect(run.code).toBe(1)
    expect(run.writes).toBe(0)
    expect(run.stdout).toContain(
      `::error::Input group needs wait: true (the default), and wait is false: a run that does not follow its job cannot make the job's pull request the group's`
    )
    expect(w.github.requests).toEqual([])
  })

  it('docs in another repository without docsRepository: says once that docsRepository is needed', async (test) => {
    const handbook = 'https://github.example/octo-org/handbook'
    const w = await groupWorld(test, {
      plan: (n) => ({ activeReads: 1, prLink: `${handbook}/pull/${30 + n}`, repository: handbook })
    })
    const run = await push(w, [a])
    expect(run.code).toBe(0)
    const said = run.stdout.split('\n').filter((line) => line.includes('docsRepository: octo-org/handbook'))
    expect(said).toEqual([
      expect.stringContaining(
        `::warning::Job ${run.outputs.jobId}'s pull request is in octo-org/handbook, but group ${GROUP} is looked for in ${REPO}`
      )
    ])
    // Given docsRepository, the next run finds the group's pull request there.
    const next = await counted(w, () => push(w, [b], { docsRepository: 'octo-org/handbook' }))
    expect(next.outputs.jobCreated).toBe('false')
    expect(next.stdout).not.toContain('docsRepository: octo-org/handbook')
  })

  it("an outsider's older comment, edited to hold a copy of the signed status marker, is neither taken for the action's nor edited", async (test) => {
    const w = await groupWorld(test)
    w.history.push(a)
    const outsider = w.github.addComment({ issueNumber: 7, body: 'Looks good to me', login: 'mallory' })
    expect((await onCodePull(w, 'opened', a)).code).toBe(0)
    const [ours] = w.github.comments.filter((c) => c.issueNumber === 7)
    // They copy the action's comment, signed marker and all, into their own older comment.
    const copied = ours.body
    await fetch(`${w.github.apiUrl}/repos/${REPO}/issues/comments/${outsider}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body: copied })
    })
    w.history.push(b)
    expect((await onCodePull(w, 'synchronize', b)).code).toBe(0)
    expect(w.github.threadComments(7).find((c) => c.id === outsider)?.bodies).toEqual(['Looks good to me', copied])
    expect(w.github.comments.filter((c) => c.issueNumber === 7)).toHaveLength(1)
    expect(ours.bodies.length).toBeGreaterThan(1)
  })

  it('an outsider who comments the status marker first on the code pull request is neither trusted nor edited', async (test) => {
    const w = await groupWorld(test)
    w.history.push(a)
    const outsider = w.github.addComment({
      issueNumber: 7,
      body: `<!-- docs-agent-group-status: ${GROUP} -->\nMine now`,
      login: 'mallory'
    })
    const run = await onCodePull(w, 'opened', a)
    expect(run.code).toBe(0)
    const theirs = w.github.threadComments(7).find((c) => c.id === outsider)
    expect(theirs?.bodies).toEqual([`<!-- docs-agent-group-status: ${GROUP} -->\nMine now`])
    const ours = w.github.comments.filter((c) => c.issueNumber === 7)
    expect(ours).toHaveLength(1)
    expect(ours[0].body).toMatch(new RegExp(`<!-- docs-agent-group-status: ${GROUP} s1\\.[A-Za-z0-9_-]{43} -->`))
    // The next run edits the action's own comment, not the outsider's, and posts no second one.
    w.history.push(b)
    await onCodePull(w, 'synchronize', b)
    expect(w.github.comments.filter((c) => c.issueNumber === 7)).toHaveLength(1)
    expect(w.github.threadComments(7).find((c) => c.id === outsider)?.bodies).toHaveLength(1)
  })
})
