// The index of handed-over jobs: ONE issue labelled `docs-agent:jobs` ("Documentation jobs") that the
// action made and can prove it made: its body holds a marker signed for its own number, this GitHub,
// the repository and the project (index-marker.ts), written after the issue was made, and its author
// is the action's identity. Another labelled issue (a triager's label on a roadmap) is no index: it is
// named, never read. The body is the dashboard a person reads (index-dashboard.ts). Each job a run
// handed over is one signed record comment (github/signed-record.ts), so a copy, a forgery or another
// project's record names nothing here, and only the action's own comments are read at all; the issue
// is locked, so outsiders cannot comment. A record is written open (or queued), edited to final once
// its ending is told everywhere (finish), then leaves the index: the dashboard lists its ending and
// its comment is deleted (publish). A run cancelled in between leaves a final record, which the next
// reporting run lists (once: the list is keyed by the record's comment) and deletes. So the index
// holds what is open, and a reporting run's reads grow with that, not with the jobs told before.
import { isWrittenBy, readAuthor, type Author } from '../github/author.js'
import { asArray, asObject, text } from '../github/json-shape.js'
import { repositoryPath } from '../github/pull-request-ref.js'
import { readTwice } from '../github/read-again.js'
import { type GitHubReader, type ReadLimits } from '../github/reader.js'
import type { Octokit } from '../github/octokit.js'
import { neutralise } from '../safety/neutralise.js'
import { oneLineCodeSpan } from '../safety/quote-for-agent.js'
import { blankSecrets } from '../safety/run-secrets.js'
import { wordToldEnding } from '../ending/ending-words.js'
import {
  readRecords,
  signRecord,
  type RecordKey,
  type RecordPayload,
  type RecordPlace
} from '../github/signed-record.js'
import type { GitHubSession } from '../github/session.js'
import { dashboardBody, INDEX_BODY_MAKING, INDEX_TITLE } from './index-dashboard.js'
import {
  emptyIndexState,
  looksLikeIndex,
  MAX_RECENT,
  readIndexMarker,
  signIndexMarker,
  type IndexAddress,
  type IndexState,
  type OpenEntry,
  type RecentEntry
} from './index-marker.js'
import { mayHaveWritten } from '../github/write-failure.js'
import { writeTwice } from '../github/post-note.js'
import { randomUUID } from 'node:crypto'
import { log } from '../runtime/log.js'

export { INDEX_TITLE }
export const INDEX_LABEL = 'docs-agent:jobs'

/**
 * The index's reads: one listing of the labelled issues, then its comments, at most `maxPages` pages of
 * 100 (the open records; told ones leave), each request and all of them bounded.
 */
export const INDEX_READS = { maxPages: 100, requestMs: 10_000, totalMs: 60_000 } as const
const LIMITS: ReadLimits = {
  // The listing, the token's account, the pages of comments twice, the body, and a re-read of each record a run may tell.
  maxRequests: 4 + 2 * INDEX_READS.maxPages + 200,
  totalMs: INDEX_READS.totalMs,
  requestMs: INDEX_READS.requestMs,
  maxBodyBytes: 16 * 1024 * 1024
}

/** The most told records a run deletes: the rest leave with the next run. */
const MAX_DELETES = 100

/** An index made before the marker: found by its words and its author, and given a marker by the next run that keeps it. */
const EARLIER_BODY = 'The documentation agent action keeps one signed record per handed-over job here'

/** A handed-over job's record: where its ending goes, and how far it is (github/signed-record.ts). */
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
  /** Record comments that failed to verify, named another project or repository, or were not the action's. */
  ignored: number
  /** The index's state (its marker's), as read. */
  state: IndexState
  /** Other open issues with the label: not the index, never read. */
  others: number[]
  /** Whether the index issue is locked (outsiders cannot comment). */
  locked: boolean
}

/** Where the index is, as the listing showed it. */
interface Located {
  issue: number | null
  state: IndexState
  others: number[]
  locked: boolean
  /** The oldest open issue the action is making (or left half made): the index a maker uses when none is marked. */
  making?: number | null
}

/** An ending told everywhere, for the index's list (finish). */
export interface ToldEnding {
  /** The job's status at its end, or `unknown`. */
  status: string
  prLink: string | null
}

