// A pull request from a fork: GitHub runs `pull_request` workflows (and reviews and review comments on
// it) for such a pull request with no secrets and a read-only token, so the key input arrives empty.
// Read from the event payload (outside text): only a name of the shape owner/name is ever repeated.
import { eventPullRequest, type RunnerEvent } from './event.js'

/** The pull request a run is for, when its head is in a fork. */
export interface ForkPullRequest {
  /** The fork, `owner/name`; '' when the payload does not name it in that shape. */
  fork: string
  /** The pull request's number; 0 when the payload gives none. */
  number: number
}

const FULL_NAME = /^[A-Za-z0-9-]{1,39}\/[A-Za-z0-9._-]{1,100}$/

/**
 * The pull request from a fork that the run is for, when GitHub gives the run no secrets: a pull
 * request event (or a review, or a review comment) whose head repository is marked a fork or differs
 * from the base repository. Null otherwise; `pull_request_target` runs in the base repository, with its
 * secrets, and an issue comment on a pull request carries no head.
 */
export function forkWithoutSecrets(event: RunnerEvent): ForkPullRequest | null {
  if (event.name === 'pull_request_target') return null
  const pull = eventPullRequest(event)
  if (!pull) return null
  const { head, base } = pull
  const fromFork =
    head.fork || (head.repository !== '' && base.repository !== '' && head.repository !== base.repository)
  if (!fromFork) return null
  return { fork: FULL_NAME.test(head.repository) ? head.repository : '', number: pull.number }
}

/** The sentence for an empty key on a fork's pull request: why it is empty, and what to do instead. */
export function forkKeySentence({ fork, number }: ForkPullRequest, keyInput: string): string {
  const which = `${number ? `pull request #${number}` : 'a pull request'} from ${fork ? `the fork ${fork}` : 'a fork'}`
  return (
    `Input ${keyInput} is empty: this run is for ${which}, and GitHub gives the workflows it runs for a fork's ` +
    `pull request no secrets. Skip such runs with an if: on the job, ` +
    `github.event.pull_request.head.repo.full_name == github.repository; or, knowing its trade-offs (it has the ` +
    `secrets and runs on text an outsider wrote, see docs/security.md), trigger on pull_request_target instead.`
  )
}
