// The queue after a 429, through the bundled action against the stand-ins, GitHub's state kept across
// runs: a create the rate limit refused in a run that can hand it over is queued (at once with wait
// false, whatever the Retry-After; with wait true once it cannot be waited out), with the service's
// Retry-After; a reporting run creates it exactly once, not before the Retry-After allows, whatever
// its length, with reporting runs at once, and never once it was withdrawn; the job it makes becomes
// the thread's job.
import { describe, expect, it } from 'vitest'
import { emptyIndexState, signIndexMarker } from '../../src/hand-over/index-marker.js'
import { readRecords, signRecord, type RecordPayload } from '../../src/github/signed-record.js'
import { runAction, startAction, type ActionRun } from '../support/run-action.js'
import {
  issueCommentEvent,
  runnerEnvironment,
  workflowDispatchEvent,
  type StandInGitHub
} from '../support/stand-in-github.js'
import type { Fault, StandInService } from '../support/stand-in-service.js'
import {
  commentInputs,
  heading,
  LONG_TEST_MS,
  REPO,
  SERVER,
  standIn,
  standInGitHub,
  TOKEN
} from '../support/ending-runs.js'

const INDEX_LABEL = 'docs-agent:jobs'
const THREAD = 12
/** Each test runs the bundle a few times, side by side with the file's other tests. */
const SEVERAL_RUNS_MS = 3 * LONG_TEST_MS
const WORKS_ON = { plan: { activeReads: 1_000_000 } }
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The service refuses the first create for its rate limit, asking for `retryAfter` seconds. */
function rateLimitedOnce(retryAfter?: string): Fault[] {
  return [
    {
      method: 'POST',
      status: 429,
      body: 'Too Many Requests',
      contentType: 'text/plain',
      ...(retryAfter === undefined ? {} : { headers: { 'retry-after': retryAfter } }),
      times: 1
    }
  ]
}

/** A `/docs` comment on issue #12, there on the stand-in GitHub as on GitHub; the run's environment and the comment's id. */
function askOnThread(github: StandInGitHub, body: string): { env: Record<string, string>; commentId: number } {
  const commentId = github.addComment({ issueNumber: THREAD, body, login: 'octo-maintainer' })
  const event = issueCommentEvent({ body, number: THREAD, commentId })
  return { env: runnerEnvironment(github, 'issue_comment', event, { GITHUB_SERVER_URL: SERVER }), commentId }
}

function report(service: StandInService, github: StandInGitHub, runId = '6000'): Promise<ActionRun> {
  return startReport(service, github, runId).done
}

function startReport(service: StandInService, github: StandInGitHub, runId: string) {
  return startAction({
    inputs: { report: 'pending', ...commentInputs(service) },
    env: runnerEnvironment(github, 'schedule', workflowDispatchEvent(), {
      GITHUB_SERVER_URL: SERVER,
      GITHUB_RUN_ID: runId
    })
  })
}

/** The index issue's number. */
function indexIssue(github: StandInGitHub): number {
  const issue = github.issues.find((i) => i.labels.includes(INDEX_LABEL))
  if (!issue) throw new Error('no index issue')
  return issue.number
}

const PLACE = (issue: number) => ({
  host: 'github.example',
  thread: { owner: 'octo-org', repo: 'docs-site', number: issue },
  projectId: 'docs'
})

/** The index's records that verify, with their comments. */
function records(service: StandInService, github: StandInGitHub): { commentId: number; record: RecordPayload }[] {
  const issue = indexIssue(github)
  return github.allComments
    .filter((c) => c.issueNumber === issue)
    .flatMap((c) => {
      const read = readRecords(c.body, {
        key: { apiKey: service.apiKey },
        place: PLACE(issue),
        kind: 'index',
        commentId: c.id
      })
      return read.records.map((record) => ({ commentId: c.id, record }))
    })
}