/** What a reporting run (or a hand-over) puts in the dashboard besides the endings it finished. */
export interface DashboardUpdate {
  /** The open jobs as this run read them; entries the body names past `readUpTo` (added meanwhile) are kept. */
  open?: OpenEntry[]
  /** The newest record comment this run's read of the index saw. */
  readUpTo?: number
  /** Entries to add to the open list (a hand-over's). */
  added?: OpenEntry[]
  cursor?: number
  workflow?: string | null
  on?: boolean
  switchable?: boolean
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
  private readonly repositoryUrl: string
  private author: Promise<Author> | null = null
  /** Endings this run finished, and final records it found, to list and delete at publish. */
  private readonly finished = new Map<number, RecentEntry>()

  constructor(index: {
    octokit: Octokit
    reader: GitHubReader
    key: RecordKey
    /** This GitHub's host, which each record's signature covers. */
    host: string
    /** `owner/name` of the repository the index issue is in. */
    repository: string
    projectId: string
    /** This GitHub's address, for the dashboard's links. */
    serverUrl?: string
  }) {
    ;({ octokit: this.octokit, reader: this.reader, key: this.key, host: this.host, projectId: this.projectId } = index)
    ;[this.owner, this.repo] = index.repository.split('/')
    this.repositoryUrl = `${(index.serverUrl ?? `https://${index.host}`).replace(/\/+$/, '')}/${index.repository}`
  }

  /** The index's issue; null when there is none yet. */
  async findIssue(): Promise<number | null> {
    return (await this.locate()).issue
  }

  /** The index's issue, made when there is none yet. */
  async findOrMakeIssue(signal: AbortSignal): Promise<number> {
    const found = await this.findIssue()
    return found ?? (await this.makeIssue(signal))
  }

  /**
   * Makes the index: the issue (its body says it is being made, with a mark only this run knows), then
   * its marker (signed for the issue's number), then its lock. An issue GitHub made despite its 5xx is
   * found again by that mark, never made twice. Before any marker is written, the labelled issues are
   * read again, and the index is the oldest the action made that is marked or being made: two runs
   * that made one each at once (or one that found an issue another run is making, or left half made)
   * use the same, so that no record is ever written where reporting runs do not read. The newer is
   * closed, and the older given its marker by whichever run gets there (the same empty state).
   */
  async makeIssue(signal: AbortSignal, state: IndexState = emptyIndexState()): Promise<number> {
    const mark = randomUUID()
    let issue: number
    try {
      const made = await this.octokit.rest.issues.create({
        owner: this.owner,
        repo: this.repo,
        title: INDEX_TITLE,
        body: makingBody(mark),
        labels: [INDEX_LABEL],
        request: { signal }
      })
      issue = made.data.number
    } catch (error) {
      const found = mayHaveWritten(error) && !signal.aborted ? await this.findMade(mark) : null
      if (found === null) throw error
      issue = found
    }
    const located = await this.locate()
    const kept = located.issue ?? located.making ?? issue
    if (kept !== issue) await this.closeLoser(issue, kept, signal)
    // Marked unless it is already (an index found, or marked meanwhile by the run that made it).
    if (located.issue !== kept && !(await this.isMarked(kept))) await this.writeMarker(kept, state, signal)
    await writeTwice(signal, (limited) => this.lock(kept, limited))
    return kept
  }

  /** The issue made with `mark` in its body (GitHub made it despite its error); null when there is none. */
  private async findMade(mark: string): Promise<number | null> {
    const path = `${this.repoPath()}/issues?labels=${encodeURIComponent(INDEX_LABEL)}&state=open&per_page=100`
    const listed = asArray(await this.reader.get(path, 'the issues labelled ' + INDEX_LABEL, 'issues: read')).map(
      asObject
    )
    const found = listed.find((issue) => text(issue.body) === makingBody(mark) && typeof issue.number === 'number')
    return found && (await this.isOurs(found.user)) ? (found.number as number) : null
  }

  /** Whether `issue`'s body holds a marker that verifies for it now. */
  private async isMarked(issue: number): Promise<boolean> {
    const got = asObject(
      await readTwice(this.reader, `${this.repoPath()}/issues/${issue}`, 'the index issue', 'issues: read')
    )
    return readIndexMarker(text(got.body), this.address(issue)) !== null
  }

