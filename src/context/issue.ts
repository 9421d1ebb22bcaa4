// An issue labelled (or opened with the label) to ask for docs: the request itself, the issue's title
// and body, is in the prompt (thread/label-request.ts), so the context says only where it is and
// who asked.
import type { Gathered, Gathering } from './gather-session.js'
import { login } from '../github/json-shape.js'
import type { IssuesEvent } from '../github/event.js'
import { quoted } from '../safety/quote-for-agent.js'

export function gatherIssue(gathering: Gathering, event: IssuesEvent): Promise<Gathered> {
  const { issue } = event
  if (!issue) return Promise.resolve({ facts: null })
  const { number } = issue
  const who = login(event.sender.login)
  const title = issue.title.trim()
  const did = event.action === 'opened' ? 'opened' : event.action === 'labeled' ? 'labelled' : 'changed'
  const summary = [
    `Event: ${who ? `@${who}` : 'someone'} ${did} issue #${number}${title ? ` ${quoted(title, 150)}` : ''}` +
      ` (${gathering.link(`issues/${number}`)}).`
  ]
  return Promise.resolve({ facts: { summary } })
}
