// A read from GitHub's API that gave nothing usable, and how to say so. Every such read ends the
// same way for the run (the context falls back to what the event carries), so the words are all
// that differ: which permission is missing, or what else the user can do.

/** The permission a read needs from the workflow's `permissions` block. */
export type Permission =
  'actions: read' | 'contents: read' | 'pull-requests: read' | 'issues: read' | 'metadata: read' | 'statuses: read'

export type ReadFailureKind =
  | 'unauthorized' // 401: the token is not valid
  | 'forbidden' // 403: the token lacks the permission
  | 'rate-limited' // 403 or 429 with the rate limit used up
  | 'not-found' // 404: no access to a private repository, no such commit, or no such endpoint (GHES)
  | 'unprocessable' // 422: e.g. a commit no longer in the branch's history
  | 'server' // any other status
  | 'malformed' // a 2xx whose body is not the JSON expected
  | 'timeout' // no answer within the per-request or the total limit
  | 'unreachable' // no HTTP answer at all
  | 'cancelled' // the step's deadline or a cancel
  | 'no-budget' // the requests allowed before the create are used up
  | 'no-token' // the githubToken input is empty

/** What GitHub answered, when it did, and a few words on what happened. */
export interface ReadAnswer {
  /** The HTTP status, when there was an answer. */
  status?: number
  /** A few words on a network failure or a time limit, e.g. "the connection was refused". */
  detail?: string
}

export class ReadFailure extends Error {
  override name = 'ReadFailure'
  readonly status?: number
  readonly detail?: string
  constructor(
    readonly kind: ReadFailureKind,
    /** What was being read, as a phrase: "the workflow's earlier runs". Holds no outside text. */
    readonly what: string,
    readonly permission: Permission,
    { status, detail }: ReadAnswer = {}
  ) {
    super(`${what}: ${kind}${status ? ` (HTTP ${status})` : ''}`)
    this.status = status
    this.detail = detail
  }

  /** Whether reading on is pointless: every further request would fail the same way, or wait as long. */
  get stopsReading(): boolean {
    return ['unauthorized', 'rate-limited', 'timeout', 'unreachable', 'cancelled', 'no-budget', 'no-token'].includes(
      this.kind
    )
  }
}

/** One clause per failure: what could not be read, and why or what to do. */
export function failureClause(failure: ReadFailure, tokenInput: string): string {
  const { what, permission, status, detail } = failure
  switch (failure.kind) {
    case 'unauthorized':
      return `${what}: GitHub rejected ${tokenInput} (HTTP 401); leave it at its default, \${{ github.token }}, or pass a valid token`
    case 'forbidden':
      return `${what}: the token lacks "${permission}" (HTTP 403); add "${permission}" to the workflow's permissions`
    case 'rate-limited':
      return `${what}: GitHub's API rate limit is used up (HTTP ${status}); the next run reads it again`
    case 'not-found':
      return `${what}: GitHub answered HTTP 404; the token may lack "${permission}" (a private repository then answers 404), or this GitHub Enterprise Server has no such endpoint`
    case 'unprocessable':
      return `${what}: GitHub answered HTTP 422; a commit of the range is no longer in the branch's history (force-pushed away?)`
    case 'server':
      return `${what}: GitHub's API answered HTTP ${status}`
    case 'malformed':
      return `${what}: GitHub's answer could not be read (${detail ?? 'not the JSON expected'})`
    case 'timeout':
      return `${what}: no answer ${detail ?? 'in time'}`
    case 'unreachable':
      return `${what}: GitHub's API could not be reached (${detail ?? 'no answer'}); check GITHUB_API_URL and any proxy setting`
    case 'cancelled':
      return `${what}: the run was ending (its timeout ran out, or it was cancelled)`
    case 'no-token':
      return `${what}: not read, as ${tokenInput} is empty; leave it at its default, \${{ github.token }}`
    case 'no-budget':
      return `${what}: not read, to keep the create from waiting (at most ${detail ?? 'a few'} GitHub requests before it)`
  }
}

/**
 * The one warning for all the reads that failed while gathering the context, and what the context
 * holds instead (`instead`, a sentence).
 */
export function failuresWarning(failures: readonly ReadFailure[], instead: string, tokenInput: string): string {
  const clauses = failures.map((failure) => failureClause(failure, tokenInput))
  return `The context for the agent could not be read in full from GitHub. ${upperFirst(clauses.join('; '))}. ${instead} The job is created all the same.`
}

function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
