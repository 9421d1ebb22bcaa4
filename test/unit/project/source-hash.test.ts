// The demo runs the committed dist/: it must be able to tell when src/ has changed since the bundle
// was built, whatever the files' times say (scripts/source-hash.js, written by scripts/bundle.js).
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BUNDLE_SOURCES, bundleFreshness, hashFiles, SOURCE_HASH_FILE } from '../../../scripts/source-hash.js'

let root: string
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'source-hash-'))
  mkdirSync(join(root, 'src', 'context'), { recursive: true })
  mkdirSync(join(root, 'dist'))
  writeFileSync(join(root, 'src', 'main.ts'), 'export const answer = 42\n')
  writeFileSync(join(root, 'src', 'context', 'render.ts'), 'export {}\n')
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

/** What scripts/bundle.js records in dist/ once it has built it. */
const recordBuild = (): void =>
  writeFileSync(join(root, 'dist', SOURCE_HASH_FILE), `${hashFiles(root, BUNDLE_SOURCES)}\n`)

describe('bundleFreshness', () => {
  it('is current when src/ is what dist/ was built from, however old its files look', () => {
    recordBuild()
    utimesSync(join(root, 'src', 'main.ts'), new Date(), new Date(Date.now() + 3_600_000))
    expect(bundleFreshness(root, 'dist')).toBe('current')
  })

  it('is stale once a source changes, is added or is removed', () => {
    recordBuild()
    writeFileSync(join(root, 'src', 'main.ts'), 'export const answer = 43\n')
    expect(bundleFreshness(root, 'dist')).toBe('stale')

    recordBuild()
    writeFileSync(join(root, 'src', 'new-module.ts'), 'export {}\n')
    expect(bundleFreshness(root, 'dist')).toBe('stale')

    recordBuild()
    rmSync(join(root, 'src', 'context', 'render.ts'))
    expect(bundleFreshness(root, 'dist')).toBe('stale')
  })

  it('is unknown for a dist/ that records no hash (built before bundles did)', () => {
    expect(bundleFreshness(root, 'dist')).toBe('unknown')
  })
})
