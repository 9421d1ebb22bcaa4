// The index of handed-over jobs: one issue labelled `docs-agent:jobs` ("Documentation jobs"), holding
// one signed record comment per job a run handed over (wait false, a timeout on a job still working,
// a create the rate limit refused). A reporting run finds it with one listing and reads its comments;
// each record is signed for the comment that holds it (request/signed-record.ts), so a copy, a forgery
// or another project's record names nothing here. A record is written open (or queued), and edited
// once to final when its ending is told: a cancel between the two leaves it open, never half-told.
import { asArray, asObject, text } from '../github/json-shape.js'
import { repositoryPath } from '../github/pull-request-ref.js'
import { type GitHubReader, type ReadLimits } from '../github/reader.js'
import type { Octokit } from '../github/octokit.js'
import { neutralise } from '../safety/neutralise.js'
import { oneLineCodeSpan } from '../safety/quote-for-agent.js'
import { blankSecrets } from '../safety/run-secrets.js'
import { wordToldEnding } from './ending-words.js'
import {
  readRecords,
  signRecord,
  type RecordKey,
  type RecordPayload,
  type RecordPlace
} from '../request/signed-record.js'
import type { GitHubSession } from '../github/session.js'

export const INDEX_LABEL = 'docs-agent:jobs'
export const INDEX_TITLE = 'Documentation jobs'

/**
 * The index's reads: one listing of the labelled issues, then its comments, at most `maxPages` pages of
 * 100 (10,000 records, open and final; a record is one comment), each request and all of them bounded.
 */
export const INDEX_READS = { maxPages: 100, requestMs: 10_000, totalMs: 60_000 } as const
const LIMITS: ReadLimits = {
  // The listing, the pages of comments, and a re-read of each record a run may tell.
  maxRequests: 1 + INDEX_READS.maxPages + 200,
  totalMs: INDEX_READS.totalMs,
  requestMs: INDEX_READS.requestMs,
  maxBodyBytes: 16 * 1024 * 1024
}

/** A handed-over job's record: where its ending goes, and how far it is (request/signed-record.ts). */
export type JobRecord = RecordPayload

/** A record as found in the index: the comment that holds it, and what it says. */
export interface IndexedRecord {
  commentId: number
  record: JobRecord
}

/** What reading the index found: its issue, the records that verify, and how many did not. */
export interface IndexRead {
  issue: number | null
  records: IndexedRecord[]
  /** Record comments that failed to verify, or named another project or repository. */
  ignored: number
}

/** The index of one repository, for one project, under one key. */
export class JobIndex {
  private readonly owner: string
  private readonly repo: string
  private readonly octokit: Octokit
  private readonly reader: GitHubReader
  private readonly key: RecordKey
  private readonly host: string
  private readonly projectId: string

  constructor(index: {
    octokit: Octokit
    reader: GitHubReader
    key: RecordKey
    /** This GitHub's host, which each record's signature covers. */
    host: string
    /** `owner/name` of the repository the index issue is in. */
    repository: string
    projectId: string
  }) {
    ;({ octokit: this.octokit, reader: this.reader, key: this.key, host: this.host, projectId: this.projectId } = index)
    ;[this.owner, this.repo] = index.repository.split('/')
  }

  /** The index's issue: the oldest open issue (not a pull request) with the label; null when there is none. */
  async findIssue(): Promise<number | null> {
    const path = `${this.repoPath()}/issues?labels=${encodeURIComponent(INDEX_LABEL)}&state=open&per_page=100`
    const listed = asArray(await this.reader.get(path, 'the issues labelled ' + INDEX_LABEL, 'issues: read'))
    const numbers = listed
      .map(asObject)
      .filter((issue) => issue.pull_request === undefined && typeof issue.number === 'number')
      .map((issue) => issue.number as number)
    return numbers.length ? Math.min(...numbers) : null
  }

  /** The index's issue, made when there is none yet. */
  async findOrMakeIssue(signal: AbortSignal): Promise<number> {
    const found = await this.findIssue()
    if (found !== null) return found
    const made = await this.octokit.rest.issues.create({
      owner: this.owner,
      repo: this.repo,
      title: INDEX_TITLE,
      body: INDEX_BODY,
      labels: [INDEX_LABEL],
      request: { signal }
    })
    return made.data.number
  }

  /** Every record in the index's comments, oldest first, with the count of those that do not verify. */
  async read(): Promise<IndexRead> {
    const issue = await this.findIssue()
    if (issue === null) return { issue, records: [], ignored: 0 }
    const records: IndexedRecord[] = []
    let ignored = 0
    const path = `${this.repoPath()}/issues/${issue}/comments`
    for (let page = 1; page <= INDEX_READS.maxPages; page++) {
      const comments = asArray(
        await this.reader.get(`${path}?per_page=100&page=${page}`, "the index's comments", 'issues: read')
      )
      for (const entry of comments) {
        const found = this.readComment(issue, entry)
        if (found === 'none') continue
        if (found === 'unverified') ignored++
        else records.push(found)
      }
      if (comments.length < 100) break
    }
    return { issue, records, ignored }
  }

