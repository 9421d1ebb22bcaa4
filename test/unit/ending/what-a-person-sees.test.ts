// Every ending's job summary and thread reply, written as the run writes them and read as a person
// glances at them: the verdict first, the job named once, nothing said twice, no address twice, the
// pull request a link (on the thread, GitHub's own `owner/repo#N`), a next step that fits the verdict
// (or none where the sentence says it), and long lines that wrap. SUMMARY_RENDER_DIR, when set, keeps
// each rendering there as Markdown, to look at as GitHub shows it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PullRequestDetails } from '../../../src/github/pull-request-details.js'
import type { WhatLeaves } from '../../../src/prompt/what-leaves.js'
import { writeOutcomeReply } from '../../../src/thread/reply-text.js'
import { describeThreadEnding } from '../../../src/ending/thread-words.js'
import { describeEnding } from '../../../src/ending/run-ending.js'
import type { RunOutcome } from '../../../src/kernel/run-outcome.js'
import { writeSummary } from '../../../src/ending/summary.js'
import { wrapLongLines } from '../../../src/ending/summary-html.js'
import type { Job } from '../../../src/service/job-record.js'
import { addressesRepeated, phrasesSaidTwice, timesShown, visibleText } from '../../support/reading-checks.js'

const ID = 'job_1_ly7lgfus'
const REPO = 'https://github.com/octo-org/docs-site'
const PR = `${REPO}/pull/57`
const THREAD = { runUrl: `${REPO}/actions/runs/4711`, serverUrl: 'https://github.com' }
const PROMPT =
  'Bring the documentation up to date with the code changes described below. Document new or changed options, ' +
  'commands and behaviour; leave unrelated pages alone.'
const CONTEXT =
  'Context: information about the repository and what changed in it.\n\n' +
  `Event: push to main.\n    ${'an indented line long enough to need wrapping in any block it is shown in, '.repeat(4)}`
const DETAILS: PullRequestDetails = {
  number: 57,
  title: 'Document the --dry-run flag',
  state: 'open',
  changedFiles: 3,
  additions: 42,
  deletions: 7
}

function job(status: string, extra: Partial<Job> = {}): Job {
  return {
    id: ID,
    status,
    model: 'docs-agent-large',
    sourceRepository: REPO,
    sourceRef: 'main',
    prLink: null,
    createdAt: '2026-11-25T21:00:00Z',
    archivedAt: null,
    ...extra
  }
}

function leaving(extra: Partial<WhatLeaves> = {}): WhatLeaves {
  const sent = `${PROMPT}\n\n${CONTEXT}`
  return {
    dryRun: false,
    sent,
    promptChars: PROMPT.length,
    contextChars: CONTEXT.length,
    contextLimit: 20_000,
    leftOut: [],
    blanked: [],
    secretFiles: [],
    skippedCommits: 0,
    wasSent: true,
    ...extra
  }
}

