// Finding a group's state on GitHub: its docs pull request and its mark. The service cannot list jobs,
// so the group is found by one listing of the issues and pull requests labelled docs-agent:<group>
// (the issues API, newest first, open and closed: the search API's index lags), skipping issues (only
// a pull request can be the group's, and anyone with triage rights can label an issue), paged on
// within a bound that is said when it is reached. A label proves nothing: a pull request is the
// group's only when a group marker on it verifies under this run's key (group-marker.ts). The newest such
// pull request holds the group's mark (the last commit whose changes a job of the group was given):
// open, its job takes this run's changes; merged or closed, a new job starts from its mark, so that
// no change between the mark and this run is lost. Then one comparison says how this run's commit
// stands to the mark: only a commit ahead of it has changes the group's job was not told of.
import { asArray, asObject, count, text } from '../github/json-shape.js'
import { readAuthor, type Author } from '../github/author.js'
import type { GitHubReader, ReadLimits } from '../github/reader.js'
import { readTwice } from '../github/read-again.js'
import { ReadFailure, failureClause } from '../github/read-failure.js'
import type { GroupSettings, Settings } from '../kernel/settings.js'
import type { Ancestry, GroupLookup, GroupRun } from '../kernel/group.js'
import { Input } from '../kernel/action-names.js'
import { log } from '../runtime/log.js'
import { plural } from '../runtime/plural.js'
import { AGENT_PULL_REQUEST_READS } from '../github/pull-request-details.js'
import { findNotePlace } from '../github/note-place.js'
import { coveredCommit, groupLabel } from './group-job.js'
import { readGroupMarkerOn } from './group-marker.js'
import { pullRequestUrl, repositoryPath } from '../github/pull-request-ref.js'
import type { Runner } from '../github/runner.js'
import type { GitHubRun } from '../github/session.js'

const { perPage, requestTimeoutMs } = AGENT_PULL_REQUEST_READS
/**
 * The group's reads, all within `totalMs`: at most `listPages` pages of the labelled issues and pull
 * requests (100 a page, newest first), the comments of at most `maxPulls` of the pull requests (each
 * within `commentPages` pages), one comparison, and one more try of any read GitHub failed once.
 */
export const GROUP_READS = { listPages: 3, maxPulls: 5, commentPages: 3, totalMs: 10_000 } as const
const { listPages, maxPulls, commentPages, totalMs } = GROUP_READS
const LIMITS: ReadLimits = {
  maxRequests: 2 * (listPages + maxPulls * commentPages + 2),
  totalMs,
  requestMs: requestTimeoutMs,
  maxBodyBytes: 8 * 1024 * 1024
}

/** What finding and recording a group needs of the settings: the token, and the key and project its markers are signed for. */
export type GroupKeys = Pick<Settings, 'githubToken' | 'apiKey' | 'projectId'>

/**
 * The group's newest pull request in `repository` (owner/repo) on which a group marker for this group
 * verifies, open or not; see GroupLookup. Never throws: a read that fails is returned, for the caller
 * to say once.
 */
export async function findGroupPullRequest(
  { name: group, repository }: Pick<GroupSettings, 'name' | 'repository'>,
  settings: GroupKeys,
  reader: GitHubReader,
  runner: Runner
): Promise<GroupLookup> {
  const what = `the pull requests labelled ${groupLabel(group)} in ${repository}`
  const [owner, repo] = repository.split('/')
  const base = repositoryPath({ owner, repo })
  const unverified: number[] = []
  // Read at the first candidate, once: a group with no labelled pull request costs no read.
  let author: Promise<Author> | null = null
  try {
    for (let page = 1; page <= listPages; page++) {
      const listed = asArray(
        await readTwice(
          reader,
          `${base}/issues?labels=${encodeURIComponent(groupLabel(group))}&state=all&per_page=${perPage}&page=${page}`,
          what,
          'pull-requests: read'
        )
      ).map(asObject)
      for (const entry of listed) {
        const number = count(entry.number)
        // The issues API lists issues too: only a pull request can be the group's.
        if (number === undefined || number === 0 || !('pull_request' in entry)) continue
        if (unverified.length >= maxPulls) {
          return { kind: 'none', previous: null, unverified, bound: `${plural(maxPulls, 'pull request')} read` }
        }
        const pr = { owner, repo, number }
        const place = findNotePlace(pr, settings, runner)
        author ??= readAuthor(() => readTwice(reader, '/user', "the token's account", 'metadata: read'))
        const marked = place
          ? await readGroupMarkerOn(reader, pr, {
              key: settings,
              place,
              group,
              author: await author,
              maxPages: commentPages
            })
          : null
        if (!marked) {
          unverified.push(number)
          continue
        }
        const found = { ...marked, pr, url: pullRequestUrl(pr, runner.serverUrl), open: text(entry.state) === 'open' }
        return found.open ? { kind: 'found', found } : { kind: 'none', previous: found, unverified, bound: null }
      }
      if (listed.length < perPage) return { kind: 'none', previous: null, unverified, bound: null }
    }
    return {
      kind: 'none',
      previous: null,
      unverified,
      // Always several pages: plural() would say "issue and pull requests".
      bound: `${(listPages * perPage).toLocaleString('en-US')} labelled issues and pull requests read`
    }
  } catch (error) {
    if (error instanceof ReadFailure) return { kind: 'unreadable', failure: error }
    throw error
  }
}

/**
 * How `covers` stands to `mark`, by one comparison in the run's repository (compare's `status`:
 * `ahead` means `covers` has commits after the mark; `identical` and `behind`, that the mark has them all).
 */
