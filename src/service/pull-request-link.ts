// The prLink output ends up in workflows, and a workflow that pastes it into `run:` runs whatever
// it holds (`https://host/o/r/pull/7?$(curl ...)`). So only a link of the shape of a pull or merge
// request on a code host is passed on: https, a host name, path segments of letters, digits and
// . _ - only, ending in the kind of request and its number; no credentials, port, query or fragment.

// GitHub and Gitee /pull/7, Gitea and Forgejo /pulls/7, GitLab /-/merge_requests/7, Bitbucket
// /pull-requests/7, Azure DevOps /pullrequest/7.
const KINDS = ['pull', 'pulls', 'merge_requests', 'pull-requests', 'pullrequest']
const HOST = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/
const SEGMENT = /^[A-Za-z0-9._-]+$/
const NUMBER = /^[1-9][0-9]{0,9}$/
const MAX_LENGTH = 500

/**
 * The link, when it is one of a pull or merge request on a code host (see above); null otherwise.
 * It is checked as written, not as a URL parser would tidy it up, so that what is passed on is
 * exactly what was checked.
 */
export function pullRequestLink(value: string): string | null {
  if (value.length > MAX_LENGTH || !value.startsWith('https://')) return null
  const [host, ...segments] = value.slice('https://'.length).split('/')
  if (!HOST.test(host) || segments.length < 4) return null
  if (!segments.every((segment) => SEGMENT.test(segment) && segment !== '.' && segment !== '..')) return null
  const [kind, number] = segments.slice(-2)
  if (!KINDS.includes(kind) || !NUMBER.test(number)) return null
  // The URL parser must agree: the same link back, https, no credentials, port, query or fragment.
  try {
    const url = new URL(value)
    return url.href === value && url.protocol === 'https:' && url.hostname === host ? value : null
  } catch {
    return null
  }
}

/** The number of a pull request link pullRequestLink passed (its last segment); '' for none. */
export function pullRequestNumber(link: string | null): string {
  if (link === null || pullRequestLink(link) === null) return ''
  return link.slice(link.lastIndexOf('/') + 1)
}

/**
 * How a link pullRequestLink passed is named for a reader: `owner/repo#7` for one of the shape
 * `https://host/owner/repo/pull/7`, as GitHub names its pull requests; the link itself otherwise.
 */
export function pullRequestName(link: string): string {
  if (pullRequestLink(link) === null) return link
  const segments = link.slice('https://'.length).split('/')
  if (segments.length !== 5 || segments[3] !== 'pull') return link
  return `${segments[1]}/${segments[2]}#${segments[4]}`
}