  /** The marker written; an edit GitHub may have made despite its 5xx is read back, not taken as failed. */
  private async writeMarker(issue: number, state: IndexState, signal: AbortSignal): Promise<void> {
    try {
      await this.writeBody(issue, state, signal)
    } catch (error) {
      if (!mayHaveWritten(error) || signal.aborted || !(await this.isMarked(issue).catch(() => false))) throw error
    }
  }

  /** The issue this run made, closed: another is the index. A failure leaves it half made, which no run reads. */
  private async closeLoser(issue: number, kept: number, signal: AbortSignal): Promise<void> {
    try {
      await this.octokit.rest.issues.update({
        owner: this.owner,
        repo: this.repo,
        issue_number: issue,
        state: 'closed',
        body: `Another run made this index at the same time: the index is #${kept}.`,
        request: { signal }
      })
    } catch (error) {
      if (signal.aborted) throw error
      log.debug(`Could not close the index issue #${issue} this run made (the index is #${kept}): ${String(error)}`)
    }
  }

  /** Locks the index, so that only collaborators (and the workflow's identity) may comment. */
  async lock(issue: number, signal: AbortSignal): Promise<void> {
    await this.octokit.rest.issues.lock({
      owner: this.owner,
      repo: this.repo,
      issue_number: issue,
      request: { signal }
    })
  }

  /** Every record in the index's comments, oldest first, with the count of those that do not verify. */
  async read(): Promise<IndexRead> {
    const located = await this.locate()
    if (located.issue === null) return { ...located, records: [], ignored: 0 }
    return { ...located, ...(await this.readComments(located.issue)) }
  }

