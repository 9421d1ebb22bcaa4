// For unit tests of the stages around handed-over jobs (the hand-over, the settling of records, the
// reporting run): one repository's settings, a job as the service answers it, and the job index's
// records as a reporting run reads them from the stand-in GitHub.
import type { GitHubSession } from '../../src/github/session.js'
import type { Settings } from '../../src/kernel/settings.js'
import { openIndexReader, openJobIndex } from '../../src/hand-over/job-index.js'
import type { Job } from '../../src/service/job-record.js'
import { emptyIndexState, signIndexMarker } from '../../src/hand-over/index-marker.js'
import { signRecord, type RecordPayload } from '../../src/github/signed-record.js'
import type { StandInGitHub } from './stand-in-github.js'
import type { StandInService } from './stand-in-service.js'

const INDEX_LABEL = 'docs-agent:jobs'
const TOKEN = 'ghs_endings_edge_token_0123456789'

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

/** `count` seeded jobs, each with an open record in a new index issue, signed as the action signs them; their ids, oldest first. */
export async function seedRecords(
  service: StandInService,
  github: StandInGitHub,
  count: number,
  planOf: (n: number) => Record<string, unknown>,
  record: (id: string) => RecordPayload = (job) => ({ job, state: 'open', created: new Date().toISOString() })
): Promise<string[]> {
  const index = await makeIndex(github, service.apiKey)
  const place = {
    host: 'github.example',
    thread: { owner: 'octo-org', repo: 'docs-site', number: index },
    projectId: 'docs'
  }
  const ids: string[] = []
  for (let n = 0; n < count; n++) {
    const id = service.seedJob({ plan: planOf(n) })
    ids.push(id)
    const commentId = github.addComment({ issueNumber: index, body: 'record', login: 'github-actions[bot]' })
    await edit(
      github,
      commentId,
      signRecord({ key: { apiKey: service.apiKey }, place, kind: 'index', commentId }, record(id))
    )
  }
  return ids
}

/** An index issue made as the action makes it (then signed for its number); its number. */
export async function makeIndex(github: StandInGitHub, apiKey: string): Promise<number> {
  const answer = await fetch(`${github.apiUrl}/repos/${REPO}/issues`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Documentation jobs', labels: [INDEX_LABEL] })
  })
  const { number } = (await answer.json()) as { number: number }
  const address = { key: { apiKey }, host: 'github.example', repository: REPO, issue: number, projectId: 'docs' }
  await fetch(`${github.apiUrl}/repos/${REPO}/issues/${number}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ body: signIndexMarker(address, emptyIndexState()) })
  })
  return number
}

async function edit(github: StandInGitHub, commentId: number, body: string): Promise<void> {
  await fetch(`${github.apiUrl}/repos/${REPO}/issues/comments/${commentId}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ body })
  })
}
