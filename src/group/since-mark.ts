// An event with no changes of its own (a `schedule`, a `workflow_dispatch`) in a run with a group: what
// the group's job has not been told of is the range from the group's mark to the run's commit, so the
// context tells that range, and a run that could not read it says so (see SinceCover).
import { plural } from '../runtime/plural.js'
import { ReadFailure } from '../github/read-failure.js'
import { oneLineCodeSpan } from '../safety/quote-for-agent.js'
import { shortSha, type Gathered, type Gathering } from '../context/gather-session.js'
import { compareLink, compareRangeTwice } from '../context/shared-reads.js'

/** The changes from the group's mark (`since`) to the run's commit; null when the request has no mark or no commit. */
export async function gatherSinceMark(gathering: Gathering, eventLine: string): Promise<Gathered | null> {
  const { since, sha } = gathering.request
  if (!since || !sha) return null
  const facts = { summary: [eventLine] }
  if (since === sha) return { facts, since: 'covered' }
  const comparison = await compareRangeTwice(
    gathering,
    since,
    sha,
    `the comparison ${shortSha(since)}...${shortSha(sha)}`
  )
  if (comparison instanceof ReadFailure) {
    const gone = comparison.kind === 'not-found' || comparison.kind === 'unprocessable'
    if (gone) {
      gathering.notices.push(
        `The group's last commit ${oneLineCodeSpan(shortSha(since))} is no longer in the history (force-pushed away?): ` +
          'the context tells of the event alone.'
      )
      return { facts, since: 'gone' }
    }
    gathering.fail(comparison)
    return { facts, since: 'unread', instead: 'It names the event alone.' }
  }
  return {
    facts: {
      summary: [
        eventLine,
        `Range: since the last commit the group's docs pull request was told of, ${shortSha(since)}...${shortSha(sha)}: ` +
          `${plural(comparison.totalCommits, 'commit')}, ${plural(comparison.files.length, 'file')} changed.`,
        `Compare: ${compareLink(gathering, since, sha)}`
      ],
      commits: { list: comparison.commits, total: comparison.totalCommits },
      files: { list: comparison.files, total: comparison.files.length }
    },
    since: 'covered'
  }
}
