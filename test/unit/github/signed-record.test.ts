// Signed records bound to their comment: what verifies, what does not, and the newest found on a
// thread of any length (read from the stand-in GitHub, which pages as GitHub does).
import { afterEach, describe, expect, it } from 'vitest'
import {
  findNewestRecord,
  readRecords,
  signRecord,
  withRecord,
  type RecordPayload,
  type RecordPlace
} from '../../../src/github/signed-record.js'
import { openGitHubReader } from '../../../src/github/reader.js'
import { startStandInGitHub, type StandInGitHub } from '../../support/stand-in-github.js'

const KEY = { apiKey: 'svc_stand_in_key' }
const PLACE: RecordPlace = {
  host: 'github.example',
  thread: { owner: 'octo-org', repo: 'docs-site', number: 12 },
  projectId: 'docs'
}
const OPEN: RecordPayload = {
  job: 'job_1',
  state: 'open',
  created: '2026-11-27T13:00:00.000Z',
  thread: { number: 12, comment: 9001 }
}
const PAGES = { what: "the thread's comments", permission: 'issues: read' as const, maxPages: 4 }

describe('a signed record', () => {
  it('reads back, with its payload, for its place, kind and comment', () => {
    const line = signRecord({ key: KEY, place: PLACE, kind: 'thread', commentId: 9001 }, OPEN)
    expect(line).toMatch(/^<!-- docs-agent-record: thread [A-Za-z0-9_-]+ v1\.[A-Za-z0-9_-]{43} -->$/)
    expect(readRecords(`Done.\n${line}`, { key: KEY, place: PLACE, kind: 'thread', commentId: 9001 })).toEqual({
      records: [OPEN],
      unverified: 0
    })
  })

  it('holds neither the API key nor the key it is signed with', () => {
    const line = signRecord({ key: KEY, place: PLACE, kind: 'thread', commentId: 9001 }, OPEN)
    expect(line).not.toContain(KEY.apiKey)
    expect(Buffer.from(line.split(' ')[3], 'base64url').toString()).not.toContain(KEY.apiKey)
  })

  it.each([
    ['another comment (a copy re-posted by someone else)', PLACE, 'thread', 9002, KEY],
    ['another thread', { ...PLACE, thread: { ...PLACE.thread, number: 13 } }, 'thread', 9001, KEY],
    ['another repository', { ...PLACE, thread: { ...PLACE.thread, repo: 'docs-fork' } }, 'thread', 9001, KEY],
    ['another GitHub', { ...PLACE, host: 'ghe.example.com' }, 'thread', 9001, KEY],
    ['another project', { ...PLACE, projectId: 'handbook' }, 'thread', 9001, KEY],
    ['a rotated key', PLACE, 'thread', 9001, { apiKey: 'svc_new_key' }]
  ] as const)('does not verify for %s', (_name, place, kind, commentId, key) => {
    const line = signRecord({ key: KEY, place: PLACE, kind: 'thread', commentId: 9001 }, OPEN)
    expect(readRecords(line, { key, place, kind, commentId })).toEqual({ records: [], unverified: 1 })
  })

  it('is not read as a record of another kind', () => {
    const line = signRecord({ key: KEY, place: PLACE, kind: 'group', commentId: 9001 }, OPEN)
    expect(readRecords(line, { key: KEY, place: PLACE, kind: 'thread', commentId: 9001 })).toEqual({
      records: [],
      unverified: 0
    })
    expect(readRecords(line, { key: KEY, place: PLACE, kind: 'group', commentId: 9001 }).records).toEqual([OPEN])
  })

  it('does not verify once its payload is changed', () => {
    const line = signRecord({ key: KEY, place: PLACE, kind: 'thread', commentId: 9001 }, OPEN)
    const forged = Buffer.from(JSON.stringify({ v: 1, ...OPEN, job: 'job_2' })).toString('base64url')
    const changed = line.replace(/thread \S+ v1/, `thread ${forged} v1`)
    expect(readRecords(changed, { key: KEY, place: PLACE, kind: 'thread', commentId: 9001 })).toEqual({
      records: [],
      unverified: 1
    })
  })

  it('carries every field of version 1, any job id, and drops what it does not know', () => {
    const full: RecordPayload = {
      job: 'team a/job --> #7',
      state: 'queued',
      created: '2026-11-27T13:00:00.000Z',
      group: 'api-docs',
      mark: 'abc1234',
      commit: 'a'.repeat(40),
      prompt: 'Document the retries.',
      asked: 'f00d'
    }
    const line = signRecord({ key: KEY, place: PLACE, kind: 'index', commentId: 7 }, {
      ...full,
      extra: 'x'
    } as RecordPayload)
    expect(line.match(/-->/g)).toHaveLength(1)
    expect(readRecords(line, { key: KEY, place: PLACE, kind: 'index', commentId: 7 }).records).toEqual([full])
    const queued = { job: '', state: 'queued', created: full.created } as const
    expect(
      readRecords(signRecord({ key: KEY, place: PLACE, kind: 'index', commentId: 7 }, queued), {
        key: KEY,
        place: PLACE,
        kind: 'index',
        commentId: 7
      }).records
    ).toEqual([queued])
  })

  it('names no job when its payload is not a record of its version', () => {
    const bad = [
      { ...OPEN, job: '' },
      { ...OPEN, state: 'done' },
      { ...OPEN, job: 'a\nb' }
    ] as RecordPayload[]
    for (const payload of bad) {
      expect(
        readRecords(signRecord({ key: KEY, place: PLACE, kind: 'thread', commentId: 9001 }, payload), {
          key: KEY,
          place: PLACE,
          kind: 'thread',
          commentId: 9001
        })
      ).toEqual({
        records: [],
        unverified: 1
      })
    }
  })

  it('replaces the record of its kind in a body, and keeps the rest', () => {
    const first = signRecord({ key: KEY, place: PLACE, kind: 'thread', commentId: 9001 }, OPEN)
    const group = signRecord({ key: KEY, place: PLACE, kind: 'group', commentId: 9001 }, OPEN)
    const second = signRecord({ key: KEY, place: PLACE, kind: 'thread', commentId: 9001 }, { ...OPEN, state: 'final' })
    const body = withRecord(`Text\n${first}\n${group}`, 'thread', second)
    expect(body).toContain('Text')
    expect(body).toContain(group)
    expect(body).not.toContain(first)
    expect(readRecords(body, { key: KEY, place: PLACE, kind: 'thread', commentId: 9001 }).records).toEqual([
      { ...OPEN, state: 'final' }
    ])
  })
})

