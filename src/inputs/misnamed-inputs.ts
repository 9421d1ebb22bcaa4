import { Input } from '../kernel/action-names.js'

// The runner hands each `with:` entry to the action as INPUT_<name upper-cased, spaces to _>, known
// to action.yml or not; it only warns, in its own words, about a name action.yml lacks. A name
// written the way other actions spell theirs (project_id, api-key, poll_interval) or with a typo
// would otherwise be read as missing ("projectId is required") or silently ignored. Values are never
// looked at here: a misnamed apiKey is still a key.

/** An INPUT_* variable that names no input of this action but comes close to one. */
export interface MisnamedInput {
  /** The name as the step gave it, as far as the variable keeps it (lower-cased): `project_id`. */
  given: string
  /** The environment variable: `INPUT_PROJECT_ID`. */
  variable: string
  /** The input it most likely meant: `projectId`. */
  meant: string
}

const PREFIX = 'INPUT_'
const KNOWN: readonly string[] = Object.values(Input)

/** The variables of the environment that look like a misspelt input of this action, closest first. */
export function misnamedInputs(env: NodeJS.ProcessEnv = process.env): MisnamedInput[] {
  const exact = new Set(KNOWN.map(variableOf))
  const found: MisnamedInput[] = []
  for (const variable of Object.keys(env)) {
    if (!variable.toUpperCase().startsWith(PREFIX) || exact.has(variable)) continue
    const given = variable.slice(PREFIX.length)
    const meant = closestInput(given)
    if (meant) found.push({ given: given.toLowerCase(), variable, meant })
  }
  return found
}

/** One sentence about a misnamed input: the name given, the one meant, and that its value is not read. */
export function describeMisnamed({ given, variable, meant }: MisnamedInput): string {
  return (
    `The step gives an input named ${given} (${variable}), which this action does not have: ` +
    `did you mean ${meant}? Its value is not read; write the name as action.yml spells it, ${meant}.`
  )
}

/** The variable the runner sets for an input, as @actions/core reads it. */
function variableOf(name: string): string {
  return `${PREFIX}${name.replace(/ /g, '_').toUpperCase()}`
}

/** Case, `-`, `_`, `.` and blanks left out: `project_id`, `Project-Id` and `projectId` are one name. */
function normalise(name: string): string {
  return name.toLowerCase().replace(/[-_.\s]/g, '')
}

/**
 * The known input a given name most likely meant: the same letters in another spelling, or one or
 * two letters off (one for short names, where two would make `wait` of `with`); null when none is.
 */
function closestInput(given: string): string | null {
  const name = normalise(given)
  let best: { input: string; distance: number } | null = null
  for (const input of KNOWN) {
    const known = normalise(input)
    const allowed = known.length <= 5 ? 1 : 2
    const distance = editDistance(name, known)
    if (distance <= allowed && (!best || distance < best.distance)) best = { input, distance }
  }
  return best?.input ?? null
}

/** Letters inserted, deleted, replaced or swapped with a neighbour (optimal string alignment). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)])
  for (let j = 1; j <= b.length; j++) d[0][j] = j
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1)
    }
  }
  return d[a.length][b.length]
}
