// What each kind of GitHub write needs of the token, named once: a refused write's sentence
// (github/write-failure.ts) says it, with the token's input.
import type { WriteAccess } from '../github/write-failure.js'
import { Input } from './action-names.js'

const tokenInput = Input.githubToken

export const WRITE_ACCESS = {
  /** A reply or a reaction on an issue's or a pull request's thread. */
  thread: { tokenInput, needs: '"issues: write" and "pull-requests: write"' },
  /** A note, a label or a comment on a pull request, maybe in the docs repository. */
  pullRequest: { tokenInput, needs: '"pull-requests: write" on that repository' },
  /** A record in the job index issue, and the pending status of the commit it reports on. */
  index: { tokenInput, needs: `"issues: write" (and "statuses: write" for the commit's status)` },
  /** The reporting workflow turned on or off. */
  workflow: { tokenInput, needs: '"actions: write"' },
  /** A commit's status. */
  status: { tokenInput, needs: '"statuses: write"' }
} as const satisfies Record<string, WriteAccess>
