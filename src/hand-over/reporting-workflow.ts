// The reporting workflow turned on and off, so that it runs only while a job is open: a reporting run
// names its own workflow (GITHUB_WORKFLOW_REF, no request) and records it in the index; a reporting
// run that leaves nothing open turns it off, and a hand-over that adds a record turns it on
// (`PUT …/actions/workflows/{file}/enable` and `/disable`, which need `actions: write`). A disabled
// workflow starts no run for any event, its schedule included; turning it on is what a hand-over can
// do with its own token, since the events GITHUB_TOKEN causes start no run (but dispatches).
import { repositoryPath } from '../github/pull-request-ref.js'
import type { Octokit } from '../github/octokit.js'
import type { Runner } from '../github/runner.js'
import { mayHaveWritten } from '../github/write-failure.js'

/** The permission that lets a run turn the reporting workflow on and off. */
export const SWITCH_PERMISSION = 'actions: write'

/**
 * The file of the workflow this run is of (`.github/workflows/report-later.yml`), from
 * GITHUB_WORKFLOW_REF, when that workflow is this repository's; null otherwise.
 */
export function workflowOfRun({ workflowRef, repository }: Pick<Runner, 'workflowRef' | 'repository'>): string | null {
  if (!workflowRef) return null
  const at = workflowRef.lastIndexOf('@')
  const path = at > 0 ? workflowRef.slice(0, at) : workflowRef
  const prefix = `${repository}/`
  if (path.slice(0, prefix.length).toLowerCase() !== prefix.toLowerCase()) return null
  const file = path.slice(prefix.length)
  return /^\.github\/workflows\/[^/]+\.ya?ml$/.test(file) ? file : null
}

/** How turning the workflow on or off went: done, refused (no actions: write), not found, or failed otherwise. */
export type SwitchResult = { done: true } | { done: false; refused: boolean; error: unknown }

/**
 * Turns `workflow` on or off; never throws but for a cancel. Tried once more after a 5xx (or no
 * answer): both are idempotent (GitHub answers 204 to a workflow already so), and a switch left
 * undone leaves jobs untold (on) or a schedule running (off).
 */
export async function switchWorkflow(
  octokit: Octokit,
  { repository, workflow, on }: { repository: string; workflow: string; on: boolean },
  signal: AbortSignal
): Promise<SwitchResult> {
  const [owner, repo] = repository.split('/')
  const file = workflow.split('/').pop() ?? workflow
  const url = `${repositoryPath({ owner, repo })}/actions/workflows/${encodeURIComponent(file)}/${on ? 'enable' : 'disable'}`
  for (let attempt = 1; ; attempt++) {
    try {
      await octokit.request(`PUT ${url}`, { request: { signal } })
      return { done: true }
    } catch (error) {
      if (signal.aborted) throw error
      if (attempt < 2 && mayHaveWritten(error)) continue
      const status = (error as { status?: unknown }).status
      return { done: false, refused: status === 403, error }
    }
  }
}