describe('the newest record on a thread', () => {
  let github: StandInGitHub | undefined
  afterEach(async () => {
    await github?.close()
    github = undefined
  })

  /** A thread of `before` comments, the record's comment, then `after` comments; the record bound to its own comment. */
  async function threadWith(before: number, after: number, job = 'job_1') {
    github = await startStandInGitHub()
    const chatter = (n: number) => {
      for (let i = 0; i < n; i++) github?.addComment({ issueNumber: 12, body: `comment ${i}`, login: 'someone' })
    }
    chatter(before)
    const id = github.addComment({ issueNumber: 12, body: 'placeholder', login: 'github-actions[bot]' })
    const line = signRecord({ key: KEY, place: PLACE, kind: 'thread', commentId: id }, { ...OPEN, job })
    chatter(after)
    return { id, line }
  }

  async function find(maxPages = PAGES.maxPages) {
    const reader = openGitHubReader(github?.apiUrl ?? '', 'token', {
      maxRequests: 10,
      totalMs: 5000,
      requestMs: 5000,
      maxBodyBytes: 1 << 22
    })
    if (!reader) throw new Error('no reader')
    try {
      return await findNewestRecord(reader, { key: KEY, place: PLACE, kind: 'thread', pages: { ...PAGES, maxPages } })
    } finally {
      await reader.close()
    }
  }

  it('is found at the end of a thread of 250 comments in two reads: the first page, then the last', async () => {
    const { id, line } = await threadWith(248, 1)
    await editBody(id, line)
    const result = await find()
    expect(result).toEqual({ found: { record: OPEN, commentId: id }, unverified: 0, complete: true })
    expect(github?.threadReads.map((r) => r.query.page)).toEqual(['1', '3'])
  })

  it('wins over an older record, and over a copy of it re-posted later by someone else', async () => {
    github = await startStandInGitHub()
    const older = github.addComment({ issueNumber: 12, body: '', login: 'github-actions[bot]' })
    await editBody(
      older,
      signRecord({ key: KEY, place: PLACE, kind: 'thread', commentId: older }, { ...OPEN, job: 'job_0' })
    )
    const newer = github.addComment({ issueNumber: 12, body: '', login: 'github-actions[bot]' })
    const line = signRecord({ key: KEY, place: PLACE, kind: 'thread', commentId: newer }, OPEN)
    await editBody(newer, line)
    github.addComment({
      issueNumber: 12,
      body: `my copy\n${signRecord({ key: KEY, place: PLACE, kind: 'thread', commentId: older }, { ...OPEN, job: 'job_0' })}`,
      login: 'outsider'
    })
    expect(await find()).toEqual({ found: { record: OPEN, commentId: newer }, unverified: 1, complete: true })
  })

  it('says when its bound left pages unread, and finds nothing it did not read', async () => {
    const { id, line } = await threadWith(10, 450)
    await editBody(id, line)
    const result = await find(3)
    expect(result).toEqual({ found: null, unverified: 0, complete: false })
    expect(github?.threadReads.map((r) => r.query.page)).toEqual(['1', '5', '4'])
  })

  it('reads a one-page thread with one request', async () => {
    const { id, line } = await threadWith(3, 3)
    await editBody(id, line)
    expect((await find()).found?.commentId).toBe(id)
    expect(github?.threadReads).toHaveLength(1)
  })

  /** Edits a comment as the action does (PATCH), through the stand-in's API. */
  async function editBody(id: number, body: string) {
    const res = await fetch(`${github?.apiUrl}/repos/octo-org/docs-site/issues/comments/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ body })
    })
    expect(res.status).toBe(200)
  }
})
