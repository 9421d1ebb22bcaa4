// One wording of a failed GitHub write, for every write a run makes (a reply, a note, a label, a
// record, a commit status): what GitHub answered, and for a refusal the permission the workflow needs
// for that write. Never the token, should a server echo it: GitHub's words are neutralised and cut.
import { failureClause, ReadFailure } from './read-failure.js'
import { neutralise } from '../safety/neutralise.js'

/** Who writes, and what a refusal of this write means. */
export interface WriteAccess {
  /** The token's input (githubToken), named in the sentence. */
  tokenInput: string
  /** The permissions the workflow needs for this write, as its permissions block names them. */
  needs: string
}

/** Why a write to GitHub failed, as a sentence (or the clause of a read it needed first). */
export function describeWriteFailure(error: unknown, { tokenInput, needs }: WriteAccess): string {
  if (error instanceof ReadFailure) return `${failureClause(error, tokenInput)}.`
  const { name, status, response, message } = error as {
    name?: unknown
    status?: unknown
    response?: unknown
    message?: unknown
  }
  const said = neutralise(typeof message === 'string' ? message : String(error), 200)
  if (typeof status !== 'number') return `${said}.`
  // Octokit reports a request that got no answer as status 500 without a response.
  if (name === 'HttpError' && !response) return `no answer from GitHub (${said}).`
  if (status === 401) {
    return `HTTP 401 (${said}). GitHub rejected ${tokenInput}: leave it at its default, \${{ github.token }}, or pass a token that is still valid.`
  }
  if (status === 403 || status === 404) {
    return `HTTP ${status} (${said}). Check that ${tokenInput} may write there: the workflow needs ${needs} in its permissions block.`
  }
  return `HTTP ${status} (${said}).`
}

/**
 * Whether GitHub may have made a write that failed: it gave no answer (a time limit, a reset), or
 * answered with its own trouble (5xx), which it may give after the write was done. Such a write is
 * read back (or looked for) before it is made again; a refusal (4xx) made nothing.
 */
export function mayHaveWritten(error: unknown): boolean {
  const { status, response } = error as { status?: unknown; response?: unknown }
  return response === undefined || (typeof status === 'number' && status >= 500)
}