/** Time passes: the queued record's Retry-After is over (the record re-signed as the action signs it). */
async function retryAfterPasses(service: StandInService, github: StandInGitHub): Promise<void> {
  const issue = indexIssue(github)
  for (const { commentId, record } of records(service, github)) {
    if (record.state !== 'queued') continue
    const past = { ...record, notBefore: new Date(Date.now() - 1000).toISOString() }
    const line = signRecord({ key: { apiKey: service.apiKey }, place: PLACE(issue), kind: 'index', commentId }, past)
    await fetch(`${github.apiUrl}/repos/${REPO}/issues/comments/${commentId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body: line })
    })
  }
}

/** The action's reply on the thread (not an index record, not a part of a prompt). */
const replyOf = (github: StandInGitHub) => github.comments.find((c) => c.issueNumber === THREAD)

const creates = (service: StandInService) => service.requestsOf('POST').filter((r) => !r.path.endsWith('/message'))

describe.concurrent('a create the rate limit refused is queued, not lost', () => {
  it(
    'with wait false a 429 asking for an hour is queued at once: one try, the step succeeds with status queued, and it says so; no create before the Retry-After allows, one once it does',
    async (test) => {
      const service = await standIn(test, { ...WORKS_ON, faults: rateLimitedOnce('3600') })
      const github = await standInGitHub(test)
      const { env } = askOnThread(github, '/docs document the retry policy')
      const asked = await runAction({ inputs: commentInputs(service, { wait: 'false' }), env })
      expect(asked.code).toBe(0)
      expect(asked.outputs).toMatchObject({ status: 'queued', jobCreated: 'false' })
      expect(asked.outputs.jobId ?? '').toBe('')
      expect(creates(service)).toHaveLength(1)
      expect(asked.stdout).toContain('so the request is queued, not lost')
      expect(asked.stdout).not.toContain('Trying again')
      expect(heading(asked.summary)).toContain('Queued: the rate limit refused the create for now')
      expect(asked.summary).not.toContain('nothing was created')
      const reply = replyOf(github)
      expect(reply?.body).toContain('the request is queued, not lost')
      expect(reply?.body).not.toContain('no job was started')
      // The record keeps the service's Retry-After.
      const [queued] = records(service, github)
      expect(queued.record.state).toBe('queued')
      const waits = Date.parse(queued.record.notBefore ?? '') - Date.now()
      expect(waits).toBeGreaterThan(3500_000)
      expect(waits).toBeLessThanOrEqual(3600_000)

      const early = await report(service, github, '6001')
      expect(early.code).toBe(0)
      expect(creates(service)).toHaveLength(1)

      await retryAfterPasses(service, github)
      const made = await report(service, github, '6002')
      expect(made.code).toBe(0)
      expect(service.created).toBe(1)
      expect(creates(service)).toHaveLength(2)
      expect(service.jobs.values().next().value?.prompt).toContain('document the retry policy')
    },
    SEVERAL_RUNS_MS
  )

  it(
    'with wait false a short Retry-After is not waited out either: the step ends after one try, and the record keeps when the create may go',
    async (test) => {
      const service = await standIn(test, { ...WORKS_ON, faults: rateLimitedOnce('20') })
      const github = await standInGitHub(test)
      const { env } = askOnThread(github, '/docs document the retry policy')
      const asked = await runAction({ inputs: commentInputs(service, { wait: 'false', timeout: '60s' }), env })
      expect(asked.code).toBe(0)
      expect(asked.outputs.status).toBe('queued')
      expect(creates(service)).toHaveLength(1)
      expect(service.created).toBe(0)
      expect(asked.stdout).not.toContain('Trying again')
      const waits = Date.parse(records(service, github)[0].record.notBefore ?? '') - Date.now()
      expect(waits).toBeGreaterThan(0)
      expect(waits).toBeLessThanOrEqual(20_000)
    },
    SEVERAL_RUNS_MS
  )

  it(
    'with wait true a 429 longer than the timeout queues the request rather than lose it, and fails the step saying who makes the job',
    async (test) => {
      const service = await standIn(test, { ...WORKS_ON, faults: rateLimitedOnce('3600') })
      const github = await standInGitHub(test)
      const { env } = askOnThread(github, '/docs document the retry policy')
      const held = await runAction({ inputs: commentInputs(service), env })
      expect(held.code).toBe(1)
      expect(held.outputs.status).toBe('queued')
      expect(creates(service)).toHaveLength(1)
      expect(held.stdout).toContain('so the request is queued, not lost')
      expect(held.stdout).toContain('so it has no job to follow')
      const [queued] = records(service, github)
      expect(queued.record).toMatchObject({ state: 'queued', job: '' })
      expect(Date.parse(queued.record.notBefore ?? '')).toBeGreaterThan(Date.now() + 3500_000)
    },
    SEVERAL_RUNS_MS
  )
})

describe.concurrent('a queued create is made exactly once', () => {
  it(
    'two reporting runs at once, one of them reading the record late: one create',
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      // GitHub is slow to answer the first read of a comment by its id: that run reads the record as it
      // was when it asked, while the other makes the create.
      const github = await standInGitHub(test, { delays: { 'comment-get': { ms: 3000, times: 1 } } })
      await seedQueued(service, github, 'Document the retry policy')
      const [one, two] = await Promise.all([
        startReport(service, github, '6100').done,
        startReport(service, github, '6101').done
      ])
      expect([one.code, two.code]).toEqual([0, 0])
      expect(service.created).toBe(1)
      expect(creates(service)).toHaveLength(1)
      // And a third run later makes none.
      await report(service, github, '6102')
      expect(creates(service)).toHaveLength(1)
    },
    SEVERAL_RUNS_MS
  )

  it.for([16_000, 20_700])(
    'a prompt of %i characters in Japanese is kept, read and made once',
    { timeout: SEVERAL_RUNS_MS },
    async (length, test) => {
      // Refused four times: a run before queued it after as many tries.
      const service = await standIn(test, { ...WORKS_ON, faults: [{ ...rateLimitedOnce('0')[0], times: 4 }] })
      const github = await standInGitHub(test)
      const { env } = askOnThread(github, `/docs ${japanese(length)}`)
      const asked = await runAction({ inputs: commentInputs(service, { wait: 'false', context: 'none' }), env })
      const sent = JSON.parse(creates(service)[0].body).prompt as string
      expect(sent.length).toBeGreaterThanOrEqual(length)
      // Too long for the record's own line: the record, and the compressed prompt in a comment of its own.
      expect(github.allComments.filter((c) => c.issueNumber === indexIssue(github))).toHaveLength(2)
      // Each reporting run tries it once, until the service takes it.
      for (let run = 0; run < 4 && service.created === 0; run++) {
        expect((await report(service, github, `620${run}`)).code).toBe(0)
      }
      expect(service.created).toBe(1)
      expect(asked.code).toBe(0)
      expect(service.jobs.values().next().value?.prompt).toBe(sent)
      // Its parts leave the index with the create: the record alone is left.
      expect(github.allComments.filter((c) => c.issueNumber === indexIssue(github))).toHaveLength(1)
      await report(service, github, '6210')
      expect(service.created).toBe(1)
      expect(creates(service)).toHaveLength(5)
    }
  )
})

describe.concurrent('a claim on a queued create, left by a run that did not finish', () => {
  it(
    'a claim GitHub made despite its 502 holds the create for its lease, then is taken over: one create',
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      const github = await standInGitHub(test, {
        faults: { reaction: { status: 502, message: 'Server Error', made: true, times: 1 } }
      })
      await seedQueued(service, github, 'Document the retry policy')
      const faulted = await report(service, github, '6500')
      expect(faulted.code).toBe(0)
      expect(faulted.stdout).toContain('Could not claim the queued create')
      expect(creates(service)).toHaveLength(0)
      // Its own claim, as far as the next run can tell: left to it while the lease holds.
      await report(service, github, '6501')
      expect(creates(service)).toHaveLength(0)
      // The lease lapses; the record was never marked as being sent: nothing went out, and it is sent now, once.
      github.ageReactions(21 * 60_000)
      await report(service, github, '6502')
      await report(service, github, '6503')
      expect(service.created).toBe(1)
      expect(creates(service)).toHaveLength(1)
    },
    SEVERAL_RUNS_MS
  )

  it(
    'a run cancelled while its create was out: after the lease the create is told as unsure, and never sent again',
    async (test) => {
      // The create goes out and is never answered.
      const service = await standIn(test, { ...WORKS_ON, faults: [{ method: 'POST', hang: true }] })
      const github = await standInGitHub(test)
      await seedQueued(service, github, 'Document the retry policy')
      const started = startReport(service, github, '6600')
      for (let waited = 0; creates(service).length === 0 && waited < 20_000; waited += 100) await sleep(100)
      started.child.kill('SIGINT')
      await started.done
      github.ageReactions(21 * 60_000)
      const later = await report(service, github, '6601')
      expect(later.code).toBe(0)
      expect(later.stdout).toContain('may or may not have been created')
      await report(service, github, '6602')
      expect(creates(service)).toHaveLength(1)
    },
    SEVERAL_RUNS_MS
  )
  it(
    'a run cancelled while it marks the create as being sent gives its claim up: nothing went out, and the next run makes it once',
    async (test) => {
      const service = await standIn(test, WORKS_ON)
      // The mark is written at once, and answered only once the run is cancelled (the seeding's edit at once).
      let answer = (_: unknown) => {}
      const delay: { ms: number; times: number; until?: Promise<unknown> } = { ms: 0, times: 2 }
      const github = await standInGitHub(test, { delays: { 'comment-update': delay } })
      await seedQueued(service, github, 'Document the retry policy')
      delay.until = new Promise((resolve) => (answer = resolve))
      const from = github.requests.length
      const started = startReport(service, github, '6900')
      const marking = () => github.requests.slice(from).some((r) => r.method === 'PATCH')
      for (let waited = 0; !marking() && waited < 20_000; waited += 100) await sleep(100)
      started.child.kill('SIGINT')
      setTimeout(() => answer(undefined), 500).unref()
      await started.done
      expect(creates(service)).toHaveLength(0)
      github.ageReactions(21 * 60_000)
      const later = await report(service, github, '6901')
      expect(later.code).toBe(0)
      expect(later.stdout).not.toContain('may or may not have been created')
      expect(service.created).toBe(1)
      expect(creates(service)).toHaveLength(1)
    },
    SEVERAL_RUNS_MS
  )

  it(
    'refused again after its mark as being sent, and the mark cannot be taken back: the claim still goes, so the request is not lost, and it is made once',
    async (test) => {
      // The asking run's create and the reporting run's first are refused (429, a second's Retry-After).
      const service = await standIn(test, {
        ...WORKS_ON,
        faults: [{ ...rateLimitedOnce('1')[0]!, times: 2 }]
      })
      // Armed for the first reporting run: its record edits after the mark (the queued-again writes) get a 502.
      let armed = false
      let recordEdits = 0
      const github = await standInGitHub(test, {
        faults: {
          'comment-update': {
            status: 502,
            message: 'Server Error',
            when: (req) =>
              armed && !req.pathname.endsWith(`/${replyOf(github)?.id}`) && String(req.body?.body ?? '').length > 0
                ? ++recordEdits > 1
                : false
          }
        }
      })
      const { env } = askOnThread(github, '/docs document the retry policy')
      const asked = await runAction({ inputs: commentInputs(service, { wait: 'false' }), env })
      expect(asked.outputs.status).toBe('queued')
      await sleep(1100)
      armed = true
      const refused = await report(service, github, '6800')
      armed = false
      expect(refused.code).toBe(0)
      expect(refused.stdout).toContain('Could not queue the refused create again')
      expect(creates(service)).toHaveLength(2)
      expect(service.created).toBe(0)
      // Whatever the claim's lease: the service said it did not take the create, so it is sent again, once.
      github.ageReactions(21 * 60_000)
      await sleep(1100)
      const later = await report(service, github, '6801')
      expect(later.stdout).not.toContain('may or may not have been created')
      await report(service, github, '6802')
      expect(service.created).toBe(1)
      expect(creates(service)).toHaveLength(3)
      expect(replyOf(github)?.body).not.toContain('queued, not lost')
    },
    SEVERAL_RUNS_MS
  )
})

describe.concurrent('a queued request GitHub cannot show before its create', () => {
  it(
    'a 502 on the thread read right before the create sends nothing, fails no run, and the next run makes it once',
    async (test) => {
      const service = await standIn(test, { ...WORKS_ON, faults: rateLimitedOnce('0') })
      // Armed once the request is queued: the first reporting run's read of the thread gets a 502.
      let armed = false
      const github = await standInGitHub(test, {
        faults: { 'issue-get': { status: 502, message: 'Server Error', times: 1, when: () => armed } }
      })
      const { env } = askOnThread(github, '/docs document the retry policy')
      await runAction({ inputs: commentInputs(service, { wait: 'false' }), env })
      armed = true
      const first = await report(service, github, '6700')
      expect(first.code).toBe(0)
      expect(first.stdout).toContain('Could not read the queued request before its create')
      expect(creates(service)).toHaveLength(1)
      const second = await report(service, github, '6701')
      expect(second.code).toBe(0)
      expect(service.created).toBe(1)
      expect(creates(service)).toHaveLength(2)
    },
    SEVERAL_RUNS_MS
  )
})

describe.concurrent('a queued request withdrawn before its create', () => {
  it.for(['its comment deleted', 'its issue closed as not planned and locked'])(
    '%s: no job is made, and the withdrawal is told',
    { timeout: SEVERAL_RUNS_MS },
    async (how, test) => {
      const service = await standIn(test, { ...WORKS_ON, faults: rateLimitedOnce('0') })
      const github = await standInGitHub(test)
      const { env, commentId } = askOnThread(github, '/docs document the retry policy')
      await runAction({ inputs: commentInputs(service, { wait: 'false' }), env })
      if (how === 'its comment deleted') github.deleteComment(commentId)
      else github.closeIssue(THREAD, { reason: 'not_planned', lock: true })
      const run = await report(service, github, '6400')
      expect(run.code).toBe(0)
      expect(creates(service)).toHaveLength(1)
      expect(service.created).toBe(0)
      const [told] = records(service, github)
      expect(told?.record.state ?? 'gone').not.toBe('queued')
      const reply = replyOf(github)
      expect(reply?.body).toContain('The queued request was withdrawn before its job was created: ')
      expect(reply?.body).toContain(
        how === 'its comment deleted'
          ? `the comment that asked for it on #${THREAD} was deleted`
          : `#${THREAD}, where it was asked for, was closed as not planned`
      )
      expect(reply?.body).not.toContain('the request is queued')
      expect(github.statuses.filter((s) => s.state === 'pending')).toEqual([])
      // And none later.
      await report(service, github, '6401')
      expect(service.created).toBe(0)
    }
  )
})

