// @ts-check
// Writes dist/licenses.txt: the license of every package the bundle can contain (the production
// dependency tree). ncc's own --license lists only one chunk's packages once the bundle is split
// (the GitHub client is a separate chunk), so the file is written here instead.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

const root = process.cwd()
const out = process.argv[2] ?? 'dist/licenses.txt'

/** @param {string} dir @returns {{name: string, version: string, license?: string, dependencies?: Record<string, string>, optionalDependencies?: Record<string, string>}} */
const manifest = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))

/** Node's resolution: the nearest node_modules/NAME walking up from `from`. @param {string} name @param {string} from */
function resolve(name, from) {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name)
    if (existsSync(join(candidate, 'package.json'))) return candidate
    if (dir === root || dirname(dir) === dir) return null
  }
}

/** @type {Set<string>} package directories seen */
const visited = new Set()
/** @type {Map<string, string>} "name@version" -> one directory that holds it */
const found = new Map()
/** @param {string} dir */
function visit(dir) {
  if (visited.has(dir)) return
  visited.add(dir)
  const pkg = manifest(dir)
  found.set(`${pkg.name}@${pkg.version}`, dir)
  for (const name of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
    const child = resolve(name, dir)
    if (child) visit(child)
  }
}
for (const name of Object.keys(manifest(root).dependencies ?? {})) {
  const dir = resolve(name, root)
  if (!dir) throw new Error(`${name} is not installed: run npm ci first.`)
  visit(dir)
}

const sections = [...found.entries()]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([id, dir]) => {
    const licenseFile = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f))
    const text = licenseFile
      ? readFileSync(join(dir, licenseFile), 'utf8').trim()
      : `(no license file; package.json says ${manifest(dir).license ?? 'nothing'})`
    return `${id}\n${manifest(dir).license ?? ''}\n${text}`
  })
writeFileSync(out, `${sections.join('\n\n')}\n`)
