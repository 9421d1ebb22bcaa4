// The index's records: each job a run handed over is one comment on the index issue, a signed record
// (github/signed-record.ts) over the words a person reads. Every read and write of those comments is
// here: they are read (only the action's own; a copy, a forgery or another project's record names
// nothing), added (posted, then signed for their own id), written, finished (marked final with their
// ending, in one edit), claimed by a reaction (the telling's 🚀, a queued create's 👀), and deleted
// once the dashboard lists their ending (index-body.ts). A write GitHub may have made despite a 5xx
// is read back, never made twice.
import { asArray, asObject, text } from '../github/json-shape.js'
import { writeTwice } from '../github/post-note.js'
import { readRecords, signRecord, type RecordPayload } from '../github/signed-record.js'
import { mayHaveWritten } from '../github/write-failure.js'
import { wordToldEnding } from '../ending/ending-words.js'
import { neutralise } from '../safety/neutralise.js'
import { oneLineCodeSpan } from '../safety/quote-for-agent.js'
import { blankSecrets } from '../safety/run-secrets.js'
import { randomUUID } from 'node:crypto'
import { INDEX_READS, type IndexSite } from './index-site.js'

/** A handed-over job's record: where its ending goes, and how far it is (github/signed-record.ts). */
export type JobRecord = RecordPayload

/** A record as found in the index: the comment that holds it, and what it says. */
export interface IndexedRecord {
  commentId: number
  record: JobRecord
}

/** An ending told everywhere, for the index's list (finish). */
export interface ToldEnding {
  /** The job's status at its end, or `unknown`. */
  status: string
  prLink: string | null
}

/** The reactions that claim a record: its telling (report-job.ts), and its queued create (report-queued-claim.ts). */
const CLAIMS = { telling: 'rocket', create: 'eyes' } as const

/** A claim on a record, as GitHub answered it. */
export interface RecordClaim {
  claimed: boolean
  since: number
  reactionId: number
}

/** The record comments of one index. */
export class IndexRecords {
  constructor(private readonly site: IndexSite) {}

  /** The records in the comments of `issue` (the index, found already). */
  async readComments(issue: number): Promise<{ records: IndexedRecord[]; ignored: number }> {
    const records: IndexedRecord[] = []
    let ignored = 0
    const path = `${this.site.repoPath()}/issues/${issue}/comments`
    for (let page = 1; page <= INDEX_READS.maxPages; page++) {
      const comments = asArray(
        await this.site.reader.get(`${path}?per_page=100&page=${page}`, "the index's comments", 'issues: read')
      )
      for (const entry of comments) {
        const found = await this.readComment(issue, entry)
        if (found === 'none') continue
        if (found === 'unverified') ignored++
        else records.push(found)
      }
      if (comments.length < 100) break
    }
    return { records, ignored }
  }

  /** The record as its comment holds it now (another run may have told it meanwhile); null when it is gone. */
  async reread(issue: number, commentId: number): Promise<JobRecord | null> {
    try {
      const entry = await this.site.reader.get(
        `${this.site.repoPath()}/issues/comments/${commentId}`,
        'a record',
        'issues: read'
      )
      const found = await this.readComment(issue, entry)
      return typeof found === 'object' ? found.record : null
    } catch (error) {
      if ((error as { status?: unknown }).status === 404) return null
      throw error
    }
  }

  /**
   * Adds a record: a comment is posted, then signed for its own id (an edit, tried once more after a
   * failure GitHub may not repeat). Returns the comment's id. A post GitHub may have made despite its
   * error (a 5xx, no answer) is looked for by the marker only it holds, never posted twice.
   */
  async add(issue: number, record: JobRecord, signal: AbortSignal): Promise<number> {
    const marker = `<!-- docs-agent-record-pending: ${randomUUID()} -->`
    const since = new Date(Date.now() - 60_000).toISOString()
    let id: number
    try {
      const posted = await this.site.octokit.rest.issues.createComment({
        owner: this.site.owner,
        repo: this.site.repo,
        issue_number: issue,
        body: `📋 A documentation agent job is being recorded here.\n${marker}`,
        request: { signal }
      })
      id = posted.data.id
    } catch (error) {
      const found = mayHaveWritten(error) && !signal.aborted ? await this.findPosted(issue, marker, since) : null
      if (found === null) throw error
      id = found
    }
    try {
      await writeTwice(signal, (limited) => this.write(issue, id, record, limited))
    } catch (error) {
      // An edit GitHub may have made despite its error is read back: a record written is not said lost.
      if (!mayHaveWritten(error) || signal.aborted || !(await this.holds(id, this.recordBody(issue, id, record))))
        throw error
    }
    return id
  }

  /** Whether comment `commentId` reads `body` now. */
  private async holds(commentId: number, body: string): Promise<boolean> {
    const path = `${this.site.repoPath()}/issues/comments/${commentId}`
    const read = asObject(await this.site.reader.get(path, 'a record just written', 'issues: read'))
    return text(read.body) === body
  }