describe.concurrent('a queued job is the thread’s', () => {
  it(
    'the reply says the queued job was created, and a request on the thread while it works goes to it',
    async (test) => {
      const service = await standIn(test, { ...WORKS_ON, faults: rateLimitedOnce('0') })
      const github = await standInGitHub(test)
      const { env } = askOnThread(github, '/docs document the retry policy')
      await runAction({ inputs: commentInputs(service, { wait: 'false' }), env })
      await report(service, github, '6300')
      expect(service.created).toBe(1)
      const jobId = [...service.jobs.keys()][0]
      expect(replyOf(github)?.body).toContain(`was created from the queue`)
      expect(replyOf(github)?.body).toContain(jobId)

      const also = askOnThread(github, '/docs also document the backoff')
      const followUp = await runAction({ inputs: commentInputs(service, { wait: 'false' }), env: also.env })
      expect(followUp.code).toBe(0)
      expect(service.created).toBe(1)
      expect(service.requestsOf('POST').filter((r) => r.path.endsWith(`/${jobId}/message`))).toHaveLength(1)
    },
    SEVERAL_RUNS_MS
  )
})

/** A queued record in a new index issue (its marker and the record signed as the action signs them): a create the rate limit refused. */
async function seedQueued(service: StandInService, github: StandInGitHub, prompt: string): Promise<void> {
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }
  const made = await fetch(`${github.apiUrl}/repos/${REPO}/issues`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ title: 'Documentation jobs', labels: [INDEX_LABEL] })
  })
  const issue = ((await made.json()) as { number: number }).number
  const address = {
    key: { apiKey: service.apiKey },
    host: 'github.example',
    repository: REPO,
    issue,
    projectId: 'docs'
  }
  await fetch(`${github.apiUrl}/repos/${REPO}/issues/${issue}`, {
    method: 'PATCH',
    headers,
    body: JSON.stringify({ body: signIndexMarker(address, emptyIndexState()) })
  })
  const commentId = github.addComment({ issueNumber: issue, body: 'record', login: 'github-actions[bot]' })
  const record: RecordPayload = { job: '', state: 'queued', created: new Date().toISOString(), prompt }
  const line = signRecord({ key: { apiKey: service.apiKey }, place: PLACE(issue), kind: 'index', commentId }, record)
  await fetch(`${github.apiUrl}/repos/${REPO}/issues/comments/${commentId}`, {
    method: 'PATCH',
    headers,
    body: JSON.stringify({ body: line })
  })
}

