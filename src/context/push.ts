// A push: the commits since the last successful run of this workflow on the branch, so that when
// concurrency folds a burst of pushes into one run, or a run failed, the next run still tells the
// agent of every commit. The Actions API names that run's commit; the compare API gives the range.
import { plural } from '../runtime/plural.js'
import { FILE_CAP_LINE, linesOf, readPushedCommits, type ChangeFacts, type Comparison } from './facts.js'
import { shortSha, type Gathered, type Gathering, type SinceCover } from './gather-session.js'
import { asArray, asObject, count, isZeroSha, login, sha, text } from '../github/json-shape.js'
import { oneLineCodeSpan } from '../safety/quote-for-agent.js'
import { ReadFailure } from '../github/read-failure.js'
import type { PushEvent } from '../github/event.js'
import { compareLink, compareRange, compareRangeTwice, mayListMoreFiles } from './shared-reads.js'

/** Where the range starts, and how the section says why. */
interface RangeStart {
  base: string
  /** "since the last successful run of this workflow on this branch", "pushed"... */
  why: string
}

export async function gatherPush(gathering: Gathering, event: PushEvent): Promise<Gathered> {
  const { request } = gathering
  const { ref, before } = event
  const branch = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ''
  const after = event.after || sha(request.sha)
  const pusher = login(event.sender.login) || login(event.pusherName)
  const by = pusher ? `, by @${pusher}` : ''

  if (event.deleted || (after !== '' && isZeroSha(after))) {
    gathering.notices.push(
      `The push deleted ${branch ? `branch ${oneLineCodeSpan(branch)}` : oneLineCodeSpan(ref)}: there is no change to document, so no job is started.`
    )
    return { facts: null, startsNothing: true }
  }
  if (!branch || !after) {
    // A tag, or a payload without the ids: what was pushed, in one line.
    const what = ref.startsWith('refs/tags/')
      ? `tag ${oneLineCodeSpan(ref.slice('refs/tags/'.length))}`
      : `ref ${oneLineCodeSpan(ref)}`
    const at = after ? ` at commit ${after}` : ''
    return { facts: { summary: [`Event: push of ${what} to ${request.repository}${at}${by}.`] } }
  }

  const headline = `Event: push to branch ${oneLineCodeSpan(branch)} of ${request.repository}${by}${event.forced ? ' (a force-push)' : ''}.`
  const created = event.created || !before || isZeroSha(before)
  const { defaultBranch } = event
  const starts: RangeStart[] = []
  let lastRunUnknown = false
  if (request.since) {
    // A group's mark: what its job has not been told of yet, whichever runs failed or were folded.
    starts.push({ base: request.since, why: "since the last commit the group's docs pull request was told of" })
    if (!created) {
      starts.push({ base: before, why: "this push's commits (the group's last commit is no longer in the history)" })
    }
  } else if (created) {
    if (defaultBranch && defaultBranch !== branch) {
      starts.push({
        base: defaultBranch,
        why: `the new branch's commits that are not on ${oneLineCodeSpan(defaultBranch)}`
      })
    }
  } else {
    const lastGood = await lastSuccessfulRun(gathering, branch)
    lastRunUnknown = lastGood === undefined
    if (lastGood && lastGood !== after && lastGood !== before) {
      starts.push({ base: lastGood, why: 'since the last successful run of this workflow on this branch' })
    }
    const why =
      lastGood === before
        ? "this push's commits, since the last successful run of this workflow on this branch"
        : lastGood === null
          ? "this push's commits (no earlier successful run of this workflow on this branch)"
          : "this push's commits"
    starts.push({ base: before, why })
  }

  // With a group's mark, what the facts tell of the changes since it (see SinceCover).
  let since: SinceCover | undefined = request.since ? 'unread' : undefined
  for (const [i, start] of starts.entries()) {
    if (!gathering.canRead) break
    const what = `the comparison ${refLabel(start.base)}...${shortSha(after)}`
    const fromMark = i === 0 && request.since !== undefined && request.since !== ''
    // The range since a group's mark is what its job was not told of: a read GitHub failed once is tried again.
    const comparison = fromMark
      ? await compareRangeTwice(gathering, start.base, after, what)
      : await compareRange(gathering, start.base, after, what)
    const lastTry = i === starts.length - 1 || !gathering.canRead
    if (comparison instanceof ReadFailure) {
      const baseGone = comparison.kind === 'not-found' || comparison.kind === 'unprocessable'
      if (fromMark && baseGone) since = 'gone'
      if (!lastTry && baseGone) {
        gathering.notices.push(
          `${request.since ? "The group's last commit" : "The last successful run's commit"} ${shortSha(start.base)} is no longer in the branch's history (force-pushed away?): the context covers this push's commits.`
        )
        continue
      }
      gathering.fail(comparison)
      break
    }
    if (fromMark) since = 'covered'
    if (!lastTry && comparison.totalCommits === 0) {
      // The last successful run saw a later commit than this push's: tell of this push's own.
      continue
    }
    const facts = comparisonFacts(gathering, { headline, start, head: after, comparison })
    const instead = lastRunUnknown
      ? `It covers this push alone (${shortSha(before)}...${shortSha(after)}): commits of earlier pushes whose run failed, or that concurrency folded into this run, may be missing.`
      : undefined
    return { facts, instead, since }
  }
  return { facts: eventFacts(headline, event.commits, created ? '' : before, after), instead: EVENT_ONLY, since }
}

