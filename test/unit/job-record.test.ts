import { describe, expect, it } from 'vitest'
import { isFinal, isKnownStatus, parseJob } from '../../src/job-record.js'

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
    { id: 3, status: 'active' }
  ])('is null for %j, which is not a job record', (body) => {
    expect(parseJob(body)).toBeNull()
  })

  it.each(['javascript:alert(1)', 'ftp://x/y', 'not a url', 42])('drops a prLink that is not http(s): %j', (prLink) => {
    expect(parseJob({ id: 'j1', status: 'completed', prLink })?.prLink).toBeNull()
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
