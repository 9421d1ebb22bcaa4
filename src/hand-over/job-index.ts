// The index of handed-over jobs, as the hand-over and the reporting run use it: one issue the action
// made and can prove it made (index-issue.ts), whose comments are the signed records of the jobs
// handed over (index-records.ts), and whose body is the dashboard a person reads over the index's
// signed state (index-body.ts), all of one repository, project and key (index-site.ts). A record is
// written open (or queued), edited to final once its ending is told everywhere (finish), then leaves
// the index: the dashboard lists its ending and its comment is deleted (publish). So the index holds
// what is open, and a reporting run's reads grow with that, not with the jobs told before.
import type { Octokit } from '../github/octokit.js'
import type { GitHubReader, ReadLimits } from '../github/reader.js'
import type { RecordKey } from '../github/signed-record.js'
import type { GitHubSession } from '../github/session.js'
import { IndexBody, type DashboardUpdate } from './index-body.js'
import { IndexIssue } from './index-issue.js'
import type { IndexState } from './index-marker.js'
import { IndexRecords, type IndexedRecord, type JobRecord, type RecordClaim, type ToldEnding } from './index-records.js'
import { INDEX_READS, IndexSite, type IndexSiteOptions } from './index-site.js'

const LIMITS: ReadLimits = {
  // The listing, the token's account, the pages of comments twice, the body, and a re-read of each record a run may tell.
  maxRequests: 4 + 2 * INDEX_READS.maxPages + 200,
  totalMs: INDEX_READS.totalMs,
  requestMs: INDEX_READS.requestMs,
  maxBodyBytes: 16 * 1024 * 1024
}

/** What reading the index found: its issue, the records that verify, and how many did not. */
export interface IndexRead {
  issue: number | null
  records: IndexedRecord[]
  /** Record comments that failed to verify, named another project or repository, or were not the action's. */
  ignored: number
  /** The index's state (its marker's), as read. */
  state: IndexState
  /** Other open issues with the label: not the index, never read. */
  others: number[]
  /** Whether the index issue is locked (outsiders cannot comment). */
  locked: boolean
}

/** The index of one repository, for one project, under one key. */
export class JobIndex {
  private readonly issues: IndexIssue
  private readonly records: IndexRecords
  private readonly body: IndexBody

  constructor(index: IndexSiteOptions) {
    const site = new IndexSite(index)
    this.records = new IndexRecords(site)
    this.body = new IndexBody(site, this.records)
    this.issues = new IndexIssue(site, this.body)
  }

  /** The index's issue; null when there is none yet. */
  async findIssue(): Promise<number | null> {
    return (await this.issues.locate()).issue
  }

  /** The index's issue, made when there is none yet. */
  async findOrMakeIssue(signal: AbortSignal): Promise<number> {
    const found = await this.findIssue()
    return found ?? (await this.makeIssue(signal))
  }

  /** Makes the index (index-issue.ts): one issue, whatever GitHub answers, and one for two runs at once. */
  async makeIssue(signal: AbortSignal, state?: IndexState): Promise<number> {
    return await this.issues.makeIssue(signal, state)
  }

  /** Locks the index, so that only collaborators (and the workflow's identity) may comment. */
  async lock(issue: number, signal: AbortSignal): Promise<void> {
    await this.issues.lock(issue, signal)
  }

  /** Every record in the index's comments, oldest first, with the count of those that do not verify. */
  async read(): Promise<IndexRead> {
    const located = await this.issues.locate()
    if (located.issue === null) return { ...located, records: [], ignored: 0 }
    return { ...located, ...(await this.records.readComments(located.issue)) }
  }

  /** The records in the comments of `issue` (the index, found already). */
  async readComments(issue: number): Promise<{ records: IndexedRecord[]; ignored: number }> {
    return await this.records.readComments(issue)
  }

  /** The record as its comment holds it now (another run may have told it meanwhile); null when it is gone. */
  async reread(issue: number, commentId: number): Promise<JobRecord | null> {
    return await this.records.reread(issue, commentId)
  }

  /** Adds a record, posted once whatever GitHub answers; returns its comment's id. */
  async add(issue: number, record: JobRecord, signal: AbortSignal): Promise<number> {
    return await this.records.add(issue, record, signal)
  }

  /** Writes `record` into its comment, signed for it. */
  async write(issue: number, commentId: number, record: JobRecord, signal: AbortSignal): Promise<void> {
    await this.records.write(issue, commentId, record, signal)
  }

  /**
   * Finishes a record whose ending is told everywhere (the thread, the pull request, the commit): it
   * is marked final, with its ending, in one edit; the run's publish then lists the ending on the
   * dashboard and deletes the comment. A run cancelled before that leaves the final record, which the
   * next reporting run lists and deletes (listed once: the list is keyed by the record's comment).
   */
  async finish(issue: number, indexed: IndexedRecord, ending: ToldEnding, signal: AbortSignal): Promise<void> {
    this.body.sweep([await this.records.finish(issue, indexed, ending, signal)])
  }

  /** Final records found in the index (a run cancelled before its publish): listed and deleted at publish. */
  sweep(finals: readonly IndexedRecord[]): void {
    this.body.sweep(finals)
  }

  /** How many finished records wait for publish. */
  get finishedCount(): number {
    return this.body.finishedCount
  }

  /** The dashboard edited, then the finished records deleted (index-body.ts); returns the state written. */
  async publish(issue: number, update: DashboardUpdate, signal: AbortSignal): Promise<IndexState> {
    return await this.body.publish(issue, update, signal)
  }

  /** The index's state as its body holds it now (an index made before the marker reads as empty). */
  async readState(issue: number): Promise<IndexState> {
    return await this.body.readState(issue)
  }

  /** Claims a record's telling, or (`of` create) its queued create, by a reaction GitHub gives once. */
  async claim(commentId: number, signal: AbortSignal, of?: 'telling' | 'create'): Promise<RecordClaim> {
    return await this.records.claim(commentId, signal, of)
  }

  /** Gives up a claim on a record. */
  async dropClaim(commentId: number, reactionId: number, signal: AbortSignal): Promise<void> {
    await this.records.dropClaim(commentId, reactionId, signal)
  }
}

/** A reader of the index within its limits; null when GITHUB_API_URL is unusable. */
export function openIndexReader(github: GitHubSession, signal: AbortSignal): GitHubReader | null {
  return github.reader(LIMITS, signal)
}

/** The repository's job index through the run's session: its writing client, and the reader the caller opened (and closes). */
export async function openJobIndex(
  github: Pick<GitHubSession, 'client' | 'serverUrl'>,
  reader: GitHubReader,
  { key, repository }: { key: RecordKey & { projectId: string }; repository: string }
): Promise<{ index: JobIndex; octokit: Octokit }> {
  const octokit = await github.client()
  const host = new URL(github.serverUrl).host
  return {
    octokit,
    index: new JobIndex({
      octokit,
      reader,
      key,
      host,
      repository,
      projectId: key.projectId,
      serverUrl: github.serverUrl
    })
  }
}
