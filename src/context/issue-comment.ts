// A comment on an issue or a pull request, a comment on a line of a pull request's diff, or a review's
// body: the thread, who wrote it and, on a pull request, what it changes. In a comment-triggered run
// this is where the agent learns what "this" refers to.
import type { ChangeFacts } from './facts.js'
import type { Gathered, Gathering } from './gather-session.js'
import { asObject, count, login, text } from '../github/json-shape.js'
import { quoted } from '../safety/quote-for-agent.js'
import { readPullFiles } from './shared-reads.js'

export async function gatherIssueComment(gathering: Gathering): Promise<Gathered> {
  const { request } = gathering
  const event = asObject(request.payload)
  const onIssue = request.eventName === 'issue_comment'
  const issue = asObject(onIssue ? event.issue : event.pull_request)
  const number = count(issue.number)
  if (number === undefined) return { facts: null }
  const isPull = !onIssue || (issue.pull_request !== undefined && issue.pull_request !== null)
  const written = asObject(request.eventName === 'pull_request_review' ? event.review : event.comment)
  const who = login(asObject(written.user).login)
  const what =
    request.eventName === 'pull_request_review'
      ? 'a review'
      : request.eventName === 'pull_request_review_comment'
        ? 'a review comment'
        : 'a comment'
  const title = text(issue.title).trim()
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
