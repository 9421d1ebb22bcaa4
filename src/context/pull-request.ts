// A pull request (pull_request, pull_request_target): what it is, what it says, and what it changes.
// On pull_request_target the title, body and diffs may be written by anyone who can fork.
import type { ChangeFacts } from './facts.js'
import type { Gathered, Gathering, SinceCover } from './gather-session.js'
import { login } from '../github/json-shape.js'
import type { PayloadThread, PullRequestEvent } from '../github/event.js'
import { oneLineCodeSpan, quoted } from '../safety/quote-for-agent.js'
import { plural } from '../runtime/plural.js'
import { compareLink, compareRangeTwice, readPullFiles } from './shared-reads.js'
import { ReadFailure } from '../github/read-failure.js'
import { shortSha } from './gather-session.js'

export async function gatherPullRequest(gathering: Gathering, event: PullRequestEvent): Promise<Gathered> {
  const pull = event.pullRequest
  if (!pull) return { facts: null }
  const { number, additions, deletions } = pull
  const changed = pull.changedFiles
  const totalLines = additions !== undefined && deletions !== undefined ? additions + deletions : undefined

  const summary = [
    `Event: pull request #${number} ${quoted(pull.title, 150)} (${gathering.link(`pull/${number}`)})` +
      `${actionWords(event.action)}${byWhom(pull)}.`,
    `${branchesLine(pull)}: ${state(pull)}` +
      (pull.commits !== undefined ? `, ${plural(pull.commits, 'commit')}` : '') +
      (changed !== undefined ? `, ${plural(changed, 'file')} changed` : '') +
      (totalLines !== undefined ? ` (+${additions} -${deletions})` : '') +
      '.'
  ]
  const facts: ChangeFacts = { summary, writing: { label: "The pull request's description", text: pull.body } }
  const head = pull.head.sha
  const { since } = gathering.request
  // With a group's mark, what the facts tell of the changes since it (see SinceCover).
  let cover: SinceCover | undefined = since ? 'unread' : undefined
  if (since && head && since !== head) {
    // A group's mark: the job was told of the pull request up to that commit; it gets what came since.
    const comparison = await compareRangeTwice(
      gathering,
      since,
      head,
      `the comparison ${shortSha(since)}...${shortSha(head)}`
    )
    // A mark no longer in the history (a force-push): the pull request's files are all there is to tell.
    if (comparison instanceof ReadFailure && (comparison.kind === 'not-found' || comparison.kind === 'unprocessable')) {
      cover = 'gone'
    }
    if (!(comparison instanceof ReadFailure)) cover = 'covered'
    if (!(comparison instanceof ReadFailure) && comparison.totalCommits > 0) {
      summary.push(
        `Range: since the last commit the group's docs pull request was told of, ${shortSha(since)}...${shortSha(head)}: ` +
          `${plural(comparison.totalCommits, 'commit')}, ${plural(comparison.files.length, 'file')} changed.`,
        `Compare: ${compareLink(gathering, since, head)}`
      )
      facts.commits = { list: comparison.commits, total: comparison.totalCommits }
      facts.files = { list: comparison.files, total: comparison.files.length }
      return { facts, since: cover }
    }
  } else if (since) {
    cover = 'covered'
  }
  if (changed === 0) return { facts, since: cover }
  const files = await readPullFiles(gathering, number, changed)
  if (!files) {
    const instead = 'It holds what the event carries: the title, description and counts.'
    return { facts, instead, since: cover === 'gone' ? 'unread' : cover }
  }
  facts.files = { list: files, total: Math.max(changed ?? 0, files.length), totalLines }
  return { facts, since: cover }
}

function branchesLine({ base, head }: PayloadThread): string {
  const fork = head.repository && base.repository && head.repository !== base.repository
  const headName = fork ? `${head.repository}:${head.ref}` : head.ref
  return `From ${oneLineCodeSpan(headName)} into ${oneLineCodeSpan(base.ref)}${fork ? ' (from a fork)' : ''}`
}

function state(pull: PayloadThread): string {
  if (pull.merged) return 'merged'
  if (pull.state === 'closed') return 'closed without merging'
  return pull.draft ? 'open, a draft' : 'open'
}

function byWhom(pull: PayloadThread): string {
  const author = login(pull.user.login)
  return author ? `, by @${author}` : ''
}

/** The event's action (opened, synchronize, closed...), when it is a plain word. */
export function actionWords(word: string): string {
  return /^[a-z_]{1,30}$/.test(word) ? ` (${word.replace(/_/g, ' ')})` : ''
}
