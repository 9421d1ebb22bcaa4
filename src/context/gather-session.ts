// One gathering of the context: the request it answers, the GitHub reads it made and those that
// failed, and the notices for the log. The event gatherers share it.
import type { ChangeFacts } from './facts.js'
import { repositoryPath } from '../github/pull-request-ref.js'
import type { Runner } from '../github/runner.js'
import type { GitHubSession } from '../github/session.js'
import { GitHubReader } from '../github/reader.js'
import { oneLineCodeSpan } from '../safety/quote-for-agent.js'
import { ReadFailure, type Permission } from '../github/read-failure.js'

/** Everything the context is gathered from: the settings given, and the run's event (github/event.ts). */
export interface ChangeContextRequest extends Omit<Runner, 'eventFile'> {
  /** `changes`, or `diff` for the diff hunks too. */
  detail: 'changes' | 'diff'
  /** The most characters the section may take. */
  limit: number
  /** The run's GitHub session (github/session.ts): its token (empty to read nothing) and a reader within the context's limits. */
  github: Pick<GitHubSession, 'token' | 'reader'>
  /** In a comment-triggered run the comment is the request: the section says who asked it. */
  promptFromComment?: boolean
  /** The step's deadline and cancel: gathering stops at once when it fires. */
  signal?: AbortSignal
  /** The most time the reads may take, when the step's timeout leaves them less than the usual limit. */
  maxMs?: number
  /**
   * A group's mark: the last commit whose changes the group's job was given. A push or a pull
   * request then tells of the changes since it, instead of since the last successful run.
   */
  since?: string
}

/** What an event gatherer found. */
export interface Gathered {
  /** Null when there is nothing to tell (a deleted branch). */
  facts: ChangeFacts | null
  /** When a read failed: what the context holds instead, as a sentence for the warning. */
  instead?: string
  /** The event asks for no job at all (a push that deleted a branch); the notice says why. */
  startsNothing?: boolean
  /** With a group's mark (`since`): whether the facts tell of every change since it (see SinceCover). */
  since?: SinceCover
}

/**
 * What the context tells of the changes since a group's mark: `covered`, all of them (the comparison
 * from the mark was read); `gone`, the mark is no longer in the history (force-pushed away), so the
 * facts tell of what the event has, which is all there is to tell; `unread`, the comparison could not
 * be read, so the facts tell less than the job has not been told of.
 */
export type SinceCover = 'covered' | 'gone' | 'unread'

export class Gathering {
  readonly failures: ReadFailure[] = []
  readonly notices: string[] = []
  /** `/repos/owner/name`, for the API paths. */
  readonly repoPath: string

  constructor(
    readonly request: ChangeContextRequest,
    /** Null when nothing may be read: no token, or no usable API address. */
    private readonly reader: GitHubReader | null,
    /** Why the reader is null: recorded as the failure of the first read asked for. */
    private readonly noReader: (what: string, permission: Permission) => ReadFailure
  ) {
    const [owner, name] = request.repository.split('/')
    this.repoPath = repositoryPath({ owner, repo: name })
  }

  get requests(): number {
    return this.reader?.requests ?? 0
  }

  /** Whether one more read may be tried: within the count and the time, and none gave up on GitHub. */
  get canRead(): boolean {
    if (this.failures.some((failure) => failure.stopsReading)) return false
    return this.reader === null || this.reader.canRead
  }

  /** Reads without recording a failure: the caller decides what a failure means. */
  async tryRead(path: string, what: string, permission: Permission): Promise<unknown> {
    if (!this.reader) return this.noReader(what, permission)
    try {
      return await this.reader.get(`${this.repoPath}${path}`, what, permission)
    } catch (error) {
      if (error instanceof ReadFailure) return error
      throw error
    }
  }

  /** Reads, and records a failure for the warning; undefined when the read failed. */
  async read(path: string, what: string, permission: Permission): Promise<unknown> {
    const answer = await this.tryRead(path, what, permission)
    if (answer instanceof ReadFailure) {
      this.fail(answer)
      return undefined
    }
    return answer
  }

  fail(failure: ReadFailure): void {
    // A missing token or address is said once, however many reads it stopped.
    if (!this.reader && this.failures.length > 0) return
    this.failures.push(failure)
  }

  /** A page on the server, `owner/name/...`. */
  link(path: string): string {
    return `${this.request.serverUrl.replace(/\/+$/, '')}/${this.request.repository}/${path}`
  }

  /**
   * A page whose address carries a branch or tag name, in a code span like the name itself: a path
   * segment keeps the name's letters, so a bare link would let its words stand outside the quoting.
   */
  namedLink(path: string): string {
    return oneLineCodeSpan(this.link(path), Number.MAX_SAFE_INTEGER)
  }
}

/**
 * A branch or tag name for a path segment: slashes stay, everything else is encoded. Its letters stay
 * readable: a link that carries one is a `namedLink`.
 */
export function refSegment(ref: string): string {
  return encodeURIComponent(ref).replace(/%2F/g, '/')
}

export function shortSha(id: string): string {
  return /^[0-9a-f]{40,64}$/.test(id) ? id.slice(0, 7) : id
}
