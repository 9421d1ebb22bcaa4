// A newcomer copies the README's snippets first: each ```yaml block in README.md and docs/*.md must
// be YAML a workflow file can hold, checked by a real YAML parser (the one Vite and local-action use).
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'

const root = new URL('../../../', import.meta.url)
const markdownFiles = [
  'README.md',
  ...readdirSync(new URL('docs/', root))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`)
]

/** Each ```yaml (or ```yml) block of a Markdown text, with the line it starts on. */
function yamlBlocks(markdown: string): { line: number; body: string }[] {
  return [...markdown.matchAll(/^```ya?ml\n([\s\S]*?)^```/gm)].map((match) => ({
    line: markdown.slice(0, match.index).split('\n').length,
    body: match[1]
  }))
}

const blocks = markdownFiles.flatMap((file) =>
  yamlBlocks(readFileSync(new URL(file, root), 'utf8')).map(({ line, body }) => [`${file}:${line}`, body] as const)
)

describe('YAML blocks in README.md and docs/', () => {
  it('are there to check (the README has its snippets)', () => {
    expect(blocks.filter(([where]) => where.startsWith('README.md')).length).toBeGreaterThan(0)
  })

  it.each(blocks)('%s parses as YAML', (_, body) => {
    const problems = parseAllDocuments(body).flatMap((document) =>
      [...document.errors, ...document.warnings].map((problem) => problem.message)
    )
    expect(problems).toEqual([])
  })
})