/** `length` characters of Japanese text that compresses poorly: kanji drawn from a seeded sequence. */
function japanese(length: number): string {
  let seed = 20261201
  let text = ''
  while (text.length < length) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    text += String.fromCharCode(0x4e00 + (seed % 3000))
  }
  return text
}

describe.concurrent('a queued request whose record GitHub fails to write', () => {
  const GITHUB_502 = { status: 502, message: 'Server Error' }
  const queuedRecordEdit = (req: { body?: { body?: unknown } }) =>
    String(req.body?.body ?? '').includes('⏳ Queued: the request')

  it(
    'refused both times: the request is said NOT kept in the reply, the summary and the log, the step fails, and no reporting run makes it',
    async (test) => {
      const service = await standIn(test, { ...WORKS_ON, faults: rateLimitedOnce('1') })
      const github = await standInGitHub(test, {
        faults: { 'comment-update': { ...GITHUB_502, when: queuedRecordEdit } }
      })
      const { env } = askOnThread(github, '/docs document the retry policy')
      const asked = await runAction({ inputs: commentInputs(service, { wait: 'false' }), env })
      expect(asked.code).toBe(1)
      expect(asked.stdout).toContain('so the request is NOT kept: no job will be created for it')
      expect(asked.stdout).not.toContain('queued, not lost')
      expect(heading(asked.summary)).toContain(
        'Failed: the rate limit refused the create, and the request was not kept'
      )
      const reply = replyOf(github)
      expect(reply?.body).toContain('so the request is NOT kept')
      expect(reply?.body).not.toContain('queued, not lost')
      expect(reply?.body).toContain('To ask again, comment `/docs <instruction>` here')
      expect(records(service, github)).toHaveLength(0)

      await sleep(1100)
      const later = await report(service, github, '6101')
      expect(later.code).toBe(0)
      expect(service.created).toBe(0)
    },
    SEVERAL_RUNS_MS
  )

  it(
    'made despite its 502 both times: the record is read back and kept, the reply says queued, and one job is made',
    async (test) => {
      const service = await standIn(test, { ...WORKS_ON, faults: rateLimitedOnce('1') })
      const github = await standInGitHub(test, {
        faults: { 'comment-update': { ...GITHUB_502, made: true, times: 2, when: queuedRecordEdit } }
      })
      const { env } = askOnThread(github, '/docs document the retry policy')
      const asked = await runAction({ inputs: commentInputs(service, { wait: 'false' }), env })
      expect(asked.code).toBe(0)
      expect(asked.outputs.status).toBe('queued')
      expect(replyOf(github)?.body).toContain('the request is queued, not lost')
      expect(records(service, github)).toHaveLength(1)

      await sleep(1100)
      const made = await report(service, github, '6102')
      expect(made.code).toBe(0)
      expect(service.created).toBe(1)
    },
    SEVERAL_RUNS_MS
  )
})

