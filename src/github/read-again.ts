// Which failed reads are worth one more try (and readTwice, the read that gives them it): GitHub's
// own error (a 502 from its load balancer), an answer garbled on the way, or a connection that
// failed. A missing permission, a 404, a rate limit or a read that took its whole time limit would
// fail the same way again, or cost as long again.
import { ReadFailure, type Permission } from './read-failure.js'
import type { GitHubReader } from './reader.js'

const ONCE_MORE = new Set<ReadFailure['kind']>(['server', 'malformed', 'unreachable'])

/** Whether one more try of the read that failed with `failure` may succeed. */
export function mayReadAgain(failure: unknown): failure is ReadFailure {
  return failure instanceof ReadFailure && ONCE_MORE.has(failure.kind)
}

/** A read, tried once more when GitHub failed in a way that may not happen twice (a 502, a reset). */
export async function readTwice(
  reader: GitHubReader,
  path: string,
  what: string,
  permission: Permission
): Promise<unknown> {
  try {
    return await reader.get(path, what, permission)
  } catch (error) {
    if (!mayReadAgain(error) || !reader.canRead) throw error
    return reader.get(path, what, permission)
  }
}
