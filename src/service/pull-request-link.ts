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

/** What the link's host calls the request: GitLab's `merge_requests` a merge request, every other kind a pull request. */
export type RequestKind = 'pull request' | 'merge request'

/** What the link's host calls it (see RequestKind); a pull request for a link pullRequestLink refuses. */
export function requestKind(link: string | null): RequestKind {
  if (link === null || pullRequestLink(link) === null) return 'pull request'
  return link.split('/').at(-2) === 'merge_requests' ? 'merge request' : 'pull request'
}

/**
 * How a link pullRequestLink passed is named for a reader, as its host names it: `owner/repo#7` for
 * one of the shape `https://host/owner/repo/pull/7` (GitHub), `group/project!7` for a GitLab merge
 * request (`https://host/group/project/-/merge_requests/7`, subgroups included); the link itself otherwise.
 */
export function pullRequestName(link: string): string {
  if (pullRequestLink(link) === null) return link
  const segments = link.slice('https://'.length).split('/')
  if (segments.length === 5 && segments[3] === 'pull') return `${segments[1]}/${segments[2]}#${segments[4]}`
  const [dash, kind, number] = segments.slice(-3)
  if (kind === 'merge_requests' && dash === '-' && segments.length >= 6) {
    return `${segments.slice(1, -3).join('/')}!${number}`
  }
  return link
}

/**
 * The request's number as its host writes it in prose: `#7` for a pull request, `!7` for a GitLab
 * merge request; '' for none.
 */
export function requestNumber(link: string | null): string {
  const number = pullRequestNumber(link)
  if (!number) return ''
  return `${requestKind(link) === 'merge request' ? '!' : '#'}${number}`
}
