// The example workflows are documentation: the README links to each one (its snippets are only the
// heart of each), and each passes the key only from a secret. (`npm run lint:workflows` checks them
// with actionlint; test/unit/project/readme.test.ts checks that none pastes an output into a script.)
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const dir = new URL('../../../examples/workflows/', import.meta.url)
const files = readdirSync(dir).filter((name) => name.endsWith('.yml'))
const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8')

describe('examples/workflows', () => {
  it('has one workflow for each way people use the action', () => {
    expect(files.sort()).toEqual([
      'comment.yml',
      'dispatch.yml',
      'docs-pr-companion.yml',
      'issue-label.yml',
      'on-push.yml',
      'report-later.yml',
      'weekly-audit.yml'
    ])
  })

  it.each(files)('%s is linked from the README', (name) => {
    expect(readme).toContain(`](examples/workflows/${name})`)
  })

  it.each(files)('%s takes the key from secrets.DOCS_AGENT_API_KEY', (name) => {
    const text = readFileSync(new URL(name, dir), 'utf8')
    expect(text).toContain('apiKey: ${{ secrets.DOCS_AGENT_API_KEY }}')
    expect(text).toContain('baseUrl: ${{ vars.DOCS_AGENT_BASE_URL }}')
    expect(text).not.toMatch(/svc_/)
  })

  it('the push workflow sends what changed but no diff, reads what it needs, and never cancels a run that holds a job', () => {
    const text = readFileSync(new URL('on-push.yml', dir), 'utf8')
    // The quick start's workflow, commented: what people copy first keeps their code at home.
    expect(text).not.toMatch(/^ +context:/m)
    // And what a job that outlives timeout needs to be handed over and told (the quick start's too).
    expect(text).toMatch(
      /^permissions:\n {2}contents: read\n {2}actions: write\n {2}issues: write\n {2}pull-requests: write\n {2}statuses: write\n\n/m
    )
    expect(text).toMatch(/^ +group: docs-follow-code$/m)
    expect(text).toMatch(/^concurrency:\n {2}group: .+\n {2}cancel-in-progress: false$/m)
    // The agent is told what changed; the prompt no longer has to cite the commit.
    expect(text).not.toContain('github.sha')
  })

  it('the docs pull request companion follows its code pull request to the end, one run at a time per pull request, in one group per pull request', () => {
    const text = readFileSync(new URL('docs-pr-companion.yml', dir), 'utf8')
    expect(text).toMatch(/^on:\n {2}pull_request:\n {4}types: \[opened, synchronize, reopened, closed\]\n/m)
    expect(text).toMatch(/^permissions:\n {2}contents: read\n {2}pull-requests: write\n/m)
    expect(text).toMatch(
      /^concurrency:\n {2}group: docs-agent-code-pr-\$\{\{ github\.event\.pull_request\.number \}\}\n {2}cancel-in-progress: false$/m
    )
    expect(text).toMatch(/^ +group: code-pr-\$\{\{ github\.event\.pull_request\.number \}\}$/m)
  })

  it('the comment workflow listens to comments, review comments and reviews, grants the thread permissions and filters on the trigger', () => {
    const text = readFileSync(new URL('comment.yml', dir), 'utf8')
    expect(text).toMatch(
      /^on:\n {2}issue_comment:\n {4}types: \[created\]\n {2}pull_request_review_comment:\n {4}types: \[created\]\n {2}pull_request_review:\n {4}types: \[submitted\]\n/m
    )
    // actions: write turns the reporting workflow on when a job that outlived timeout is handed over.
    expect(text).toMatch(
      /permissions:\n {2}contents: read\n {2}actions: write\n {2}issues: write\n {2}pull-requests: write\n/
    )
    expect(text).toContain("startsWith(github.event.comment.body || github.event.review.body, '/docs')")
    // The comment must reach the action only through the event payload, never through an expression.
    expect(text).not.toContain('github.event.comment.body }}')
    expect(text).not.toMatch(/^\s+prompt:/m)
  })

  it('the label workflow listens to labels on issues and pull requests, picks the label in its if:, and quotes no event text', () => {
    const text = readFileSync(new URL('issue-label.yml', dir), 'utf8')
    // `labeled` only: an issue opened with its label gets `opened` and `labeled`, and asks once.
    expect(text).toMatch(/^on:\n {2}issues:\n {4}types: \[labeled\]\n {2}pull_request:\n {4}types: \[labeled\]\n/m)
    expect(text).not.toContain("action == 'opened'")
    // actions: write turns the reporting workflow on when a job that outlived timeout is handed over.
    expect(text).toMatch(
      /permissions:\n {2}contents: read\n {2}actions: write\n {2}issues: write\n {2}pull-requests: write\n/
    )
    expect(text).toContain("github.event.label.name == 'docs'")
    expect(text).toMatch(/^concurrency:\n {2}group: .+\n {2}cancel-in-progress: false$/m)
    // The issue reaches the action only through the event payload, never through an expression.
    expect(text).not.toMatch(/github\.event\.(issue|pull_request)\.(title|body)/)
  })

  it("the reporting workflow runs on a schedule, by hand and on the agent's pull request, one at a time, with the least permissions", () => {
    const text = readFileSync(new URL('report-later.yml', dir), 'utf8')
    expect(text).toMatch(/^ {2}schedule:\n {4}- cron: '\*\/1[05] \* \* \* \*'\n {2}workflow_dispatch:\n/m)
    expect(text).toMatch(/^ {2}pull_request:\n {4}types: \[opened, synchronize\]\n/m)
    // actions: write turns the workflow off while no job is open.
    expect(text).toMatch(
      /^permissions:\n {2}actions: write\n {2}issues: write\n {2}pull-requests: write\n {2}statuses: write\n\n/m
    )
    expect(text).toMatch(/^concurrency:\n {2}group: .+\n {2}cancel-in-progress: false$/m)
    expect(text).toMatch(/^ +report: pending$/m)
    expect(text).not.toMatch(/^\s+prompt:/m)
  })
})

