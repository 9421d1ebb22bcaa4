// A comment on an issue or a pull request, a comment on a line of a pull request's diff, or a review's
// body: the thread, who wrote it and, on a pull request, what it changes. In a comment-triggered run
// this is where the agent learns what "this" refers to.
import type { ChangeFacts } from './facts.js'
import type { Gathered, Gathering } from './gather-session.js'
import { login } from '../github/json-shape.js'
import type { CommentEvent, CommentEventName } from '../github/event.js'
import { quoted } from '../safety/quote-for-agent.js'
import { readPullFiles } from './shared-reads.js'

const WHAT: Record<CommentEventName, string> = {
  issue_comment: 'a comment',
  pull_request_review_comment: 'a review comment',
  pull_request_review: 'a review'
}

export async function gatherIssueComment(gathering: Gathering, event: CommentEvent): Promise<Gathered> {
  const { request } = gathering
  const issue = event.thread
  if (!issue) return { facts: null }
  const { number, isPull } = issue
  const who = login(event.comment?.user.login)
  const what = WHAT[event.name]
  const title = issue.title.trim()
  const thread =
    `${isPull ? 'pull request' : 'issue'} #${number}${title ? ` ${quoted(title, 150)}` : ''}` +
    ` (${gathering.link(`${isPull ? 'pull' : 'issues'}/${number}`)})`
  const author = who ? `@${who}` : 'someone'
  const summary = [
    request.promptFromComment
      ? `Event: ${author} asked this in ${what} on ${thread}.`
      : `Event: ${what} by ${author} on ${thread}.`
  ]
  const facts: ChangeFacts = { summary }
  if (!isPull) return { facts }
  const files = await readPullFiles(gathering, number, undefined)
  if (!files) return { facts, instead: 'It names the pull request but not its changed files.' }
  facts.files = { list: files, total: files.length }
  // Without a count in the event, a last page that was full may not have been the last.
  if (files.length > 0 && files.length % 100 === 0)
    summary.push('The pull request may change more files than are listed.')
  return { facts }
}
