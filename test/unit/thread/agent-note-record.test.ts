// The pure parts of the agent's own pull request: the signed marker, which links are pull requests on this
// GitHub, and the note's words.
import { describe, expect, it } from 'vitest'
import { isSourceOf, noteBody, signMarker, readMarkedJobs } from '../../../src/thread/agent-note-record.js'
import { parsePullRequestLink, type NotePlace } from '../../../src/github/note-place.js'
import { readRunner } from '../../../src/github/runner.js'
import type { TriggeringComment } from '../../../src/thread/trigger.js'

const KEY = { apiKey: 'svc_stand_in_key' }
const PLACE: NotePlace = { host: 'github.com', pr: { owner: 'octo-org', repo: 'docs', number: 7 }, projectId: 'docs' }

describe('the signed marker', () => {
  it('names the job, and verifies for its place under the same key', () => {
    const line = signMarker(KEY, PLACE, 'job_1_abc')
    expect(line).toMatch(/^<!-- docs-agent-job: job_1_abc v1\.[A-Za-z0-9_-]{43} -->$/)
    expect(readMarkedJobs(`${line}\nText`, KEY, PLACE)).toEqual([{ jobId: 'job_1_abc', verified: true }])
  })

  it('does not hold the API key, nor the key it is signed with', () => {
    const line = signMarker(KEY, PLACE, 'job_1_abc')
    expect(line).not.toContain(KEY.apiKey)
    expect(line).not.toContain(Buffer.from(KEY.apiKey).toString('base64url'))
  })

  it('names the same place whatever the case of its names', () => {
    const upper = { ...PLACE, host: 'GitHub.com', pr: { ...PLACE.pr, owner: 'Octo-Org', repo: 'Docs' } }
    expect(readMarkedJobs(signMarker(KEY, PLACE, 'job_1'), KEY, upper)).toEqual([{ jobId: 'job_1', verified: true }])
  })

  it.each([
    ['another project', { ...PLACE, projectId: 'handbook' }, KEY],
    ['another pull request', { ...PLACE, pr: { ...PLACE.pr, number: 8 } }, KEY],
    ['another repository', { ...PLACE, pr: { ...PLACE.pr, repo: 'docs-fork' } }, KEY],
    ['another GitHub', { ...PLACE, host: 'ghe.example.com' }, KEY],
    ['a rotated key', PLACE, { apiKey: 'svc_new_key' }]
  ])('does not verify for %s', (_name, place, key) => {
    expect(readMarkedJobs(signMarker(KEY, PLACE, 'job_1'), key, place)).toEqual([{ jobId: 'job_1', verified: false }])
  })

  it('does not verify when the job id or the signature is changed', () => {
    const line = signMarker(KEY, PLACE, 'job_1')
    expect(readMarkedJobs(line.replace('job_1', 'job_2'), KEY, PLACE)).toEqual([{ jobId: 'job_2', verified: false }])
    const flipped = line.replace(/(.)( -->)$/, (_, last: string, end: string) => (last === 'A' ? 'B' : 'A') + end)
    expect(readMarkedJobs(flipped, KEY, PLACE)).toEqual([{ jobId: 'job_1', verified: false }])
    expect(readMarkedJobs('<!-- docs-agent-job: job_1 -->', KEY, PLACE)).toEqual([{ jobId: 'job_1', verified: false }])
  })

  it('carries any job id, encoded, and reads it back', () => {
    const odd = 'team a/job --> #7'
    const line = signMarker(KEY, PLACE, odd)
    expect(line.match(/-->/g)).toHaveLength(1)
    expect(readMarkedJobs(line, KEY, PLACE)).toEqual([{ jobId: odd, verified: true }])
  })

  it.each([
    'no marker at all',
    '<!-- docs-agent-job: %E0%A4%A -->',
    `<!-- docs-agent-job: ${'a'.repeat(201)} -->`,
    '<!-- docs-agent-job: a%0Ab -->'
  ])('%j names no job', (body) => {
    expect(readMarkedJobs(body, KEY, PLACE).filter((note) => note.jobId !== '')).toEqual([])
  })
})

describe('isSourceOf', () => {
  const pr = { owner: 'octo-org', repo: 'docs', number: 7 }
  it.each([
    'https://github.com/octo-org/docs',
    'https://github.com/Octo-Org/docs.git',
    'https://github.com/octo-org/docs/'
  ])('%s is the source of octo-org/docs#7', (source) => {
    expect(isSourceOf(source, pr, 'https://github.com')).toBe(true)
  })

  it.each([
    null,
    'https://github.com/octo-org/other',
    'https://github.example/octo-org/docs',
    'http://github.com/octo-org/docs',
    'https://github.com/octo-org/docs/tree/main',
    'not a url'
  ])('%s is not', (source) => {
    expect(isSourceOf(source, pr, 'https://github.com')).toBe(false)
  })
})

describe('parsePullRequestLink', () => {
  it('reads a pull request on the GitHub the workflow runs on', () => {
    expect(parsePullRequestLink('https://github.com/octo-org/docs/pull/7', 'https://github.com')).toEqual({
      owner: 'octo-org',
      repo: 'docs',
      number: 7
    })
    expect(parsePullRequestLink('https://ghe.example.com/a/b/pull/12', 'https://ghe.example.com/')).toEqual({
      owner: 'a',
      repo: 'b',
      number: 12
    })
  })

  it.each([
    ['another host', 'https://gitlab.example/o/r/-/merge_requests/3'],
    ['another GitHub', 'https://github.example/o/r/pull/3'],
    ['not a pull request', 'https://github.com/o/r/issues/3'],
    ['a deeper path', 'https://github.com/o/r/pull/3/files'],
    ['a host that only starts the same', 'https://github.com.evil.example/o/r/pull/3']
  ])('%s: none', (_name, link) => {
    expect(parsePullRequestLink(link, 'https://github.com')).toBeNull()
  })
})

describe('noteBody', () => {
  const env = readRunner({ GITHUB_REPOSITORY: 'o/r', GITHUB_RUN_ID: '4711', GITHUB_EVENT_NAME: 'schedule' })

  it('starts with the marker, names the job, the run, the event, and how to ask for changes', () => {
    const body = noteBody({
      signedMarker: '<!-- docs-agent-job: job_7 v1.sig -->',
      jobId: 'job_7',
      comment: null,
      trigger: '/docs',
      serverUrl: 'https://github.com',
      runner: env
    })
    expect(body.split('\n')[0]).toBe('<!-- docs-agent-job: job_7 v1.sig -->')
    expect(body).toContain(
      'job `job_7` opened this pull request, asked for by a [workflow run](https://github.com/o/r/actions/runs/4711) (a schedule event).'
    )
    expect(body).toContain('comment `/docs <what to change>` here')
    expect(body).toContain('`/docs --new <instruction>` starts a new job instead')
  })

  it('links the comment that asked for the job', () => {
    const comment: TriggeringComment = {
      id: 5151,
      kind: 'review comment',
      author: 'octo-maintainer',
      repository: 'o/r',
      thread: { kind: 'pull request', number: 40, title: 'x', url: 'https://github.com/o/r/pull/40' }
    }
    expect(
      noteBody({
        signedMarker: '<!-- -->',
        jobId: 'job_7',
        comment: comment,
        trigger: '/docs',
        serverUrl: 'https://github.com',
        runner: env
      })
    ).toContain(
      "(@octo-maintainer's [review comment](https://github.com/o/r/pull/40#discussion_r5151) on [pull request #40](https://github.com/o/r/pull/40))"
    )
  })
})