const EVENT_ONLY =
  'It lists the commits and paths the push event itself carries (at most 20 commits, without line counts).'

/**
 * The commit of the newest successful run of this workflow on this branch: null when there is none,
 * undefined when it could not be read (the failure is recorded).
 */
async function lastSuccessfulRun(gathering: Gathering, branch: string): Promise<string | null | undefined> {
  const { request } = gathering
  let workflow = workflowFile(request.workflowRef, request.repository)
  const runId = /^\d+$/.test(request.runId ?? '') ? request.runId : undefined
  if (!workflow) {
    if (!runId) return undefined
    const run = await gathering.read(`/actions/runs/${runId}`, "this workflow run's record", 'actions: read')
    const id = count(asObject(run).workflow_id)
    if (id === undefined) return undefined
    workflow = String(id)
  }
  const runs = await gathering.read(
    `/actions/workflows/${encodeURIComponent(workflow)}/runs?branch=${encodeURIComponent(branch)}&status=success&per_page=10&exclude_pull_requests=true`,
    "this workflow's earlier runs on the branch",
    'actions: read'
  )
  if (runs === undefined) return undefined
  for (const run of asArray(asObject(runs).workflow_runs).map(asObject)) {
    const headRepository = text(asObject(run.head_repository).full_name).toLowerCase()
    const ours = !headRepository || headRepository === request.repository.toLowerCase()
    const sameBranch = !text(run.head_branch) || run.head_branch === branch
    if (String(run.id) === runId || run.conclusion !== 'success' || !ours || !sameBranch) continue
    const head = sha(run.head_sha)
    if (head) return head
  }
  return null
}

/**
 * The workflow's file name from GITHUB_WORKFLOW_REF, when the workflow is this repository's own:
 * the Actions API takes it in place of the workflow's id, which saves a request.
 */
export function workflowFile(workflowRef: string | undefined, repository: string): string {
  const match = /^([^/]+\/[^/]+)\/\.github\/workflows\/([^/@]+\.ya?ml)@/.exec(workflowRef ?? '')
  return match && match[1].toLowerCase() === repository.toLowerCase() ? match[2] : ''
}

function comparisonFacts(
  gathering: Gathering,
  { headline, start, head, comparison }: { headline: string; start: RangeStart; head: string; comparison: Comparison }
): ChangeFacts {
  const { files, totalCommits } = comparison
  const lines = linesOf(files)
  const counts = `${plural(totalCommits, 'commit')}, ${plural(files.length, 'file')} changed${
    lines !== undefined ? ` (+${sum(files, 'additions')} -${sum(files, 'deletions')})` : ''
  }`
  const summary = [
    headline,
    `Range: ${start.why}, ${refLabel(start.base)}...${shortSha(head)}: ${counts}.`,
    `Compare: ${compareLink(gathering, start.base, head)}`
  ]
  if (mayListMoreFiles(comparison)) summary.push(FILE_CAP_LINE)
  return {
    summary,
    commits: { list: comparison.commits, total: totalCommits },
    files: { list: files, total: files.length }
  }
}

function eventFacts(headline: string, pushed: PushEvent['commits'], before: string, after: string): ChangeFacts {
  const { commits, files } = readPushedCommits(pushed)
  const range = before
    ? `this push, ${shortSha(before)}...${shortSha(after)}`
    : `the new branch's pushed commits, up to ${shortSha(after)}`
  return {
    summary: [
      headline,
      `Range: ${range}, as the event tells it: ${plural(commits.length, 'commit')}, ${plural(files.length, 'path')} changed.`
    ],
    commits: { list: commits, total: commits.length },
    files: { list: files, total: files.length }
  }
}

/** A commit id as its short form, a branch name as outside text. */
function refLabel(ref: string): string {
  return sha(ref) === ref ? shortSha(ref) : oneLineCodeSpan(ref)
}

function sum(files: Comparison['files'], field: 'additions' | 'deletions'): string {
  return files.reduce((total, file) => total + (file[field] ?? 0), 0).toLocaleString('en-US')
}
