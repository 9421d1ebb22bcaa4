// The job summary as GitHub renders it: the bundled action run on a pull request from a fork and on a
// push with a huge diff, and the summary file read back. GitHub renders the file as Markdown: a line
// that starts with an HTML tag opens an HTML block, which runs to the next blank line; every other
// line is Markdown, where a link or an image goes live. What a user must see is the job table, whole,
// and outside text only as escaped text inside the code blocks and the <blockquote>, within GitHub's 1 MiB.
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { inputsFor, runAction } from '../support/run-action.js'
import {
  changedFile,
  issueCommentEvent,
  issuesEvent,
  pullRequestEvent,
  pushEvent,
  removeEventFiles,
  runnerEnvironment,
  standInCommit,
  startStandInGitHub,
  type StandInGitHub
} from '../support/stand-in-github.js'
import { startStandInService, type StandInService } from '../support/stand-in-service.js'

const TOKEN = 'ghs_summary_action_token_0123456789'
const MiB = 1024 * 1024

let service: StandInService
let github: StandInGitHub
afterEach(async () => {
  await service?.close()
  await github?.close()
})
afterAll(removeEventFiles)

/**
 * The summary split as CommonMark splits it: HTML blocks (from a line that starts with a tag to the
 * next blank line) and the lines of Markdown between them.
 */
function blocksOf(summary: string): { html: string[]; markdown: string[] } {
  const html: string[] = []
  const markdown: string[] = []
  let open: string[] | null = null
  for (const line of summary.split('\n')) {
    if (line.trim() === '') {
      if (open) html.push(open.join('\n'))
      open = null
    } else if (open) {
      open.push(line)
    } else if (/^ {0,3}<\/?[A-Za-z]/.test(line)) {
      open = [line]
    } else {
      markdown.push(line)
    }
  }
  if (open) html.push(open.join('\n'))
  return { html, markdown }
}

/** The text inside each code span, <pre> and <blockquote>: where outside text belongs, escaped. */
function quotedParts(html: string): string[] {
  return [
    ...html.matchAll(/<code>([\s\S]*?)<\/code>|<pre>([\s\S]*?)<\/pre>|<blockquote>([\s\S]*?)<\/blockquote>/g)
  ].map((m) => m[1] ?? m[2] ?? m[3])
}