  /** The oldest comment since `since` that holds `marker` (a copy is never older); null when there is none. */
  private async findPosted(issue: number, marker: string, since: string): Promise<number | null> {
    const path = `${this.site.repoPath()}/issues/${issue}/comments?since=${encodeURIComponent(since)}&per_page=100`
    const listed = asArray(await this.site.reader.get(path, "the index's newest comments", 'issues: read')).map(
      asObject
    )
    const found = listed.find((comment) => text(comment.body).includes(marker))
    return typeof found?.id === 'number' ? found.id : null
  }

  /** Writes `record` into its comment, signed for it. */
  async write(issue: number, commentId: number, record: JobRecord, signal: AbortSignal): Promise<void> {
    await this.site.octokit.rest.issues.updateComment({
      owner: this.site.owner,
      repo: this.site.repo,
      comment_id: commentId,
      body: this.recordBody(issue, commentId, record),
      request: { signal }
    })
  }

  /** A record's comment body: its signed line, then its words. */
  private recordBody(issue: number, commentId: number, record: JobRecord): string {
    const signed = signRecord({ key: this.site.key, place: this.site.place(issue), kind: 'index', commentId }, record)
    return `${signed}\n${recordText(record)}`
  }

  /**
   * Finishes a record whose ending is told everywhere (the thread, the pull request, the commit): it
   * is marked final, with its ending, in one edit. Returns the final record, for the dashboard's list.
   */
  async finish(issue: number, indexed: IndexedRecord, ending: ToldEnding, signal: AbortSignal): Promise<IndexedRecord> {
    const { record, commentId } = indexed
    const final: JobRecord = {
      ...record,
      state: 'final',
      told: ending.status,
      ...(ending.prLink ? { prLink: ending.prLink } : {})
    }
    try {
      await this.write(issue, commentId, final, signal)
    } catch (error) {
      // An edit GitHub made despite its 5xx is read back: the record final is this run's telling, which
      // it lists (the next run would find it final, and list it in no run's `reported`).
      if (!mayHaveWritten(error) || signal.aborted) throw error
      const now = await this.reread(issue, commentId).catch(() => null)
      if (now?.state !== 'final') throw error
    }
    return { commentId, record: final }
  }

  /** Deletes a record's comment, once the dashboard lists its ending. */
  async delete(commentId: number, signal: AbortSignal): Promise<void> {
    try {
      await this.site.octokit.rest.issues.deleteComment({
        owner: this.site.owner,
        repo: this.site.repo,
        comment_id: commentId,
        request: { signal }
      })
    } catch (error) {
      // Gone already (another run deleted it): what was asked.
      if ((error as { status?: unknown }).status !== 404) throw error
    }
  }

  /**
   * Claims the telling of a record (or, `of` create, its queued create): a reaction on its comment,
   * which GitHub gives once per identity (201 the first time, 200 after): `claimed` when this run has
   * it; else another run (or this identity before) claimed it, at `since`. `reactionId` is the
   * claim's, to give it up.
   */
  async claim(commentId: number, signal: AbortSignal, of: keyof typeof CLAIMS = 'telling'): Promise<RecordClaim> {
    const answer = await this.site.octokit.rest.reactions.createForIssueComment({
      owner: this.site.owner,
      repo: this.site.repo,
      comment_id: commentId,
      content: CLAIMS[of],
      request: { signal }
    })
    const since = Date.parse(text(answer.data.created_at))
    return {
      claimed: answer.status === 201,
      since: Number.isFinite(since) ? since : Date.now(),
      reactionId: answer.data.id
    }
  }

  /** Gives up a claim: one left by a run that never finished, or a queued create's that was not sent. */
  async dropClaim(commentId: number, reactionId: number, signal: AbortSignal): Promise<void> {
    await this.site.octokit.rest.reactions.deleteForIssueComment({
      owner: this.site.owner,
      repo: this.site.repo,
      comment_id: commentId,
      reaction_id: reactionId,
      request: { signal }
    })
  }

  /** One comment of the index, read as a record: only the action's own are. */
  private async readComment(issue: number, entry: unknown): Promise<IndexedRecord | 'unverified' | 'none'> {
    const comment = asObject(entry)
    const id = comment.id
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) return 'none'
    const body = text(comment.body)
    const address = { key: this.site.key, place: this.site.place(issue), kind: 'index' as const, commentId: id }
    // Only the action's own comments are read as records: an outsider's (a collaborator's, on a locked index) is passed over.
    if (!(await this.site.isOurs(comment.user))) return body.includes('docs-agent-record:') ? 'unverified' : 'none'
    const found = readRecords(body, address)
    const record = found.records.at(-1)
    if (record) return { commentId: id, record }
    return found.unverified > 0 ? 'unverified' : 'none'
  }
}

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
