// A fresh clone installs quietly on the Node version the action runs on: npm warns of every locked
// package whose install script package.json's allowScripts does not decide, and of every package
// whose engines the Node in use does not meet. So each such package is decided in allowScripts, and
// engines asks for the Node that .node-version names (the runners' Node 24), not less.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const root = new URL('../../../', import.meta.url)
const read = (path: string): string => readFileSync(new URL(path, root), 'utf8')
const pkg = JSON.parse(read('package.json')) as { allowScripts?: Record<string, boolean>; engines?: { node?: string } }
const lock = JSON.parse(read('package-lock.json')) as {
  packages: Record<string, { hasInstallScript?: boolean; engines?: { node?: string } }>
}

/** The package's name from its place in the lock: the last `node_modules/…` of the path. */
function nameOf(path: string): string {
  return path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)
}

describe('npm cit on a fresh clone', () => {
  it('meets every install script in allowScripts, so npm has none to warn of', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([path, entry]) => path && entry.hasInstallScript)
      .map(([path]) => nameOf(path))
    expect(withScripts.length).toBeGreaterThan(0)
    for (const name of withScripts) expect(Object.keys(pkg.allowScripts ?? {}), name).toContain(name)
  })

  it("asks in engines for the Node that .node-version names, the runners' (runs.using: node24)", () => {
    const major = Number(read('.node-version').trim().replace(/^v/, '').split('.')[0])
    expect(major).toBe(24)
    expect(read('action.yml')).toMatch(/^ {2}using: node24$/m)
    expect(pkg.engines?.node).toBe(`>=${major}`)
  })

  it("asks for no Node newer than the runners' in any locked package's engines", () => {
    const above = Object.entries(lock.packages)
      .filter(([, entry]) => /^>=\s*(2[5-9]|[3-9]\d)/.test(entry.engines?.node ?? ''))
      .map(([path]) => nameOf(path))
    expect(above).toEqual([])
  })
})
