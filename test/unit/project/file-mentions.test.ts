// A reader follows a file the docs name (`src/github/reader.ts`, `hand-over/job-index.ts`, a test, a
// script) to the code it explains: when files move between rooms, a mention left behind points
// nowhere. Every such mention in README.md, SECURITY.md, CONTRIBUTING.md and docs/*.md names a file
// that exists, from the repository's root or, as the docs shorten it, from src/.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const root = new URL('../../../', import.meta.url)
const markdownFiles = [
  'README.md',
  'SECURITY.md',
  'CONTRIBUTING.md',
  ...readdirSync(new URL('docs/', root))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`)
]

/** Paths of a user's repository that the docs give as examples, not files of this one. */
const EXAMPLES: Record<string, string[]> = {
  'docs/follow-ups.md': ['src/cli.ts'],
  'docs/security.md': ['src/client.ts']
}

/** Each path with a folder and a script's extension that a Markdown text mentions, once. */
function mentionedFiles(markdown: string): string[] {
  const paths = markdown.matchAll(/(?<![\w./@-])(?:[\w-]+\/)+[\w.-]+\.(?:ts|js|cjs|mjs)\b/g)
  return [...new Set([...paths].map(([path]) => path))]
}

const mentions = markdownFiles.flatMap((file) =>
  mentionedFiles(readFileSync(new URL(file, root), 'utf8'))
    .filter((path) => !EXAMPLES[file]?.includes(path))
    .map((path) => [file, path] as const)
)

describe('files the docs name', () => {
  it('are there to check (the docs name the code they explain)', () => {
    expect(mentions.filter(([, path]) => path.startsWith('src/')).length).toBeGreaterThan(10)
  })

  it('exist, from the root or from src/', () => {
    const missing = mentions
      .filter(([, path]) => !existsSync(new URL(path, root)) && !existsSync(new URL(`src/${path}`, root)))
      .map(([file, path]) => `${file}: ${path}`)
    expect(missing).toEqual([])
  })

  it('catch a mention that points nowhere', () => {
    expect(mentionedFiles('see `report/job-index.ts` and src/run/hand-over.ts.')).toEqual([
      'report/job-index.ts',
      'src/run/hand-over.ts'
    ])
    expect(existsSync(new URL('src/report/job-index.ts', root))).toBe(false)
  })
})