describe('a workflow with a group', () => {
  // GitHub's concurrency groups are repository-wide: every workflow of one group uses the same key,
  // docs-agent-<group>, so that two workflows of the group (a push and a weekly audit) never run at once.
  const withGroup = [
    ...files.map((name) => [name, readFileSync(new URL(name, dir), 'utf8')]),
    ...yamlBlocksOf(readme).map((block, i) => [`README block ${i + 1}`, block])
  ].filter(([, text]) => /^ +group: [^\n]+$/m.test(text.replace(/^concurrency:\n {2}group: .*$/m, '')))

  it('is found in the README and the examples', () => {
    expect(withGroup.map(([name]) => name)).toEqual(expect.arrayContaining(['on-push.yml', 'docs-pr-companion.yml']))
    expect(withGroup.some(([name]) => name.startsWith('README'))).toBe(true)
  })

  it.each(withGroup)('%s runs one at a time under concurrency docs-agent-<group>, never cancelled', (_, text) => {
    const group = /^ {6,}group: (.+?)(?: #.*)?$/m.exec(text)?.[1]
    expect(text).toMatch(
      new RegExp(
        `^concurrency:(?: #.*)?\\n {2}group: docs-agent-${escape(group ?? '?')}\\n {2}cancel-in-progress: false$`,
        'm'
      )
    )
  })
})

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function yamlBlocksOf(markdown: string): string[] {
  return [...markdown.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1])
}

describe('run: steps in the README and the examples', () => {
  // An expression in `run:` is pasted into the shell script before it runs: an output or an event's
  // text there runs whatever it holds. They go through env: and are quoted as "$VARIABLE".
  const blocks = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1])
  const workflows = files.map((name) => readFileSync(new URL(name, dir), 'utf8'))

  it.each([...blocks, ...workflows].flatMap(runScripts))('%j has no ${{ }} expression', (script) => {
    expect(script).not.toContain('${{')
  })

  it('finds the run: steps it checks', () => {
    expect([...blocks, ...workflows].flatMap(runScripts).length).toBeGreaterThan(0)
  })
})

/** The script of every `run:` key in a YAML text: on its line, or the block under it. */
function runScripts(yaml: string): string[] {
  const lines = yaml.split('\n')
  const scripts: string[] = []
  lines.forEach((line, i) => {
    const match = /^(\s*(?:- )?)run:\s*(.*)$/.exec(line)
    if (!match) return
    // The key's own column: a block belongs to it when indented further.
    const indent = match[1].length
    const body = [match[2]]
    for (let j = i + 1; j < lines.length && (lines[j].trim() === '' || lines[j].search(/\S/) > indent); j++) {
      body.push(lines[j])
    }
    scripts.push(body.join('\n').trim())
  })
  return scripts
}
