// For unit tests of the stages around handed-over jobs (the hand-over, the settling of records, the
// reporting run): one repository's settings, a job as the service answers it, and the job index's
// records as a reporting run reads them from the stand-in GitHub.
import type { GitHubSession } from '../../src/github/session.js'
import type { Settings } from '../../src/inputs/settings.js'
import { openIndexReader, openJobIndex } from '../../src/report/job-index.js'
import type { Job } from '../../src/service/job-record.js'

export const REPO = 'octo-org/docs-site'

/** A run with wait: false and a token, in project `docs`. */
export const INDEX_SETTINGS = {
  dryRun: false,
  wait: false,
  githubToken: 'ghs_unit',
  apiKey: 'svc_unit_key',
  projectId: 'docs',
  noteTrigger: '/docs',
  baseUrl: 'https://api.example.com'
} as Settings

/** A job as the service answers it: `pr`, the number of the pull request it opened, if any. */
export const serviceJob = (id: string, status: string, pr?: number): Job => ({
  id,
  status,
  model: null,
  sourceRepository: `https://github.com/${REPO}`,
  sourceRef: null,
  prLink: pr ? `https://github.com/${REPO}/pull/${pr}` : null,
  createdAt: null,
  archivedAt: null
})

/** The index's records, as a reporting run reads them. */
export async function readIndexRecords(session: GitHubSession) {
  const reader = openIndexReader(session, new AbortController().signal)
  if (!reader) throw new Error('no reader')
  try {
    const { index } = await openJobIndex(session, reader, { key: INDEX_SETTINGS, repository: REPO })
    return (await index.read()).records.map((r) => r.record)
  } finally {
    await reader.close()
  }
}