describe('the job summary', () => {
  it('keeps outside text as escaped text in its one-line blocks: no blank line hands it to Markdown', async () => {
    const evil = 'evil.example'
    const title = `Fix a typo [read this first](https://${evil}/phish) ![pixel](https://${evil}/pixel.png) <img src="https://${evil}/i.png">`
    const body = `Thanks!\n\n</pre></details>\n\n- [x] [approve](https://${evil}/approve)\n\n<a href="https://${evil}/a">go</a>`
    service = await startStandInService({ plan: { activeMs: 100 } })
    github = await startStandInGitHub({
      repository: { pullFiles: { 7: [changedFile('docs/[x](https://evil.example/path).md')] } }
    })
    const event = pullRequestEvent({ title, body, fork: 'stranger/docs-site', changedFiles: 1 })
    const prompt = `Review the docs.\n\n[and this](https://${evil}/prompt) ![p](https://${evil}/p.png)\n\n<b>bold</b>`
    const run = await runAction({
      inputs: inputsFor(service, { prompt, githubToken: TOKEN }),
      env: runnerEnvironment(github, 'pull_request_target', event)
    })

    expect(run.code).toBe(0)
    // The section the agent read does carry the fork's text: the summary shows it, as data.
    expect(JSON.parse(service.requestsOf('POST')[0].body).prompt).toContain(`https://${evil}/phish`)
    const { html, markdown } = blocksOf(run.summary)
    expect(markdown.filter((line) => line.includes(evil))).toEqual([])
    const details = html.find((block) => block.includes('<details>'))
    expect(details).toBeDefined()
    // The block that opens the <details> closes it too: no blank line ended it halfway through.
    expect(details).toMatch(/<details>[\s\S]*<\/pre>[\s\S]*<\/details>/)
    for (const block of html) {
      const parts = quotedParts(block)
      // Inside code blocks and <blockquote>, nothing of it is a tag (but the <br> the prompt's line breaks become).
      for (const part of parts) expect(part.replace(/<br>/g, '')).not.toMatch(/[<>]/)
      // Outside them, no outside text at all.
      let rest = block
      for (const part of parts) rest = rest.replace(part, '')
      expect(rest).not.toContain(evil)
    }
    expect(run.summary).toContain(`https://${evil}/phish`)
    expect(run.summary).toContain(`https://${evil}/prompt`)
  })

  it('stays within 1 MiB of UTF-8 with the job table whole when the context is huge, and says what it left out', async () => {
    // A JSON-like diff: each quote, <, > and & takes five bytes once escaped; each CJK character three.
    const line = '+  "名前": "<値 & more>", "x": "\'|\'",\n'
    const patch = `@@ -1 +1,20000 @@\n${line.repeat(Math.floor(950_000 / line.length))}`
    const history = [
      standInCommit('Start', [changedFile('README.md')]),
      standInCommit('Add the fixtures', [changedFile('src/fixtures.ts', { additions: 20_000, deletions: 0, patch })])
    ]
    service = await startStandInService({ plan: { activeMs: 100 } })
    github = await startStandInGitHub({ repository: { history, workflowRuns: [] } })
    const run = await runAction({
      inputs: inputsFor(service, {
        prompt: `Document the fixtures. ${'詳しく説明してください。'.repeat(2_000)}`,
        githubToken: TOKEN,
        context: 'diff',
        contextLimit: '1000000'
      }),
      env: runnerEnvironment(github, 'push', pushEvent({ before: history[0].sha, commits: [history[1]] }), {
        GITHUB_SHA: history[1].sha
      })
    })

    expect(run.code).toBe(0)
    const sent = JSON.parse(service.requestsOf('POST')[0].body).prompt as string
    expect(sent).toContain(patch.slice(0, 1_000))
    expect(Buffer.byteLength(sent)).toBeGreaterThan(MiB)
    expect(Buffer.byteLength(run.summary)).toBeLessThanOrEqual(MiB)
    // The job (in the sentence) and its table first and whole, then the prompt whole, then the context cut with a note.
    const job = run.outputs.jobId
    expect(run.summary.indexOf(job)).toBeLessThan(run.summary.indexOf('<table>'))
    expect(run.summary.indexOf('<table>')).toBeLessThan(run.summary.indexOf('<blockquote>'))
    expect(run.summary).toMatch(/<table><tr><th>Model<\/th>.*<th>Followed for<\/th><\/tr><tr><td>.*<\/table>/)
    expect(run.summary).toContain('詳しく説明してください。</blockquote>')
    expect(run.summary).toMatch(
      /<summary>Context sent after the prompt \([\d,]+ characters; the first [\d,]+ shown\)<\/summary>/
    )
    expect(run.summary).toMatch(
      /The context is cut here to keep this summary within GitHub's 1 MiB: [\d,]+ of its [\d,]+ characters are left out/
    )
    expect(run.summary).toMatch(/<\/pre>.*<\/details>\n$/)
  })

  it("shows an issue's request as a quote, its body a block that keeps its lines, without the fences the agent reads", async () => {
    service = await startStandInService({ plan: { activeMs: 100 } })
    github = await startStandInGitHub({ permissions: { 'octo-maintainer': 'triage' } })
    const body = 'Nobody knows how often `fetch` retries.\n```\nclose the fence\n```\n  indented <b>line</b>'
    const run = await runAction({
      inputs: inputsFor(service, { githubToken: TOKEN, context: 'none', prompt: '' }),
      env: runnerEnvironment(github, 'issues', issuesEvent({ title: 'Retries', body }))
    })

    expect(run.code).toBe(0)
    // The agent reads the body fenced, with a fence its own cannot close.
    expect(JSON.parse(service.requestsOf('POST')[0].body).prompt).toContain('Body:\n````text\n')
    const quote = /<summary>Prompt \([\d,]+ characters\)<\/summary><blockquote>(.*?)<\/blockquote>/.exec(
      run.summary
    )?.[1]
    expect(quote).toMatch(
      /^The issue #12 \(.*\) asks for documentation\..*<br><br>Title: &#34;Retries&#34;<br><br>Body:<pre>/
    )
    // The body whole in one <pre>, its line breaks kept, its own ``` lines as text; no fence of the quote's own.
    const pre = /<pre>(.*?)<\/pre>/.exec(quote ?? '')?.[1]
    expect(pre).toBe(
      'Nobody knows how often &#96;fetch&#96; retries.&#10;&#96;&#96;&#96;&#10;close the fence&#10;&#96;&#96;&#96;&#10;  indented &#60;b&#62;line&#60;/b&#62;'.replace(
        /&#96;/g,
        '`'
      )
    )
    expect(quote?.replace(pre ?? '', '')).not.toMatch(/```|~~~/)
  })

  it("wraps the prompt's and the context's long lines: every line of their blocks within 100 columns, no word lost", async () => {
    service = await startStandInService({ plan: { activeMs: 100 } })
    github = await startStandInGitHub({ permissions: { 'octo-maintainer': 'triage' } })
    const sentence =
      'Document how often the client retries a request the server answered with a 502, 503 or 504, how long it waits.'
    const long = `${sentence} ${sentence}`
    const title = `Retries ${'are not documented anywhere, '.repeat(5)}`.trim()
    const run = await runAction({
      inputs: inputsFor(service, { githubToken: TOKEN, prompt: '' }),
      env: runnerEnvironment(github, 'issues', issuesEvent({ title, body: `\`\`\`\n${long}\n\`\`\`` }))
    })

    expect(run.code).toBe(0)
    const blocks = [...run.summary.matchAll(/<pre>(.*?)<\/pre>/g)].map((m) => m[1])
    // The body's fenced block in the quote, and the context (its event line names the long title).
    expect(blocks).toHaveLength(2)
    for (const block of blocks) {
      const lines = block.split('&#10;').map((line) => line.replace(/&#\d+;/g, '.'))
      expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(100)
    }
    const words = (text: string) => text.replace(/&#10;/g, ' ').split(/\s+/).filter(Boolean)
    // The body as the agent read it (its own fences kept as text), every word there.
    expect(words(blocks[0]).filter((word) => word !== '```')).toEqual(words(long))
    const sent = JSON.parse(service.requestsOf('POST')[0].body).prompt as string
    expect(sent.split('\n').some((line) => line.length > 180)).toBe(true)
    expect(words(blocks[1]).join(' ')).toContain(
      'Event: @octo-maintainer labelled issue #12 &#34;Retries are not documented'
    )
  })

  it('calls a GitLab merge request one, in the summary (a link) and in the reply (not live: pointing to the summary)', async () => {
    const link = 'https://gitlab.example.org/docs-team/handbook/-/merge_requests/7'
    service = await startStandInService({
      plan: { activeMs: 100, prLink: link, repository: 'https://gitlab.example.org/docs-team/handbook' }
    })
    github = await startStandInGitHub()
    const run = await runAction({
      inputs: inputsFor(service, { githubToken: TOKEN, context: 'none', prompt: '' }),
      env: runnerEnvironment(github, 'issue_comment', issueCommentEvent({ body: '/docs explain the retries' }))
    })

    expect(run.code).toBe(0)
    expect(run.outputs.prLink).toBe(link)
    expect(run.summary).toContain('<h3>✅ Completed: merge request !7 is ready</h3>')
    expect(run.summary).toContain(`opened a merge request: <a href="${link}">docs-team/handbook!7</a>`)
    expect(run.summary).toContain('Next step:</strong> Review the merge request, and merge it when it is right.')
    expect(run.summary).not.toMatch(/pull request/i)
    const [reply] = github.comments.filter((c) => c.issueNumber === 12)
    expect(reply.body).toContain(`opened a merge request: \`${link}\` (a link in the workflow run's summary)`)
    expect(reply.body).toContain('[Workflow run](https://github.example/octo-org/docs-site/actions/runs/4711)')
    expect(reply.body).not.toMatch(/pull request/i)
  })
})