describe.concurrent('a queued job a reporting run makes before the queuing run has ended', () => {
  it(
    'keeps the reporting run\'s words on the reply: the queuing run\'s last edit does not put back "queued"',
    async (test) => {
      const service = await standIn(test, { ...WORKS_ON, faults: rateLimitedOnce() })
      // The queuing run's reads of the index are slow: the one after its record is written gives a
      // reporting run the time to make the job and write the reply before the queuing run's last edit.
      const github = await standInGitHub(test, { delays: { 'issue-get': { ms: 4000, times: 1 } } })
      const { env } = askOnThread(github, '/docs document the retry policy')
      const asking = startAction({ inputs: commentInputs(service, { wait: 'false' }), env })
      const queuedThere = () => github.allComments.some((c) => c.body.includes('⏳ Queued: the request'))
      for (let waited = 0; !queuedThere() && waited < 20_000; waited += 50) await sleep(50)
      expect(queuedThere()).toBe(true)
      const made = await report(service, github, '6103')
      expect(made.code).toBe(0)
      expect(service.created).toBe(1)
      const asked = await asking.done
      expect(asked.code).toBe(0)
      const reply = replyOf(github)
      expect(reply?.body).not.toContain('queued, not lost')
      expect(reply?.body).toContain('<!-- docs-agent-record: thread ')
      expect(reply?.body).toContain('/actions/runs/6103')
    },
    SEVERAL_RUNS_MS
  )
})

