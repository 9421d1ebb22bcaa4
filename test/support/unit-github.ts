// For unit tests of a stage that writes to GitHub: the stand-in GitHub (stand-in-github.js) on
// 127.0.0.1:0 and a session on it (github/session.ts) whose writing client is the action's own
// (github/octokit.ts), pointed at the stand-in. @actions/github reads GITHUB_API_URL once, as it
// loads; each test's stand-in has a port of its own, so the client is given its address here instead.
// Also: the lines the action logged, as the runner reads them (what @actions/core wrote to stdout).
import * as actionsGitHub from '@actions/github'
import { vi } from 'vitest'
import { githubClient, type Octokit } from '../../src/github/octokit.js'
import { openGitHubSession, type GitHubSession } from '../../src/github/session.js'
import { startStandInGitHub } from './stand-in-github.js'

export type StandInGitHub = Awaited<ReturnType<typeof startStandInGitHub>>

/** The GitHub a run with token `ghs_unit` sees; `serverUrl` for its links. */
export const SERVER_URL = 'https://github.com'
export const TOKEN = 'ghs_unit'

/** A stand-in GitHub with `options`, a session on it, and the client the session loads. */
export async function startUnitGitHub(
  options: Parameters<typeof startStandInGitHub>[0] = {}
): Promise<{ gh: StandInGitHub; session: GitHubSession; octokit: Octokit }> {
  const gh = await startStandInGitHub(options)
  const octokit = clientFor(gh.apiUrl)
  const session: GitHubSession = {
    ...openGitHubSession(TOKEN, { serverUrl: SERVER_URL, apiUrl: gh.apiUrl }),
    client: async () => octokit
  }
  return { gh, session, octokit }
}

/** The action's own client (with its hooks and log), sending to `apiUrl`. */
export function clientFor(apiUrl: string): Octokit {
  const github = {
    ...actionsGitHub,
    getOctokit: (token: string, options: Parameters<typeof actionsGitHub.getOctokit>[1]) =>
      actionsGitHub.getOctokit(token, { ...options, baseUrl: apiUrl })
  } as typeof actionsGitHub
  return githubClient(github, TOKEN)
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
