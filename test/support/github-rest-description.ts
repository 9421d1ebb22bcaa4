// GitHub's REST description, as @octokit/openapi-types ships it (generated from GitHub's own
// OpenAPI document for api.github.com, the version in its package.json's `octokit.openapi-version`),
// read as a checker: which operation a method and path are, and which statuses it documents. The
// stand-in GitHub answers only what GitHub answers: every route it serves is held to this in
// test/unit/project/stand-in-github-contract.test.ts. Read from the type file's text (the package
// holds no JSON): its `paths` interface names each path's operations, its `operations` interface
// each operation's responses.
import { readFileSync } from 'node:fs'

export interface RestOperation {
  operationId: string
  template: string
  /** The statuses its responses document (a 5xx from a server that is down is not among them). */
  statuses: Set<number>
}

interface Described {
  method: string
  template: string
  pattern: RegExp
  operationId: string
}

function typeFile(): string {
  const file = new URL('../../node_modules/@octokit/openapi-types/types.d.ts', import.meta.url)
  try {
    return readFileSync(file, 'utf8')
  } catch {
    throw new Error('@octokit/openapi-types is not installed (it comes with @actions/github): run npm ci')
  }
}

export class GitHubRestDescription {
  private readonly described: Described[] = []
  private readonly responses = new Map<string, Set<number>>()

  constructor(text = typeFile()) {
    const pathsStart = text.indexOf('export interface paths {')
    const pathsEnd = text.indexOf('\nexport ', pathsStart + 1)
    let template = ''
    for (const line of text.slice(pathsStart, pathsEnd).split('\n')) {
      const path = /^ {2}"(\/[^"]*)": \{$/.exec(line)
      if (path) template = path[1]
      const method = /^ {4}(get|put|post|patch|delete): operations\["([^"]+)"\];$/.exec(line)
      if (method && template) {
        const pattern = new RegExp(
          `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '[^/]+')}$`
        )
        this.described.push({ method: method[1].toUpperCase(), template, pattern, operationId: method[2] })
      }
    }
    const operationsStart = text.indexOf('export interface operations {')
    let operation = ''
    let inResponses = false
    for (const line of text.slice(operationsStart).split('\n')) {
      const start = /^ {2}"([^"]+)": \{$/.exec(line)
      if (start) {
        operation = start[1]
        inResponses = false
        this.responses.set(operation, new Set())
        continue
      }
      if (/^ {4}responses: \{$/.test(line)) inResponses = true
      else if (/^ {4}\};$/.test(line)) inResponses = false
      const status = inResponses ? /^ {6}(\d{3}):/.exec(line) : null
      if (status) this.responses.get(operation)?.add(Number(status[1]))
    }
  }

  /** The operation a request is for (its path without the query), or null when GitHub has none. */
  operationOf(method: string, pathname: string): RestOperation | null {
    // A literal path (`/actions/workflows`) wins over a template that would also match it.
    const found = this.described
      .filter((d) => d.method === method && d.pattern.test(pathname))
      .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0))[0]
    if (!found) return null
    return {
      operationId: found.operationId,
      template: found.template,
      statuses: this.responses.get(found.operationId) ?? new Set()
    }
  }
}
