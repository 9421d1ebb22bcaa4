// The GitHub client (Octokit) of a comment-triggered run (and the link to the run it writes), made in one place: with the action's
// User-Agent, and with its logging going through log.ts instead of the console. Octokit writes a
// deprecation notice with console.warn, quoting GitHub's `sunset` and `link` headers: outside text,
// on stderr, where the runner reads workflow commands too.
import { log } from '../runtime/log.js'
import { USER_AGENT } from '../runtime/version.js'
import { endedByTimeLimit, noteGitHubAnswered, noteGitHubSilent } from './silence.js'

type GitHub = typeof import('@actions/github')
export type Octokit = ReturnType<GitHub['getOctokit']>

/** Octokit's log, as neutralised lines: its warnings concern the action, not the workflow, so they are plain lines. */
const CLIENT_LOG = {
  debug: words(log.debug),
  info: words(log.debug),
  warn: words(log.info),
  error: words(log.warning)
}

/**
 * A client for GitHub's API at `apiUrl` (the runner's, read once: @actions/github would read
 * GITHUB_API_URL again for itself); `github` is @actions/github, loaded by the caller when it needs it.
 */
export function githubClient(github: GitHub, token: string, apiUrl: string): Octokit {
  const octokit = github.getOctokit(token, { baseUrl: apiUrl, userAgent: USER_AGENT, log: CLIENT_LOG })
  // @octokit/request logs to the console unless the request names a log of its own: the client's
  // `log` above is not handed down to it, so each request is given it here.
  octokit.hook.before('request', (options) => {
    options.request = { ...options.request, log: CLIENT_LOG }
  })
  // Whether GitHub answered, for the run's ending (silence.ts): an error with a response is an answer.
  octokit.hook.wrap('request', async (request, options) => {
    try {
      const answer = await request(options)
      noteGitHubAnswered()
      return answer
    } catch (error) {
      if ((error as { response?: unknown }).response !== undefined) noteGitHubAnswered()
      else if (endedByTimeLimit(options.request?.signal as AbortSignal | undefined)) noteGitHubSilent()
      throw error
    }
  })
  return octokit
}

/** Only the words of a log call: an object passed with them (a request's options) may hold the token. */
function words(write: (message: string) => void): (...args: unknown[]) => void {
  return (...args) => write(args.filter((arg) => typeof arg === 'string').join(' '))
}

/** The link to this workflow run (to the repository's Actions page without a usable run id). */
export function runLink(serverUrl: string, repository: string, runId: string | undefined): string {
  const base = `${serverUrl.replace(/\/+$/, '')}/${repository}/actions`
  return runId && /^\d+$/.test(runId) ? `${base}/runs/${runId}` : base
}