/** Each ending as the run ends it; `next`: what the next step must say, or null when there must be none. */
const ENDINGS: {
  name: string
  outcome: RunOutcome
  next: RegExp | null
  /** The reply's next step, where it is not the summary's (a step for the workflow's author stays off the thread). */
  replyNext?: RegExp | null
  pullRequest?: PullRequestDetails
  leaving?: WhatLeaves
}[] = [
  {
    name: 'completed with a pull request',
    outcome: { ending: 'final', job: job('completed', { prLink: PR }), jobId: ID },
    pullRequest: DETAILS,
    next: /^Review the pull request/
  },
  {
    name: 'completed without a pull request',
    outcome: { ending: 'final', job: job('completed'), jobId: ID },
    next: /^If you expected changes, look at the job/
  },
  {
    name: 'completed without a pull request, under requirePr',
    outcome: { ending: 'final', job: job('completed'), jobId: ID, requirePr: true },
    next: /^Look at the job .* run again with a clearer prompt, or set requirePr to false/
  },
  {
    name: 'failed',
    outcome: { ending: 'final', job: job('failed'), jobId: ID },
    next: /^Look at the job in the project's dashboard, then run again/
  },
  {
    name: 'archived',
    outcome: { ending: 'final', job: job('archived', { archivedAt: '2026-11-25T21:05:00Z' }), jobId: ID },
    next: /^Look at the job .* to see how far it got/
  },
  {
    name: 'timed out',
    outcome: { ending: 'timeout', job: job('active'), jobId: ID, timeoutMs: 600_000 },
    next: /^To follow it again, run this action with the job's id as jobId and no prompt, or raise timeout\.$/
  },
  {
    name: 'cancelled',
    outcome: { ending: 'cancelled', job: job('active'), jobId: ID },
    next: /^To follow it again, run this action with the job's id as jobId/
  },
  {
    name: 'refused before any job',
    outcome: {
      ending: 'error',
      job: null,
      jobId: '',
      reason:
        "The service rejected the API key (HTTP 401): it is expired or unknown. Check the repository secret passed as apiKey; a new key can be generated on the API keys page of the project's dashboard.",
      told: {
        happened: 'The service rejected the API key (HTTP 401): it is expired or unknown.',
        next: "Check the repository secret passed as apiKey; a new key can be generated on the API keys page of the project's dashboard."
      }
    },
    leaving: leaving({ wasSent: false }),
    next: /^Check the repository secret passed as apiKey; a new key/,
    replyNext: null
  },
  {
    name: 'a dry run',
    outcome: { ending: 'dry-run', job: null, jobId: '' },
    leaving: leaving({ dryRun: true }),
    next: /^Set dryRun to false to create the job\.$/
  },
  {
    name: 'a follow-up',
    outcome: { ending: 'final', job: job('completed', { prLink: PR }), jobId: ID, followUp: true },
    pullRequest: DETAILS,
    next: /^Review the pull request's new changes\.$/
  },
  {
    name: 'no sign of the follow-up',
    outcome: { ending: 'noSign', job: job('completed', { prLink: PR }), jobId: ID, followUp: true, waitedMs: 25_000 },
    next: /^Look at the job and its pull request before sending the message again/
  }
]

const renderDir = process.env.SUMMARY_RENDER_DIR
let folder: string
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'summaries-'))
  // @actions/core reads the file's name once, at its first write: one file, emptied before each.
  process.env.GITHUB_STEP_SUMMARY = join(folder, 'summary.md')
  if (renderDir) mkdirSync(renderDir, { recursive: true })
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))

async function summaryOf(ending: (typeof ENDINGS)[number]): Promise<string> {
  writeFileSync(process.env.GITHUB_STEP_SUMMARY as string, '')
  await writeSummary({
    outcome: ending.outcome,
    prompt: PROMPT,
    context: CONTEXT,
    leaving: ending.leaving ?? leaving(),
    elapsedMs: 83_000,
    pullRequest: ending.pullRequest ?? null
  })
  return readFileSync(process.env.GITHUB_STEP_SUMMARY as string, 'utf8')
}

/** The part read at a glance: everything before the first folded block. */
function glance(summary: string): string {
  const folded = summary.indexOf('<details')
  return folded < 0 ? summary : summary.slice(0, folded)
}

/** The next step's words, or null when the summary gives none. */
function nextStepOf(summary: string): string | null {
  const found = /<p><strong>Next step:<\/strong> (.*?)<\/p>/.exec(summary)
  return found ? visibleText(found[1]).trim() : null
}

