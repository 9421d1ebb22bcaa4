// The index issue's marker and dashboard: a marker verifies only in the issue, repository, host and
// project it was signed for, and keeps its lists bounded; the dashboard shows outside text (a job id,
// a status) in code spans that cannot break its tables, and links where each job was asked.
import { describe, expect, it } from 'vitest'
import { dashboardBody } from '../../../src/hand-over/index-dashboard.js'
import {
  emptyIndexState,
  MAX_RECENT,
  readIndexMarker,
  signIndexMarker,
  type IndexAddress,
  type IndexState
} from '../../../src/hand-over/index-marker.js'

const ADDRESS: IndexAddress = {
  key: { apiKey: 'svc_unit_key' },
  host: 'github.example',
  repository: 'octo-org/docs-site',
  issue: 500,
  projectId: 'docs'
}
const LINKS = { repositoryUrl: 'https://github.example/octo-org/docs-site' }

const state = (extra: Partial<IndexState> = {}): IndexState => ({
  ...emptyIndexState(),
  workflow: '.github/workflows/report-later.yml',
  ...extra
})

describe('the index marker', () => {
  it('verifies in its own issue only: not in another issue, repository, host or project, nor under another key', () => {
    const marker = signIndexMarker(ADDRESS, state({ cursor: 9001 }))
    expect(readIndexMarker(`body\n${marker}`, ADDRESS)?.cursor).toBe(9001)
    for (const other of [
      { ...ADDRESS, issue: 3 },
      { ...ADDRESS, repository: 'octo-org/other' },
      { ...ADDRESS, host: 'github.com' },
      { ...ADDRESS, projectId: 'other' },
      { ...ADDRESS, key: { apiKey: 'svc_not_the_key' } }
    ]) {
      expect(readIndexMarker(marker, other)).toBeNull()
    }
  })

  it('keeps at most the last endings, and drops a workflow that is not a file of .github/workflows', () => {
    const recent = Array.from({ length: 40 }, (_, n) => ({ comment: n, job: `job_${n}`, status: 'completed', at: '' }))
    const read = readIndexMarker(signIndexMarker(ADDRESS, state({ recent })), ADDRESS)
    expect(read?.recent).toHaveLength(MAX_RECENT)
    const odd = readIndexMarker(signIndexMarker(ADDRESS, state({ workflow: '../../elsewhere.yml' })), ADDRESS)
    expect(odd?.workflow).toBeNull()
  })
})

describe('the dashboard', () => {
  it("shows a job id and a status with pipes and backticks inside code spans, without breaking the table's cells", () => {
    const body = dashboardBody(
      state({
        open: [
          {
            comment: 9001,
            job: 'job|`x`',
            since: '2026-12-01T10:00:00Z',
            status: 'act|ve',
            thread: { number: 12, comment: 77 }
          }
        ]
      }),
      '<!-- marker -->',
      LINKS
    )
    const row = body.split('\n').find((line) => line.startsWith('| ``'))
    expect(row).toBe(
      '| `` job\\|`x` `` | [#12](https://github.example/octo-org/docs-site/issues/12#issuecomment-77) | 2026-12-01 10:00 UTC | `act\\|ve` |'
    )
    expect(body.endsWith('<!-- marker -->')).toBe(true)
  })

  it('says which workflow reports, and whether it is on, off, or kept on its schedule', () => {
    expect(dashboardBody(state({ on: false }), '', LINKS)).toContain('⏸️ off: nothing is open')
    expect(dashboardBody(state({ switchable: false }), '', LINKS)).toContain('give it `actions: write`')
    expect(dashboardBody(emptyIndexState(), '', LINKS)).toContain('none has run yet')
  })
})