  /** The record as its comment holds it now (another run may have told it meanwhile); null when it is gone. */
  async reread(issue: number, commentId: number): Promise<JobRecord | null> {
    try {
      const entry = await this.reader.get(`${this.repoPath()}/issues/comments/${commentId}`, 'a record', 'issues: read')
      const found = this.readComment(issue, entry)
      return typeof found === 'object' ? found.record : null
    } catch (error) {
      if ((error as { status?: unknown }).status === 404) return null
      throw error
    }
  }

  /** Adds a record: a comment is posted, then signed for its own id. Returns the comment's id. */
  async add(issue: number, record: JobRecord, signal: AbortSignal): Promise<number> {
    const posted = await this.octokit.rest.issues.createComment({
      owner: this.owner,
      repo: this.repo,
      issue_number: issue,
      body: '📋 A documentation agent job is being recorded here.',
      request: { signal }
    })
    await this.write(issue, posted.data.id, record, signal)
    return posted.data.id
  }

  /** Writes `record` into its comment, signed for it. */
  async write(issue: number, commentId: number, record: JobRecord, signal: AbortSignal): Promise<void> {
    const signed = signRecord({ key: this.key, place: this.place(issue), kind: 'index', commentId }, record)
    await this.octokit.rest.issues.updateComment({
      owner: this.owner,
      repo: this.repo,
      comment_id: commentId,
      body: `${signed}\n${recordText(record)}`,
      request: { signal }
    })
  }

  /**
   * Claims the telling of a record: a reaction on its comment, which GitHub gives once per identity
   * (201 the first time, 200 after): `claimed` when this run tells it; else another run (or this
   * identity before) claimed it, at `since`. `reactionId` is the claim's, to give it up.
   */
  async claim(
    commentId: number,
    signal: AbortSignal
  ): Promise<{ claimed: boolean; since: number; reactionId: number }> {
    const answer = await this.octokit.rest.reactions.createForIssueComment({
      owner: this.owner,
      repo: this.repo,
      comment_id: commentId,
      content: CLAIM,
      request: { signal }
    })
    const since = Date.parse(text(answer.data.created_at))
    return {
      claimed: answer.status === 201,
      since: Number.isFinite(since) ? since : Date.now(),
      reactionId: answer.data.id
    }
  }

  /** Gives up a claim left by a run that never finished (a reporter cancelled after its claim). */
  async dropClaim(commentId: number, reactionId: number, signal: AbortSignal): Promise<void> {
    await this.octokit.rest.reactions.deleteForIssueComment({
      owner: this.owner,
      repo: this.repo,
      comment_id: commentId,
      reaction_id: reactionId,
      request: { signal }
    })
  }

  private readComment(issue: number, entry: unknown): IndexedRecord | 'unverified' | 'none' {
    const comment = asObject(entry)
    const id = comment.id
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) return 'none'
    const found = readRecords(text(comment.body), {
      key: this.key,
      place: this.place(issue),
      kind: 'index',
      commentId: id
    })
    const record = found.records.at(-1)
    if (record) return { commentId: id, record }
    return found.unverified > 0 ? 'unverified' : 'none'
  }

  private place(issue: number): RecordPlace {
    return { host: this.host, thread: { owner: this.owner, repo: this.repo, number: issue }, projectId: this.projectId }
  }

  private repoPath(): string {
    return repositoryPath({ owner: this.owner, repo: this.repo })
  }
}

/** The reaction that claims a record's telling. */
const CLAIM = 'rocket'

const INDEX_BODY =
  'The documentation agent action keeps one signed record per handed-over job here (a run with `wait: false`, ' +
  'or one whose timeout ran out while the job worked). A run with `report: pending` reads them, tells each ending ' +
  'where it was asked for, and marks the record final. Leave this issue open; see docs/report-later.md.'

/** What a person reads on a record's comment: a told ending in a held run's mark and words (ending-words.ts). */
function recordText(record: JobRecord): string {
  const job = record.job ? `Job ${oneLineCodeSpan(neutralise(record.job))}` : 'The request'
  const where = [record.thread && `#${record.thread.number}`, record.commit && `commit ${record.commit.slice(0, 7)}`]
    .filter(Boolean)
    .join(' and ')
  if (record.state === 'final') {
    const told = record.told ?? 'unknown'
    const { icon, short } = wordToldEnding(told, job, oneLineCodeSpan(neutralise(told)))
    return blankSecrets(`${icon} ${short} Told${where ? ` on ${where}` : ''} by a reporting run.`)
  }
  const asked = where ? ` for ${where}` : ''
  return blankSecrets(
    record.state === 'queued'
      ? `⏳ Queued: the request${asked}. The service refused its create for its rate limit; a reporting run creates the job once it allows, and tells its ending.`
      : `⏳ Working: job ${oneLineCodeSpan(neutralise(record.job))}${asked}. A reporting run tells its ending.`
  )
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
  return { octokit, index: new JobIndex({ octokit, reader, key, host, repository, projectId: key.projectId }) }
}
