// A release: its name, tag and notes, and what changed since the release before it.
import { FILE_CAP_LINE, type ChangeFacts } from './facts.js'
import { refSegment, type Gathered, type Gathering } from './gather-session.js'
import { asArray, asObject, count, text } from '../github/json-shape.js'
import { oneLineCodeSpan, quoted } from '../safety/quote-for-agent.js'
import { actionWords } from './pull-request.js'
import { plural } from '../runtime/plural.js'
import { ReadFailure } from '../github/read-failure.js'
import type { PayloadRelease, ReleaseEvent } from '../github/event.js'
import { compareLink, compareRange, mayListMoreFiles } from './shared-reads.js'

const RELEASES_READ = 30

export async function gatherRelease(gathering: Gathering, event: ReleaseEvent): Promise<Gathered> {
  const { release } = event
  if (!release) return { facts: null }
  const tag = release.tagName
  const name = release.name.trim()
  const summary = [
    `Event: release ${name ? `${quoted(name, 150)}, ` : ''}tag ${oneLineCodeSpan(tag)} (${gathering.namedLink(`releases/tag/${refSegment(tag)}`)})` +
      `${actionWords(event.action)}${release.prerelease ? ', a pre-release' : ''}.`
  ]
  const facts: ChangeFacts = { summary, writing: { label: 'The release notes', text: release.body } }
  const instead =
    'It holds what the event carries: the name, tag and notes, without the changes since the last release.'

  const answer = await gathering.read(`/releases?per_page=${RELEASES_READ}`, 'the earlier releases', 'contents: read')
  if (answer === undefined) return { facts, instead }
  const previous = previousTag(answer, release)
  if (previous === null) {
    summary.push('Range: none; there is no earlier release among the latest ones.')
    return { facts }
  }
  const comparison = await compareRange(
    gathering,
    previous,
    tag,
    `the comparison ${oneLineCodeSpan(previous)}...${oneLineCodeSpan(tag)}`
  )
  if (comparison instanceof ReadFailure) {
    gathering.fail(comparison)
    summary.push(`Range: since the previous release, tag ${oneLineCodeSpan(previous)} (its changes could not be read).`)
    return { facts, instead }
  }
  const { files, totalCommits } = comparison
  summary.push(
    `Range: since the previous release, ${oneLineCodeSpan(previous)}...${oneLineCodeSpan(tag)}: ${plural(totalCommits, 'commit')}, ${plural(files.length, 'file')} changed.`,
    `Compare: ${compareLink(gathering, previous, tag)}`
  )
  if (mayListMoreFiles(comparison)) summary.push(FILE_CAP_LINE)
  facts.commits = { list: comparison.commits, total: totalCommits }
  facts.files = { list: files, total: files.length }
  return { facts }
}

/**
 * The tag of the release published before this one: drafts never count, and for a full release
 * neither do pre-releases (the range from the last full release is what changed for its users).
 */
function previousTag(answer: unknown, release: PayloadRelease): string | null {
  const at = (entry: Record<string, unknown>) => Date.parse(text(entry.published_at) || text(entry.created_at))
  const thisAt = Date.parse(release.publishedAt || release.createdAt)
  const thisId = release.id
  let best: { tag: string; at: number } | null = null
  for (const entry of asArray(answer).map(asObject)) {
    const tag = text(entry.tag_name)
    const when = at(entry)
    if (!tag || tag === release.tagName || entry.draft === true || count(entry.id) === thisId) continue
    if (!release.prerelease && entry.prerelease === true) continue
    if (!Number.isFinite(when) || (Number.isFinite(thisAt) && when >= thisAt)) continue
    if (!best || when > best.at) best = { tag, at: when }
  }
  return best?.tag ?? null
}
