// Which failed reads are worth one more try: GitHub's own error (a 502 from its load balancer), an
// answer garbled on the way, or a connection that failed. A missing permission, a 404, a rate limit
// or a read that took its whole time limit would fail the same way again, or cost as long again.
import { ReadFailure } from './read-failure.js'

const ONCE_MORE = new Set<ReadFailure['kind']>(['server', 'malformed', 'unreachable'])

/** Whether one more try of the read that failed with `failure` may succeed. */
export function mayReadAgain(failure: unknown): failure is ReadFailure {
  return failure instanceof ReadFailure && ONCE_MORE.has(failure.kind)
}
