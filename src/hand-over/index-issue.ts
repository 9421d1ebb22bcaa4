// The index's issue: ONE issue labelled `docs-agent:jobs` ("Documentation jobs") that the action made
// and can prove it made: its body holds a marker signed for its own number, this GitHub, the
// repository and the project (index-marker.ts), written after the issue was made, and its author is
// the action's identity. Another labelled issue (a triager's label on a roadmap) is no index: it is
// named, never read. Here it is found among the labelled issues, made (once, whatever GitHub answers,
// and one index for two runs that make one at once), and locked, so outsiders cannot comment.
import { asArray, asObject, text } from '../github/json-shape.js'
import { writeTwice } from '../github/post-note.js'
import { mayHaveWritten } from '../github/write-failure.js'
import { log } from '../runtime/log.js'
import { randomUUID } from 'node:crypto'
import type { IndexBody } from './index-body.js'
import { INDEX_BODY_MAKING, INDEX_TITLE } from './index-dashboard.js'
import { emptyIndexState, looksLikeIndex, readIndexMarker, type IndexState } from './index-marker.js'
import type { IndexSite } from './index-site.js'

export const INDEX_LABEL = 'docs-agent:jobs'

/** An index made before the marker: found by its words and its author, and given a marker by the next run that keeps it. */
const EARLIER_BODY = 'The documentation agent action keeps one signed record per handed-over job here'

/** Where the index is, as the listing showed it. */
export interface Located {
  issue: number | null
  state: IndexState
  others: number[]
  locked: boolean
  /** The oldest open issue the action is making (or left half made): the index a maker uses when none is marked. */
  making?: number | null
}

/** The issue of one index: found, made, locked. */
export class IndexIssue {
  constructor(
    private readonly site: IndexSite,
    private readonly body: IndexBody
  ) {}

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
      const made = await this.site.octokit.rest.issues.create({
        owner: this.site.owner,
        repo: this.site.repo,
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
    if (located.issue !== kept && !(await this.body.isMarked(kept))) await this.body.writeMarker(kept, state, signal)
    await writeTwice(signal, (limited) => this.lock(kept, limited))
    return kept
  }

  /** The issue made with `mark` in its body (GitHub made it despite its error); null when there is none. */
  private async findMade(mark: string): Promise<number | null> {
    const path = `${this.site.repoPath()}/issues?labels=${encodeURIComponent(INDEX_LABEL)}&state=open&per_page=100`
    const listed = asArray(await this.site.reader.get(path, 'the issues labelled ' + INDEX_LABEL, 'issues: read')).map(
      asObject
    )
    const found = listed.find((issue) => text(issue.body) === makingBody(mark) && typeof issue.number === 'number')
    return found && (await this.site.isOurs(found.user)) ? (found.number as number) : null
  }

  /** The issue this run made, closed: another is the index. A failure leaves it half made, which no run reads. */
  private async closeLoser(issue: number, kept: number, signal: AbortSignal): Promise<void> {
    try {
      await this.site.octokit.rest.issues.update({
        owner: this.site.owner,
        repo: this.site.repo,
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
    await this.site.octokit.rest.issues.lock({
      owner: this.site.owner,
      repo: this.site.repo,
      issue_number: issue,
      request: { signal }
    })
  }

  /**
   * The index among the open labelled issues: the oldest whose marker verifies for its own number and
   * that the action's identity opened (or, with none, the oldest the action made before markers); the
   * others are named, never read.
   */
  async locate(): Promise<Located> {
    const path = `${this.site.repoPath()}/issues?labels=${encodeURIComponent(INDEX_LABEL)}&state=open&per_page=100`
    const listed = asArray(await this.site.reader.get(path, 'the issues labelled ' + INDEX_LABEL, 'issues: read'))
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
      const state: IndexState | null = found ? null : readIndexMarker(body, this.site.address(number))
      const locked = issue.locked === true
      if (state && (await this.site.isOurs(issue.user))) found = { issue: number, state, others, locked }
      else if (
        making === null &&
        isMaking(body) &&
        text(issue.title) === INDEX_TITLE &&
        (await this.site.isOurs(issue.user))
      ) {
        making = number
        others.push(number)
      } else if (
        !found &&
        !earlier &&
        !looksLikeIndex(body) &&
        body.startsWith(EARLIER_BODY) &&
        text(issue.title) === INDEX_TITLE &&
        (await this.site.isOurs(issue.user))
      ) {
        earlier = { issue: number, state: emptyIndexState(), others, locked }
      } else others.push(number)
    }
    const index = found ?? earlier
    if (found && earlier?.issue) others.push(earlier.issue)
    if (index) return { ...index, others: others.filter((n) => n !== index.issue).sort((a, b) => a - b), making }
    return { issue: null, state: emptyIndexState(), others, locked: false, making }
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