describe.each(ENDINGS)('$name', (ending) => {
  it('its summary: the verdict first, the job once, nothing said twice, no address twice', async () => {
    const summary = await summaryOf(ending)
    if (renderDir) writeFileSync(join(renderDir, `${ending.name.replace(/\W+/g, '-')}.summary.md`), summary)

    expect(summary.startsWith('<h3>')).toBe(true)
    expect(phrasesSaidTwice(glance(summary))).toEqual([])
    expect(addressesRepeated(summary)).toEqual([])
    expect(timesShown(summary, ID)).toBeLessThanOrEqual(1)
    // A pull request is a link, named as GitHub names it; the table shows no empty cell.
    if (ending.outcome.job?.prLink) {
      expect(summary).toContain(`<a href="${PR}">octo-org/docs-site#57</a>`)
    }
    expect(summary).not.toMatch(/<td>\s*<\/td>/)
    // The context (or a dry run's exact prompt) is one block that keeps its lines, not a code span per
    // line, its long lines wrapped so that no one scrolls sideways.
    const blocks = [...summary.matchAll(/<pre>(.*?)<\/pre>/g)].map(([, inner]) => visibleText(inner))
    expect(blocks).toEqual([wrapLongLines(ending.leaving?.dryRun ? `${PROMPT}\n\n${CONTEXT}` : CONTEXT)])
    expect(Math.max(...blocks[0].split('\n').map((line) => line.length))).toBeLessThanOrEqual(100)
    expect(summary).not.toMatch(/<code>[^<]*&#10;/)
    // The source repository is a link, named as its host names it; no cell repeats what the heading says.
    if (ending.outcome.job)
      expect(summary).toContain(`<td><a href="${REPO}">octo-org/docs-site</a> @ <code>main</code></td>`)
    const heading = visibleText(/<h3>(.*?)<\/h3>/.exec(summary)?.[1] ?? '').toLowerCase()
    for (const cell of summary.matchAll(/<td>(.*?)<\/td>/g))
      expect(heading).not.toContain(visibleText(cell[1]).toLowerCase())
  })

  it('its summary: a next step that fits the verdict, or none where the sentence says what to do', async () => {
    const next = nextStepOf(await summaryOf(ending))
    if (ending.next === null) expect(next).toBeNull()
    else expect(next).toMatch(ending.next)
  })

  it('its reply: the job once, nothing said twice, no address twice, the pull request as owner/repo#N', () => {
    const reply = writeOutcomeReply(ending.outcome, {
      ...THREAD,
      elapsedMs: 83_000,
      pullRequest: ending.pullRequest ?? null
    })
    if (renderDir) writeFileSync(join(renderDir, `${ending.name.replace(/\W+/g, '-')}.reply.md`), reply)

    expect(phrasesSaidTwice(reply)).toEqual([])
    expect(addressesRepeated(reply)).toEqual([])
    expect(timesShown(reply, ID)).toBeLessThanOrEqual(1)
    if (ending.outcome.job?.prLink) {
      expect(reply).toContain('octo-org/docs-site#57')
      expect(reply).not.toContain(PR)
    }
    // The step a person on the thread can take (ending/thread-words.ts), never one only the
    // workflow's author can take: the summary keeps those.
    const { next } = describeThreadEnding(ending.outcome, '/docs', describeEnding(ending.outcome).next)
    if (next) expect(reply).toContain(`\n\n${next}\n\n`)
    expect(reply).not.toMatch(/run this action|Set dryRun|jobId/)
  })
})

describe('the folded parts of a summary', () => {
  it('come after the verdict, each folded: what left the repository, the prompt, the context', async () => {
    const summary = await summaryOf(ENDINGS[0])
    const folds = [...summary.matchAll(/<details><summary>(.*?)<\/summary>/g)].map((found) => found[1])
    expect(folds).toEqual([
      'What left the repository',
      `Prompt (${PROMPT.length} characters)`,
      `Context sent after the prompt (${CONTEXT.length} characters)`
    ])
    expect(summary.indexOf('<details>')).toBeGreaterThan(summary.indexOf('<table>'))
  })

  it("a dry run's: what would leave, and the exact prompt open, not the words of a run that sent it", async () => {
    const summary = await summaryOf(ENDINGS.find(({ name }) => name === 'a dry run') as (typeof ENDINGS)[number])
    expect(summary).toContain('<details><summary>What would leave the repository</summary>')
    expect(summary).not.toContain('What left the repository')
    expect(summary).toContain('<details open><summary>The exact prompt (not sent)</summary>')
  })
})

describe('a merge request on GitLab', () => {
  const MR = 'https://gitlab.example.org/docs-team/handbook/-/merge_requests/7'
  const outcome: RunOutcome = {
    ending: 'final',
    job: job('completed', { prLink: MR, sourceRepository: 'https://gitlab.example.org/docs-team/handbook' }),
    jobId: ID
  }

  it('is called a merge request in the summary, named as GitLab names it, a link', async () => {
    const summary = await summaryOf({ name: 'a merge request', outcome, next: null })
    if (renderDir) writeFileSync(join(renderDir, 'a-merge-request.summary.md'), summary)
    expect(summary).toContain('<h3>✅ Completed: merge request !7 is ready</h3>')
    expect(summary).toContain(`opened a merge request: <a href="${MR}">docs-team/handbook!7</a>`)
    expect(nextStepOf(summary)).toBe('Review the merge request, and merge it when it is right.')
    expect(visibleText(glance(summary))).not.toMatch(/pull request/i)
  })

  it('is called a merge request in the reply, its address not live, and says where it is a link', () => {
    const reply = writeOutcomeReply(outcome, { ...THREAD, elapsedMs: 83_000 })
    if (renderDir) writeFileSync(join(renderDir, 'a-merge-request.reply.md'), reply)
    expect(reply.split('\n')[0]).toBe(
      `✅ Job \`${ID}\` opened a merge request: \`${MR}\` (a link in the workflow run's summary)`
    )
    expect(reply).not.toMatch(/pull request/i)
    expect(addressesRepeated(reply)).toEqual([])
  })
})

describe("a group's run", () => {
  it("names the group, its pull request and the commits it sent, and calls the pull request's lines its totals", async () => {
    writeFileSync(process.env.GITHUB_STEP_SUMMARY as string, '')
    const from = 'a'.repeat(40)
    const to = 'b'.repeat(40)
    await writeSummary({
      outcome: { ending: 'final', job: job('completed', { prLink: PR }), jobId: ID, followUp: true },
      prompt: PROMPT,
      context: CONTEXT,
      leaving: leaving(),
      elapsedMs: 83_000,
      pullRequest: DETAILS,
      group: {
        name: 'docs-follow-code',
        pullRequest: PR,
        sent: { from, to, compare: `${REPO}/compare/${from}...${to}` }
      }
    })
    const summary = readFileSync(process.env.GITHUB_STEP_SUMMARY as string, 'utf8')
    if (renderDir) writeFileSync(join(renderDir, 'a-group-run.summary.md'), summary)
    // The group's pull request is the job's, linked in the sentence above: not linked twice.
    expect(visibleText(glance(summary))).toContain(
      'Group docs-follow-code: the pull request above is the group’s. This run sent the commits after aaaaaaa up to bbbbbbb.'
    )
    expect(addressesRepeated(summary)).toEqual([])
    expect(visibleText(glance(summary))).toContain(
      'Document the --dry-run flag · open · 3 files changed, +42 −7 (the whole pull request, not only this run)'
    )
    expect(phrasesSaidTwice(glance(summary))).toEqual([])
  })

  it('links the group’s pull request when it is not the one above (a job that opened none, say)', async () => {
    writeFileSync(process.env.GITHUB_STEP_SUMMARY as string, '')
    await writeSummary({
      outcome: { ending: 'final', job: job('completed'), jobId: ID, followUp: true },
      prompt: PROMPT,
      elapsedMs: 1_000,
      group: { name: 'docs-follow-code', pullRequest: PR, sent: null }
    })
    const summary = readFileSync(process.env.GITHUB_STEP_SUMMARY as string, 'utf8')
    expect(summary).toContain(
      `<p>Group <code>docs-follow-code</code>, pull request <a href="${PR}">octo-org/docs-site#57</a>. This run sent it nothing.</p>`
    )
  })
})
