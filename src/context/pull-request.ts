// A pull request (pull_request, pull_request_target): what it is, what it says, and what it changes.
// On pull_request_target the title, body and diffs may be written by anyone who can fork.
import type { ChangeFacts } from './facts.js'
import type { Gathered, Gathering, SinceCover } from './gather-session.js'
import { asObject, count, login, text } from '../github/json-shape.js'
import { oneLineCodeSpan, quoted } from '../safety/quote-for-agent.js'
import { plural } from '../runtime/plural.js'
import { compareLink, compareRangeTwice, readPullFiles } from './shared-reads.js'
import { ReadFailure } from '../github/read-failure.js'
import { sha } from '../github/json-shape.js'
import { shortSha } from './gather-session.js'

export async function gatherPullRequest(gathering: Gathering): Promise<Gathered> {
  const event = asObject(gathering.request.payload)
  const pull = asObject(event.pull_request)
  const number = count(pull.number) ?? count(event.number)
  if (number === undefined) return { facts: null }
  const changed = count(pull.changed_files)
  const additions = count(pull.additions)
  const deletions = count(pull.deletions)
  const totalLines = additions !== undefined && deletions !== undefined ? additions + deletions : undefined

  const summary = [
    `Event: pull request #${number} ${quoted(text(pull.title), 150)} (${gathering.link(`pull/${number}`)})` +
      `${actionWords(event.action)}${byWhom(pull)}.`,
    `${branchesLine(pull)}: ${state(pull)}` +
      (count(pull.commits) !== undefined ? `, ${plural(count(pull.commits) ?? 0, 'commit')}` : '') +
      (changed !== undefined ? `, ${plural(changed, 'file')} changed` : '') +
      (totalLines !== undefined ? ` (+${additions} -${deletions})` : '') +
      '.'
  ]
  const facts: ChangeFacts = { summary, writing: { label: "The pull request's description", text: text(pull.body) } }
  const head = sha(asObject(pull.head).sha)
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

function branchesLine(pull: Record<string, unknown>): string {
  const base = asObject(pull.base)
  const head = asObject(pull.head)
  const baseRepository = text(asObject(base.repo).full_name)
  const headRepository = text(asObject(head.repo).full_name)
  const fork = headRepository && baseRepository && headRepository !== baseRepository
  const headName = fork ? `${headRepository}:${text(head.ref)}` : text(head.ref)
  return `From ${oneLineCodeSpan(headName)} into ${oneLineCodeSpan(text(base.ref))}${fork ? ' (from a fork)' : ''}`
}

function state(pull: Record<string, unknown>): string {
  if (pull.merged === true) return 'merged'
  if (pull.state === 'closed') return 'closed without merging'
  return pull.draft === true ? 'open, a draft' : 'open'
}

function byWhom(pull: Record<string, unknown>): string {
  const author = login(asObject(pull.user).login)
  return author ? `, by @${author}` : ''
}

/** The event's action (opened, synchronize, closed...), when it is a plain word. */
export function actionWords(action: unknown): string {
  const word = text(action)
  return /^[a-z_]{1,30}$/.test(word) ? ` (${word.replace(/_/g, ' ')})` : ''
}