describe.concurrent('a queued request whose reply’s first post GitHub answered with a 502', () => {
  const firstPost = (req: { body?: { body?: unknown } }) => String(req.body?.body ?? '').startsWith('👀 On it')

  it.for([
    ['made despite it', true],
    ['not made', false]
  ] as const)(
    'the first post %s: the one reply on the thread is the one the record names, and it ends telling the job’s ending',
    { timeout: SEVERAL_RUNS_MS },
    async ([, made], test) => {
      const service = await standIn(test, { plan: { activeReads: 0 }, faults: rateLimitedOnce('0') })
      const github = await standInGitHub(test, {
        faults: { 'comment-create': { status: 502, message: 'Server Error', made, times: 1, when: firstPost } }
      })
      const { env } = askOnThread(github, '/docs document the retry policy')
      const asked = await runAction({ inputs: commentInputs(service, { wait: 'false' }), env })
      expect(asked.code).toBe(0)
      expect(asked.outputs.status).toBe('queued')
      expect(asked.stdout).toContain('Could not reply on the issue #12: HTTP 502')
      const [queued] = records(service, github)
      const botReplies = () =>
        github.allComments.filter((c) => c.issueNumber === THREAD && c.login !== 'octo-maintainer')
      expect(botReplies()).toHaveLength(1)
      expect(queued.record.thread).toEqual({ number: THREAD, comment: botReplies()[0].id })
      expect(botReplies()[0].body).toContain('the request is queued, not lost')

      // One reporting run makes the job, the next tells its ending: both on that reply.
      expect((await report(service, github, '6800')).code).toBe(0)
      expect(service.created).toBe(1)
      const told = await report(service, github, '6801')
      expect(told.code).toBe(0)
      const jobId = [...service.jobs.keys()][0]
      expect(JSON.parse(told.outputs.reported ?? '[]')).toEqual([expect.objectContaining({ id: jobId })])
      expect(told.stdout).toContain(`Told the ending of job ${jobId} on the reply on #${THREAD}.`)
      const [reply] = botReplies()
      expect(botReplies()).toHaveLength(1)
      expect(reply.body).toContain(jobId)
      expect(reply.body).toContain('opened a pull request')
      expect(reply.body).toContain('/actions/runs/6801')
      expect(reply.body).not.toContain('queued, not lost')
    }
  )
})
