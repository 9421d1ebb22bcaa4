// For unit tests of a stage that writes to GitHub: the stand-in GitHub (stand-in-github.js) on
// 127.0.0.1:0 and the run's session on it (github/session.ts), whose writing client is the action's
// own (github/octokit.ts), sending to the stand-in's address. Also: the lines the action logged, as
// the runner reads them (what @actions/core wrote to stdout).
import { afterEach, vi } from 'vitest'
import type { Octokit } from '../../src/github/octokit.js'
import { openGitHubSession, type GitHubSession } from '../../src/github/session.js'
import { removeEventFiles, startStandInGitHub } from './stand-in-github.js'

export type StandInGitHub = Awaited<ReturnType<typeof startStandInGitHub>>

/** The GitHub a run with token `ghs_unit` sees; `serverUrl` for its links. */
export const SERVER_URL = 'https://github.com'
export const TOKEN = 'ghs_unit'

const started: StandInGitHub[] = []

/** After each test of the file: the stand-ins it started closed, its event files removed, its spies restored. */
export function cleanUpAfterEach(): void {
  afterEach(async () => {
    await Promise.all(started.splice(0).map((gh) => gh.close()))
    vi.restoreAllMocks()
    removeEventFiles()
  })
}

/** A stand-in GitHub with `options`, a session on it, and the client the session loads. */
export async function startUnitGitHub(
  options: Parameters<typeof startStandInGitHub>[0] = {}
): Promise<{ gh: StandInGitHub; session: GitHubSession; octokit: Octokit }> {
  const gh = await startStandInGitHub(options)
  started.push(gh)
  const session = openGitHubSession(TOKEN, { serverUrl: SERVER_URL, apiUrl: gh.apiUrl })
  return { gh, session, octokit: await session.client() }
}

/**
 * The lines the action writes from now until the test ends (@actions/core writes its log lines and
 * workflow commands to stdout): `warnings` are the `::warning::` commands' texts.
 */
export function captureLog(): { readonly lines: string[]; readonly warnings: string[]; readonly text: string } {
  const lines: string[] = []
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split(/\r?\n/).filter(Boolean))
    return true
  })
  return {
    lines,
    get warnings() {
      return lines.filter((line) => line.startsWith('::warning::')).map((line) => line.slice('::warning::'.length))
    },
    get text() {
      return lines.join('\n')
    }
  }
}
