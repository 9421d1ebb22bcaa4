import { parseBoundedJson, type JsonBounds } from '../safety/bounded-json.js'
import { timeLimit, type TimeLimit } from '../runtime/deadline.js'
import { HttpClient, NetworkError } from '../net/http.js'
import { ReadFailure, type Permission } from './read-failure.js'
import { noteGitHubAnswered, noteGitHubSilent } from './silence.js'

/** How much reading the context may cost the create: it waits for all of it. */
export interface ReadLimits {
  /** GitHub requests before the create, whatever the event. */
  maxRequests: number
  /** All of the reading, start to end (cut to the step's share for it, see contextBudgetMs). */
  totalMs: number
  /** One request, connection to last byte. */
  requestMs: number
  /** The most of one answer that is read; a compare with 300 files and their diffs runs to a few MB. */
  maxBodyBytes: number
}

/**
 * The context's reads from GitHub, before the create: a few requests at most (the context is worth a
 * few, never a crawl of the API), all of them within `totalMs` (and within their share of the time
 * left: contextBudgetMs), one read within `requestMs` (a stalled API costs one read's time, then the
 * event is what is told), so that a short timeout or a stalled GitHub API costs the context, never the job.
 */
export const READ_LIMITS: ReadLimits = {
  maxRequests: 3,
  totalMs: 10_000,
  requestMs: 5_000,
  maxBodyBytes: 16 * 1024 * 1024
}

/** No answer the context reads nests past 8 or holds more than a few thousand arrays and objects. */
const ANSWER_SHAPE: JsonBounds = { maxDepth: 32, maxContainers: 100_000 }

const TIMEOUT_CODES = new Set([
  'REQUEST_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT'
])

/**
 * Reads GitHub's REST API for the context, within a count of requests and a time limit. The token
 * goes to the API's own origin and nowhere else: no redirect is followed, and no address found in an
 * answer is ever requested.
 */
export class GitHubReader {
  /** Requests sent so far. */
  requests = 0
  private readonly client: HttpClient
  private readonly totalLimit: TimeLimit
  private readonly totalTimeUp: AbortSignal
  private readonly signal: AbortSignal

  constructor(
    private readonly apiUrl: string,
    private readonly token: string,
    private readonly limits: ReadLimits = READ_LIMITS,
    /** The step's deadline and cancel: reading never outlives it. */
    private readonly stepSignal?: AbortSignal
  ) {
    const { requestMs, maxBodyBytes } = limits
    this.client = new HttpClient(new URL(apiUrl).origin, {
      connectTimeoutMs: requestMs,
      headersTimeoutMs: requestMs,
      bodyTimeoutMs: requestMs,
      requestTimeoutMs: requestMs,
      maxBodyBytes
    })
    // The reader holds the limit itself (see timeLimit): a combined signal alone may lose its timer.
    this.totalLimit = timeLimit(limits.totalMs)
    this.totalTimeUp = this.totalLimit.signal
    this.signal = stepSignal ? AbortSignal.any([stepSignal, this.totalTimeUp]) : this.totalTimeUp
  }

  /** Whether one more request may be sent. */
  get canRead(): boolean {
    return this.requests < this.limits.maxRequests && !this.signal.aborted && this.limits.totalMs > 0
  }

  /**
   * GETs `path` (below the API's address, with its query) and returns the parsed JSON.
   * @throws ReadFailure, and nothing else
   */
  async get(path: string, what: string, permission: Permission): Promise<unknown> {
    return (await this.read(path, what, permission)).value
  }

  /**
   * GETs one page of a list (`path` with its `page` and `per_page`) and returns it with the number of
   * the list's last page, from the `Link` header's `rel="last"` (null when it names none: the only or
   * the last page). Only the number is taken from the header: no address found in an answer is requested.
   * @throws ReadFailure, and nothing else
   */
  async getPage(
    path: string,
    what: string,
    permission: Permission
  ): Promise<{ items: unknown; lastPage: number | null }> {
    const { value, headers } = await this.read(path, what, permission)
    const link = headers.link
    return { items: value, lastPage: lastPageOf(Array.isArray(link) ? link.join(', ') : (link ?? '')) }
  }

