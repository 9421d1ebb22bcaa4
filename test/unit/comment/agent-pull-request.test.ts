// The pure parts of the agent's own pull request: the marker, which links are pull requests on this
// GitHub, and the note's words.
import { describe, expect, it } from 'vitest'
import { marker, markedJobId, pullRequestOf } from '../../../src/comment/agent-pull-request.js'
import { noteBody } from '../../../src/report/agent-note.js'
import type { TriggeringComment } from '../../../src/comment/trigger.js'

describe('the marker', () => {
  it('names the job, and reads back', () => {
    expect(marker('job_1_abc')).toBe('<!-- docs-agent-job: job_1_abc -->')
    expect(markedJobId(`${marker('job_1_abc')}\nText`)).toBe('job_1_abc')
  })

  it.each([
    'no marker at all',
    '<!-- docs-agent-job: ../../admin -->',
    '<!-- docs-agent-job: ::error::x -->',
    '<!-- docs-agent-job: job_1 --> with a space in the id -->'.replace('job_1 -->', 'job 1 -->'),
    `<!-- docs-agent-job: ${'a'.repeat(129)} -->`
  ])('%j names no job', (body) => {
    expect(markedJobId(body)).toBeNull()
  })
})

describe('pullRequestOf', () => {
  it('reads a pull request on the GitHub the workflow runs on', () => {
    expect(pullRequestOf('https://github.com/octo-org/docs/pull/7', 'https://github.com')).toEqual({
      owner: 'octo-org',
      repo: 'docs',
      number: 7
    })
    expect(pullRequestOf('https://ghe.example.com/a/b/pull/12', 'https://ghe.example.com/')).toEqual({
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
    expect(pullRequestOf(link, 'https://github.com')).toBeNull()
  })
})

describe('noteBody', () => {
  const env = { GITHUB_REPOSITORY: 'o/r', GITHUB_RUN_ID: '4711', GITHUB_EVENT_NAME: 'schedule' }

  it('starts with the marker, names the job, the run, the event, and how to ask for changes', () => {
    const body = noteBody('job_7', null, '/docs', 'https://github.com', env)
    expect(body.split('\n')[0]).toBe('<!-- docs-agent-job: job_7 -->')
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
    expect(noteBody('job_7', comment, '/docs', 'https://github.com', env)).toContain(
      "(@octo-maintainer's [review comment](https://github.com/o/r/pull/40#discussion_r5151) on pull request #40)"
    )
  })
})