  /** The records in the comments of `issue` (the index, found already). */
  async readComments(issue: number): Promise<{ records: IndexedRecord[]; ignored: number }> {
    const records: IndexedRecord[] = []
    let ignored = 0
    const path = `${this.repoPath()}/issues/${issue}/comments`
    for (let page = 1; page <= INDEX_READS.maxPages; page++) {
      const comments = asArray(
        await this.reader.get(`${path}?per_page=100&page=${page}`, "the index's comments", 'issues: read')
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
      const entry = await this.reader.get(`${this.repoPath()}/issues/comments/${commentId}`, 'a record', 'issues: read')
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
      const posted = await this.octokit.rest.issues.createComment({
        owner: this.owner,
        repo: this.repo,
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
    const path = `${this.repoPath()}/issues/comments/${commentId}`
    const read = asObject(await this.reader.get(path, 'a record just written', 'issues: read'))
    return text(read.body) === body
  }

  /** The oldest comment since `since` that holds `marker` (a copy is never older); null when there is none. */
  private async findPosted(issue: number, marker: string, since: string): Promise<number | null> {
    const path = `${this.repoPath()}/issues/${issue}/comments?since=${encodeURIComponent(since)}&per_page=100`
    const listed = asArray(await this.reader.get(path, "the index's newest comments", 'issues: read')).map(asObject)
    const found = listed.find((comment) => text(comment.body).includes(marker))
    return typeof found?.id === 'number' ? found.id : null
  }

  /** Writes `record` into its comment, signed for it. */
  async write(issue: number, commentId: number, record: JobRecord, signal: AbortSignal): Promise<void> {
    await this.octokit.rest.issues.updateComment({
      owner: this.owner,
      repo: this.repo,
      comment_id: commentId,
      body: this.recordBody(issue, commentId, record),
      request: { signal }
    })
  }

  /** A record's comment body: its signed line, then its words. */
  private recordBody(issue: number, commentId: number, record: JobRecord): string {
    const signed = signRecord({ key: this.key, place: this.place(issue), kind: 'index', commentId }, record)
    return `${signed}\n${recordText(record)}`
  }

  /**
   * Finishes a record whose ending is told everywhere (the thread, the pull request, the commit): it
   * is marked final, with its ending, in one edit; the run's publish then lists the ending on the
   * dashboard and deletes the comment. A run cancelled before that leaves the final record, which the
   * next reporting run lists and deletes (listed once: the list is keyed by the record's comment).
   */
  async finish(issue: number, indexed: IndexedRecord, ending: ToldEnding, signal: AbortSignal): Promise<void> {
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
    this.sweep([{ commentId, record: final }])
  }

  /** Final records found in the index (a run cancelled before its publish): listed and deleted at publish. */
  sweep(finals: readonly IndexedRecord[]): void {
    for (const { commentId, record } of finals) {
      if (record.state !== 'final' || this.finished.has(commentId)) continue
      this.finished.set(commentId, {
        comment: commentId,
        job: record.job,
        status: record.told ?? 'ended',
        ...(record.prLink ? { prLink: record.prLink } : {}),
        ...(record.thread ? { thread: record.thread } : {}),
        ...(record.commit ? { commit: record.commit } : {}),
        at: new Date().toISOString()
      })
    }
  }

  /** How many finished records wait for publish. */
  get finishedCount(): number {
    return this.finished.size
  }

  /**
   * The dashboard edited (read just before, so that what a hand-over added meanwhile stays), then the
   * finished records deleted. Returns the state written. A failed edit throws before any delete: the
   * final records stay, and the next run lists and deletes them.
   */
  async publish(issue: number, update: DashboardUpdate, signal: AbortSignal): Promise<IndexState> {
    const { state: before, body } = await this.readBody(issue)
    const finishedIds = new Set(this.finished.keys())
    const recent = [...this.finished.values(), ...before.recent.filter((e) => !finishedIds.has(e.comment))]
      .sort((a, b) => (b.at > a.at ? 1 : b.at < a.at ? -1 : b.comment - a.comment))
      .slice(0, MAX_RECENT)
    const told = new Set([...finishedIds, ...recent.map((e) => e.comment)])
    let open = before.open
    if (update.open) {
      const newest = Math.max(update.readUpTo ?? 0, ...update.open.map((e) => e.comment))
      const readIds = new Set(update.open.map((e) => e.comment))
      open = [...update.open, ...before.open.filter((e) => e.comment > newest && !readIds.has(e.comment))]
    }
    if (update.added)
      open = [...open.filter((e) => !update.added?.some((a) => a.comment === e.comment)), ...update.added]
    open = open.filter((e) => !told.has(e.comment)).sort((a, b) => a.comment - b.comment)
    const state: IndexState = {
      workflow: update.workflow !== undefined ? update.workflow : before.workflow,
      on: update.on ?? before.on,
      switchable: update.switchable ?? before.switchable,
      cursor: update.cursor ?? before.cursor,
      open,
      recent
    }
    const next = this.bodyOf(issue, state)
    if (next !== body) await this.patchBody(issue, next, signal)
    let deleted = 0
    for (const comment of finishedIds) {
      if (deleted++ >= MAX_DELETES) break
      await this.deleteRecord(comment, signal)
      this.finished.delete(comment)
    }
    return state
  }

  /** The index's state as its body holds it now (an index made before the marker reads as empty). */
  async readState(issue: number): Promise<IndexState> {
    return (await this.readBody(issue)).state
  }

  private async readBody(issue: number): Promise<{ state: IndexState; body: string }> {
    // Read twice on a 502: a hand-over that cannot read whether the reporting workflow is off cannot turn it on.
    const got = asObject(
      await readTwice(this.reader, `${this.repoPath()}/issues/${issue}`, 'the index issue', 'issues: read')
    )
    const body = text(got.body)
    return { body, state: readIndexMarker(body, this.address(issue)) ?? emptyIndexState() }
  }

  private bodyOf(issue: number, state: IndexState): string {
    return dashboardBody(state, signIndexMarker(this.address(issue), state), { repositoryUrl: this.repositoryUrl })
  }

  private async writeBody(issue: number, state: IndexState, signal: AbortSignal): Promise<void> {
    await this.patchBody(issue, this.bodyOf(issue, state), signal)
  }

  private async patchBody(issue: number, body: string, signal: AbortSignal): Promise<void> {
    await this.octokit.rest.issues.update({
      owner: this.owner,
      repo: this.repo,
      issue_number: issue,
      body: blankSecrets(body),
      request: { signal }
    })
  }

  private async deleteRecord(commentId: number, signal: AbortSignal): Promise<void> {
    try {
      await this.octokit.rest.issues.deleteComment({
        owner: this.owner,
        repo: this.repo,
        comment_id: commentId,
        request: { signal }
      })
    } catch (error) {
      // Gone already (another run deleted it): what was asked.
      if ((error as { status?: unknown }).status !== 404) throw error
    }
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

  /**
   * The index among the open labelled issues: the oldest whose marker verifies for its own number and
   * that the action's identity opened (or, with none, the oldest the action made before markers); the
   * others are named, never read.
   */
  private async locate(): Promise<Located> {
    const path = `${this.repoPath()}/issues?labels=${encodeURIComponent(INDEX_LABEL)}&state=open&per_page=100`
    const listed = asArray(await this.reader.get(path, 'the issues labelled ' + INDEX_LABEL, 'issues: read'))
      .map(asObject)
      .filter((issue) => issue.pull_request === undefined && typeof issue.number === 'number')
      .sort((a, b) => (a.number as number) - (b.number as number))
    let found: Located | null = null
    let earlier: Located | null = null
    let making: number | null = null
    const others: number[] = []
    for (const issue of listed) {
      const number = issue.number as number
      const body = text(issue.body)
      const state: IndexState | null = found ? null : readIndexMarker(body, this.address(number))
      const locked = issue.locked === true
      if (state && (await this.isOurs(issue.user))) found = { issue: number, state, others, locked }
      else if (
        making === null &&
        isMaking(body) &&
        text(issue.title) === INDEX_TITLE &&
        (await this.isOurs(issue.user))
      ) {
        making = number
        others.push(number)
      } else if (
        !found &&
        !earlier &&
        !looksLikeIndex(body) &&
        body.startsWith(EARLIER_BODY) &&
        text(issue.title) === INDEX_TITLE &&
        (await this.isOurs(issue.user))
      ) {
        earlier = { issue: number, state: emptyIndexState(), others, locked }
      } else others.push(number)
    }
    const index = found ?? earlier
    if (found && earlier?.issue) others.push(earlier.issue)
    if (index) return { ...index, others: others.filter((n) => n !== index.issue).sort((a, b) => a - b), making }
    return { issue: null, state: emptyIndexState(), others, locked: false, making }
  }

  /** Whether `user` is the account the action writes as (one GET /user, at the first need). */
  private async isOurs(user: unknown): Promise<boolean> {
    this.author ??= readAuthor(() => this.reader.get('/user', "the token's account", 'metadata: read'))
    return isWrittenBy(await this.author, user)
  }

  private async readComment(issue: number, entry: unknown): Promise<IndexedRecord | 'unverified' | 'none'> {
    const comment = asObject(entry)
    const id = comment.id
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) return 'none'
    const body = text(comment.body)
    const address = { key: this.key, place: this.place(issue), kind: 'index' as const, commentId: id }
    // Only the action's own comments are read as records: an outsider's (a collaborator's, on a locked index) is passed over.
    if (!(await this.isOurs(comment.user))) return body.includes('docs-agent-record:') ? 'unverified' : 'none'
    const found = readRecords(body, address)
    const record = found.records.at(-1)
    if (record) return { commentId: id, record }
    return found.unverified > 0 ? 'unverified' : 'none'
  }

  private address(issue: number): IndexAddress {
    return {
      key: this.key,
      host: this.host,
      repository: `${this.owner}/${this.repo}`,
      issue,
      projectId: this.projectId
    }
  }

  private place(issue: number): RecordPlace {
    return { host: this.host, thread: { owner: this.owner, repo: this.repo, number: issue }, projectId: this.projectId }
  }

  private repoPath(): string {
    return repositoryPath({ owner: this.owner, repo: this.repo })
  }
}

/** An index's body while it is made: the words, and a mark only its maker knows (to find it after a 5xx). */
function makingBody(mark: string): string {
  return `${INDEX_BODY_MAKING}\n<!-- docs-agent-index-making: ${mark} -->`
}

/** Whether `body` is an index's while it is made (before the marker was written; the older form had no mark). */
function isMaking(body: string): boolean {
  if (body === INDEX_BODY_MAKING) return true
  const rest = body.startsWith(`${INDEX_BODY_MAKING}\n`) ? body.slice(INDEX_BODY_MAKING.length + 1) : ''
  return /^<!-- docs-agent-index-making: [0-9a-f-]{36} -->$/.test(rest)
}

/** The reaction that claims a record's telling. */
const CLAIM = 'rocket'

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
