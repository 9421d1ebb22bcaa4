// The index issue's body: the dashboard a person reads (index-dashboard.ts) over the index's state,
// signed for the issue's number in its marker (index-marker.ts). Read (twice on a 502) for the state,
// written with the marker when the index is made, and published at a run's end: the endings this run
// finished (and final records it found) listed, what a hand-over added meanwhile kept, then the
// finished records deleted (index-records.ts). A run cancelled before its publish leaves final
// records, which the next reporting run lists (once: the list is keyed by the record's comment) and
// deletes; so the index holds what is open.
import { asObject, text } from '../github/json-shape.js'
import { readTwice } from '../github/read-again.js'
import { mayHaveWritten } from '../github/write-failure.js'
import { blankSecrets } from '../safety/run-secrets.js'
import { dashboardBody } from './index-dashboard.js'
import {
  emptyIndexState,
  MAX_RECENT,
  readIndexMarker,
  signIndexMarker,
  type IndexState,
  type OpenEntry,
  type RecentEntry
} from './index-marker.js'
import type { IndexedRecord, IndexRecords } from './index-records.js'
import type { IndexSite } from './index-site.js'

/** The most told records a run deletes: the rest leave with the next run. */
const MAX_DELETES = 100

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

/** The body of one index, and the endings this run lists there at publish. */
export class IndexBody {
  /** Endings this run finished, and final records it found, to list and delete at publish. */
  private readonly finished = new Map<number, RecentEntry>()

  constructor(
    private readonly site: IndexSite,
    private readonly records: IndexRecords
  ) {}

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
      await this.records.delete(comment, signal)
      this.finished.delete(comment)
    }
    return state
  }

  /** The index's state as its body holds it now (an index made before the marker reads as empty). */
  async readState(issue: number): Promise<IndexState> {
    return (await this.readBody(issue)).state
  }

  /** The body as it is now, and the state its marker holds. */
  private async readBody(issue: number): Promise<{ state: IndexState; body: string }> {
    // Read twice on a 502: a hand-over that cannot read whether the reporting workflow is off cannot turn it on.
    const got = asObject(
      await readTwice(this.site.reader, `${this.site.repoPath()}/issues/${issue}`, 'the index issue', 'issues: read')
    )
    const body = text(got.body)
    return { body, state: readIndexMarker(body, this.site.address(issue)) ?? emptyIndexState() }
  }

  /** Whether `issue`'s body holds a marker that verifies for it now. */
  async isMarked(issue: number): Promise<boolean> {
    const got = asObject(
      await readTwice(this.site.reader, `${this.site.repoPath()}/issues/${issue}`, 'the index issue', 'issues: read')
    )
    return readIndexMarker(text(got.body), this.site.address(issue)) !== null
  }

  /** The marker written; an edit GitHub may have made despite its 5xx is read back, not taken as failed. */
  async writeMarker(issue: number, state: IndexState, signal: AbortSignal): Promise<void> {
    try {
      await this.writeBody(issue, state, signal)
    } catch (error) {
      if (!mayHaveWritten(error) || signal.aborted || !(await this.isMarked(issue).catch(() => false))) throw error
    }
  }

  private bodyOf(issue: number, state: IndexState): string {
    return dashboardBody(state, signIndexMarker(this.site.address(issue), state), {
      repositoryUrl: this.site.repositoryUrl
    })
  }

  private async writeBody(issue: number, state: IndexState, signal: AbortSignal): Promise<void> {
    await this.patchBody(issue, this.bodyOf(issue, state), signal)
  }

  private async patchBody(issue: number, body: string, signal: AbortSignal): Promise<void> {
    await this.site.octokit.rest.issues.update({
      owner: this.site.owner,
      repo: this.site.repo,
      issue_number: issue,
      body: blankSecrets(body),
      request: { signal }
    })
  }
}
