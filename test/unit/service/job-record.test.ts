import { describe, expect, it } from 'vitest'
import { isFinal, isKnownStatus, parseJob, readJobRecord } from '../../../src/service/job-record.js'

describe('parseJob', () => {
  it('reads a record as the service serves it', () => {
    expect(
      parseJob({
        id: 'j1',
        status: 'completed',
        source: { repository: 'https://github.com/o/docs', ref: null },
        model: 'm',
        prLink: 'https://github.com/o/docs/pull/3',
        createdAt: '2026-11-21T12:00:00Z',
        archivedAt: null
      })
    ).toEqual({
      id: 'j1',
      status: 'completed',
      model: 'm',
      sourceRepository: 'https://github.com/o/docs',
      sourceRef: null,
      prLink: 'https://github.com/o/docs/pull/3',
      createdAt: '2026-11-21T12:00:00Z',
      archivedAt: null
    })
  })

  it.each([
    undefined,
    null,
    'text',
    [],
    {},
    { id: 'j1' },
    { status: 'active' },
    { id: '', status: 'active' },
    { id: 3, status: 'active' },
    { id: 'j1\n::add-mask::x', status: 'active' },
    { id: 'j1', status: 'active\r::error::x' },
    { id: 'j1', status: 'active ##[error]x' },
    { id: '.', status: 'active' },
    { id: '..', status: 'active' },
    { id: 'x'.repeat(201), status: 'active' },
    { id: 'job\u202e1', status: 'active' },
    { id: 'j1', status: 'y'.repeat(65) },
    { id: 'j1', status: '' }
  ])('is null for %j, which is not a job record', (body) => {
    expect(parseJob(body)).toBeNull()
  })

  it.each([
    [{ status: 'active' }, 'its `id` is missing'],
    [{ id: 3, status: 'active' }, 'its `id` is not a string'],
    [{ id: 'a\nb', status: 'active' }, 'its `id` cannot be a job id: it holds a control character'],
    [{ id: 'x'.repeat(201), status: 'active' }, 'its `id` cannot be a job id: it is longer than 200 characters'],
    [{ id: 'j1' }, 'its `status` is missing'],
    ['text', 'it is not a JSON object']
  ])('says which field of %j is wrong, and why', (body, problem) => {
    expect(readJobRecord(body).problem).toMatch(new RegExp(`^${problem.replace(/[`.*()]/g, '\\$&')}`))
  })

  it.each([
    'job_1',
    'a'.repeat(200),
    '7f3c9a2e-1b4d-4c8e-9f00-123456789abc',
    'job.1:2~3',
    'a/b',
    'team a/job #7?',
    '%2e%2e',
    '::add-mask::x',
    'β-7'
  ])('takes %s as an id', (id) => {
    expect(parseJob({ id, status: 'active' })?.id).toBe(id)
  })

  it.each(['javascript:alert(1)', 'ftp://x/y', 'not a url', 'https://github.com/o/docs/pull/3?$(id)'])(
    'does not pass on a prLink that is not a pull request link, and keeps it, neutralised, for a warning: %j',
    (prLink) => {
      const job = parseJob({ id: 'j1', status: 'completed', prLink })
      expect(job?.prLink).toBeNull()
      expect(job?.refusedPrLink).toBe(prLink)
    }
  )

  it('neither passes on nor warns about a prLink that is not there or not text', () => {
    for (const prLink of [null, '', 42]) {
      expect(parseJob({ id: 'j1', status: 'completed', prLink })).toMatchObject({ prLink: null })
      expect(parseJob({ id: 'j1', status: 'completed', prLink })).not.toHaveProperty('refusedPrLink')
    }
  })

  it('neutralises the texts it passes on (they become outputs a later step may print)', () => {
    const job = parseJob({
      id: 'j1',
      status: 'completed',
      model: 'm\n::add-mask::x',
      source: { repository: 'https://github.com/o/docs ##[error]x', ref: '\u0085::error::x' },
      createdAt: 'today\r::warning::x'
    })
    expect(job).toMatchObject({
      model: 'm\\n::add-mask::x',
      sourceRepository: 'https://github.com/o/docs ## [error]x',
      sourceRef: '\\u0085::error::x',
      createdAt: 'today\\r::warning::x'
    })
  })
})

describe('statuses', () => {
  it('knows the final ones', () => {
    expect(['completed', 'archived', 'failed'].every(isFinal)).toBe(true)
    expect(isFinal('active')).toBe(false)
    expect(isFinal('paused')).toBe(false)
    expect(isKnownStatus('paused')).toBe(false)
    expect(isKnownStatus('active')).toBe(true)
  })
})
