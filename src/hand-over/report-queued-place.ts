// Where the pieces of a queued create are, from a reporting run's place (report-job.ts): the index's
// comments that hold a long prompt (queued-prompt-parts.ts), this repository's owner and name, and
// the limit of one call that edits the thread's reply (the create's or the withdrawal's).
import type { PartsPlace } from './queued-prompt-parts.js'
import type { ReportPlace } from './report-job.js'

/** One GitHub call's own limit for the thread's reply. */
export const REPLY_CALL_MS = 10_000

/** The index's place for the parts of a queued prompt, and the key they are signed with. */
export function partsPlace(place: ReportPlace): PartsPlace {
  return {
    octokit: place.octokit,
    key: place.settings,
    place: {
      host: new URL(place.serverUrl).host,
      thread: { ...ownerAndRepo(place.repository), number: place.issue },
      projectId: place.settings.projectId
    }
  }
}

/** This repository's owner and name, as GitHub's calls take them. */
export function ownerAndRepo(repository: string): { owner: string; repo: string } {
  const [owner, repo] = repository.split('/')
  return { owner, repo }
}