export async function readAncestry(
  reader: GitHubReader,
  mark: string,
  covers: string,
  { repository }: Pick<Runner, 'repository'>
): Promise<{ ancestry: Ancestry; failure?: ReadFailure }> {
  if (!mark) return { ancestry: 'fresh' }
  if (!covers) return { ancestry: 'ahead' }
  if (mark === covers) return { ancestry: 'covered' }
  const [owner, repo] = repository.split('/')
  if (!owner || !repo) return { ancestry: 'ahead' }
  const path = `${repositoryPath({ owner, repo })}/compare/${mark}...${covers}`
  try {
    const status = text(
      asObject(await readTwice(reader, path, `the comparison of ${short(mark)} and ${short(covers)}`, 'contents: read'))
        .status
    )
    if (status === 'identical' || status === 'behind') return { ancestry: 'covered' }
    // Diverged: the mark is on a line the branch left (a force-push); its commits are not the branch's.
    return { ancestry: status === 'diverged' ? 'gone' : 'ahead' }
  } catch (error) {
    if (!(error instanceof ReadFailure)) throw error
    if (error.kind === 'not-found' || error.kind === 'unprocessable') return { ancestry: 'gone' }
    return { ancestry: 'unread', failure: error }
  }
}

const short = (id: string): string => id.slice(0, 7)

/**
 * Looks for the group's pull request and its mark, then how this run's commit stands to the mark, and
 * says once what was found: the job the run's prompt goes to, or that a job is created (and from which
 * mark), or why the look-up could not tell.
 */
export async function lookUpGroup(
  group: GroupSettings,
  settings: GroupKeys,
  signal: AbortSignal,
  { runner, github }: GitHubRun
): Promise<GroupRun> {
  const covers = coveredCommit(runner)
  const what = `the pull requests labelled ${groupLabel(group.name)} in ${group.repository}`
  const reader = settings.githubToken ? github.reader(LIMITS, signal) : null
  if (!reader) {
    const failure = new ReadFailure(settings.githubToken ? 'unreachable' : 'no-token', what, 'pull-requests: read')
    return sayLookup(
      { settings: group, lookup: { kind: 'unreadable', failure }, open: null, mark: '', covers, ancestry: 'fresh' },
      settings
    )
  }
  try {
    const lookup = await findGroupPullRequest(group, settings, reader, runner)
    const open = lookup.kind === 'found' ? lookup.found : null
    const mark = open?.mark ?? (lookup.kind === 'none' ? (lookup.previous?.mark ?? '') : '')
    const { ancestry, failure } =
      lookup.kind === 'unreadable' ? { ancestry: 'fresh' as const } : await readAncestry(reader, mark, covers, runner)
    return sayLookup(
      { settings: group, lookup, open, mark, covers, ancestry, ...(failure && { ancestryFailure: failure }) },
      settings
    )
  } finally {
    await reader.close()
  }
}

/** Says once what the look-up found, and returns it. */
function sayLookup(run: GroupRun, settings: GroupKeys): GroupRun {
  const { lookup } = run
  const { name, repository } = run.settings
  const since = run.mark ? ` since ${short(run.mark)}, the last commit the group's job was told of,` : ''
  switch (lookup.kind) {
    case 'found': {
      const { found } = lookup
      log.info(
        `Group ${name}'s docs pull request is #${found.pr.number} of ${repository}, opened by job ${found.jobId} ` +
          `(from the action's signed note there): this run's changes${since} go to that job as a follow-up message.`
      )
      break
    }
    case 'none': {
      const { unverified, previous, bound } = lookup
      if (unverified.length > 0) {
        log.notice(
          `${unverified.map((n) => `#${n}`).join(', ')} of ${repository} ${unverified.length === 1 ? 'carries' : 'carry'} ` +
            `the label ${groupLabel(name)} but no note of group ${name} that verifies for this repository, pull request ` +
            `and project (${settings.projectId}): a copied label or note, another project's, or one signed with a key since ` +
            `rotated. ${unverified.length === 1 ? 'It is' : 'They are'} ignored.`
        )
      }
      if (bound) {
        log.warning(
          `Stopped looking for group ${name}'s docs pull request after ${bound} of ${repository} with the label ` +
            `${groupLabel(name)}: an open one further down is not seen, so this run creates a job. Remove the label ` +
            `from the issues and pull requests that are not the group's.`
        )
      }
      log.info(
        previous
          ? `Group ${name}'s last docs pull request, #${previous.pr.number} of ${repository}, is closed: this run creates ` +
              `a job with the changes${since} and its pull request becomes the group's.`
          : `Group ${name} has no open docs pull request in ${repository}: this run creates a job, and its pull request ` +
              `becomes the group's.`
      )
      break
    }
    case 'unreadable':
      // A cancel or the timeout: the run is ending, and says so itself.
      if (lookup.failure.kind === 'cancelled') break
      log.notice(
        `Could not look for group ${name}'s docs pull request: ${failureClause(lookup.failure, Input.githubToken)}.` +
          (isLasting(lookup.failure)
            ? ` This run creates a job, as without ${Input.group}; give the token "pull-requests: write" on ${repository} ` +
              `so that the group's runs share one pull request.`
            : '')
      )
  }
  return run
}

/**
 * Whether a failed look-up fails the same way on the next run (a token without the permission, no
 * token): the run then goes on as without a group, rather than never sending. Any other failure (a
 * 502, no answer) holds the run: it sends nothing, and the next run sends its changes.
 */
export function isLasting(failure: ReadFailure): boolean {
  return ['forbidden', 'not-found', 'unauthorized', 'no-token'].includes(failure.kind)
}
