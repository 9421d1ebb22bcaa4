// What a reporting run shows: the jobs' values are outside text (a job id is any text the service
// gave), so every one is escaped; the heading says what happened, and the lines under the table say
// what was left for the next run and what was ignored.
import { describe, expect, it } from 'vitest'
import { reportingSummaryHtml, type ReportedRow } from '../../../src/hand-over/reporting-summary.js'

const counts = { ignored: 0, left: 0, perRun: 20, repositoryUrl: 'https://github.example/octo-org/docs-site' }
const row = (fields: Partial<ReportedRow>): ReportedRow => ({
  id: 'job_1',
  status: 'completed',
  prLink: null,
  thread: null,
  commit: null,
  outcome: 'told',
  ...fields
})

describe('the reporting summary', () => {
  it('escapes a job id and a status that hold HTML, so that nothing of them becomes markup', () => {
    const html = reportingSummaryHtml([row({ id: '<img src=x onerror=alert(1)>', status: '"><b>' })], counts)
    expect(html).not.toContain('<img')
    expect(html).not.toContain('<b>')
    expect(html).toContain('&#60;img src=x onerror=alert(1)&#62;')
  })

  it('says in its heading how many endings it told and how many jobs still work', () => {
    const told = reportingSummaryHtml([row({}), row({ id: 'job_2', status: 'active', outcome: 'working' })], counts)
    expect(told).toContain('<h3>📬 Reported the ending of 1 documentation job · 1 still working</h3>')
    const none = reportingSummaryHtml([row({ status: 'active', outcome: 'working' })], counts)
    expect(none).toContain('<h3>⏳ 1 documentation job still working: no ending to report yet</h3>')
    expect(reportingSummaryHtml([], counts)).toContain('<h3>📭 No documentation jobs were waiting to be reported</h3>')
  })

  it('links where each job was asked: the thread, or the commit', () => {
    const html = reportingSummaryHtml([row({ thread: 12 }), row({ commit: 'a'.repeat(40) })], counts)
    expect(html).toContain('<a href="https://github.example/octo-org/docs-site/issues/12">#12</a>')
    expect(html).toContain(
      `commit <a href="https://github.example/octo-org/docs-site/commit/${'a'.repeat(40)}"><code>aaaaaaa</code></a>`
    )
  })

  it('says how many records it left for the next run and how many it ignored', () => {
    const html = reportingSummaryHtml([row({})], { ...counts, left: 3, ignored: 2 })
    expect(html).toContain('3 more jobs left for the next reporting run: a run reads at most 20.')
    expect(html).toContain('2 records ignored: signed for another project, repository or comment')
  })
})