  private async read(
    path: string,
    what: string,
    permission: Permission
  ): Promise<{ value: unknown; headers: Record<string, string | string[] | undefined> }> {
    if (this.stepSignal?.aborted) throw new ReadFailure('cancelled', what, permission)
    if (this.totalTimeUp.aborted || this.limits.totalMs <= 0) throw this.timeUp(what, permission)
    if (this.requests >= this.limits.maxRequests) {
      throw new ReadFailure('no-budget', what, permission, { detail: String(this.limits.maxRequests) })
    }
    this.requests++
    let response
    try {
      response = await this.client.send('GET', `${this.apiUrl.replace(/\/+$/, '')}${path}`, {
        headers: {
          accept: 'application/vnd.github+json',
          authorization: `Bearer ${this.token}`,
          'x-github-api-version': '2022-11-28'
        },
        signal: this.signal
      })
    } catch (error) {
      if (this.stepSignal?.aborted) throw new ReadFailure('cancelled', what, permission)
      // No answer within a limit: the run's ending does not wait for GitHub again (silence.ts).
      if (this.totalTimeUp.aborted) {
        noteGitHubSilent()
        throw this.timeUp(what, permission)
      }
      if (error instanceof NetworkError && TIMEOUT_CODES.has(error.code)) {
        noteGitHubSilent()
        throw new ReadFailure('timeout', what, permission, { detail: `within ${seconds(this.limits.requestMs)}` })
      }
      const detail = error instanceof NetworkError ? error.message : 'the request failed'
      throw new ReadFailure('unreachable', what, permission, { detail })
    }
    noteGitHubAnswered()
    const { status, headers, body } = response
    if (status >= 200 && status < 300) {
      if (response.truncated) {
        const detail = `over ${Math.round(this.limits.maxBodyBytes / 1024 / 1024)} MB`
        throw new ReadFailure('malformed', what, permission, { status, detail })
      }
      // Counted before it is parsed: a hostile answer costs one pass over its text, not a gigabyte.
      const parsed = parseBoundedJson(body, ANSWER_SHAPE)
      if ('refused' in parsed) throw new ReadFailure('malformed', what, permission, { status, detail: parsed.refused })
      return { value: parsed.value, headers }
    }
    throw new ReadFailure(failureKind(status, headers, body), what, permission, { status })
  }

  async close(): Promise<void> {
    this.totalLimit.clear()
    await this.client.close()
  }

  private timeUp(what: string, permission: Permission): ReadFailure {
    const detail =
      this.limits.totalMs > 0
        ? `within ${seconds(this.limits.totalMs)}, the most the context may hold up the create`
        : "in time: the step's timeout left none for the context"
    return new ReadFailure('timeout', what, permission, { detail })
  }
}

function failureKind(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  body: string
): ReadFailure['kind'] {
  if (status === 429) return 'rate-limited'
  if (status === 403) {
    // GitHub says a rate limit was hit with a 403 and either the header or the message.
    const outOfRequests = String(headers['x-ratelimit-remaining'] ?? '') === '0'
    return outOfRequests || /rate limit/i.test(body) ? 'rate-limited' : 'forbidden'
  }
  if (status === 401) return 'unauthorized'
  if (status === 404) return 'not-found'
  if (status === 422) return 'unprocessable'
  return 'server'
}

/** The page number of a `Link` header's `rel="last"` address (its `page` parameter), or null. */
export function lastPageOf(link: string): number | null {
  for (const part of link.split(',')) {
    const found = /^\s*<([^>]*)>\s*;(.*)$/.exec(part)
    if (!found || !/\brel="?([^"]*\s)?last(\s[^"]*)?"?/.test(found[2])) continue
    const page = /[?&]page=([1-9][0-9]{0,8})(?:&|$)/.exec(found[1])
    return page ? Number(page[1]) : null
  }
  return null
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`
}

/** Why GITHUB_API_URL cannot be read from: the token is sent nowhere else. */
export const UNUSABLE_API_URL = 'GITHUB_API_URL is not an http(s) address without credentials, query or fragment'

/**
 * A reader of GitHub's API at `apiUrl` (the runner's: GITHUB_API_URL, or github.com's), or null when it is
 * not an address the token may go to: http(s), without credentials, query or fragment.
 */
export function openGitHubReader(
  apiUrl: string,
  token: string,
  limits: ReadLimits,
  signal?: AbortSignal
): GitHubReader | null {
  let url: URL
  try {
    url = new URL(apiUrl)
  } catch {
    return null
  }
  if (!/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash) return null
  return new GitHubReader(url.href, token, limits, signal)
}
