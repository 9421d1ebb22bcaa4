// @ts-check
// A stand-in for the part of GitHub's REST API that a comment-triggered run uses: reactions on an
// issue comment, and comments created and updated on an issue or pull request. A real HTTP server
// on 127.0.0.1, Node's built-ins only, like ./stand-in-service.js; it records every request, and
// can answer every request with an error (a token without `issues: write`, a server that is down).
//
// It also writes the event payloads the runner hands an action (GITHUB_EVENT_PATH), so that a test
// reads as "this comment, by this person, on this thread".
import http from 'node:http'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * @typedef {object} RecordedRequest
 * @property {string} method
 * @property {string} path The path without the API's base path.
 * @property {Record<string, string | string[] | undefined>} headers
 * @property {any} body The JSON body, parsed (undefined when there is none).
 *
 * @typedef {object} Reaction
 * @property {number} commentId
 * @property {string} content
 *
 * @typedef {object} ThreadComment
 * @property {number} id
 * @property {number} issueNumber
 * @property {string} body The body as it is now.
 * @property {string[]} bodies Every body it has had, the first as created.
 *
 * @typedef {object} Options
 * @property {string} [basePath] Where the API lives on the server: '' as on github.com,
 *   '/api/v3' as on GitHub Enterprise Server.
 * @property {{status: number, message: string}} [failAll] Answer every request with this error.
 * @property {boolean} [hang] Never answer any request (until the server closes).
 * @property {string} [host] Default 127.0.0.1.
 */

/**
 * Starts the stand-in on 127.0.0.1, on a free port.
 * @param {Options} [options]
 */
export async function startStandInGitHub(options = {}) {
  const basePath = options.basePath ?? ''
  /** @type {RecordedRequest[]} */
  const requests = []
  /** @type {Reaction[]} */
  const reactions = []
  /** @type {Map<number, ThreadComment>} */
  const comments = new Map()
  let nextId = 9000

  /** @param {RecordedRequest} req @returns {{status: number, body: object}} */
  function answer(req) {
    if (options.failAll) {
      return {
        status: options.failAll.status,
        body: { message: options.failAll.message, documentation_url: 'https://docs.github.com/rest' }
      }
    }
    let match = /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)\/reactions$/.exec(req.path)
    if (match && req.method === 'POST') {
      reactions.push({ commentId: Number(match[3]), content: req.body?.content })
      return { status: 201, body: { id: nextId++, content: req.body?.content } }
    }
    match = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(req.path)
    if (match && req.method === 'POST') {
      const comment = {
        id: nextId++,
        issueNumber: Number(match[3]),
        body: String(req.body?.body),
        bodies: [String(req.body?.body)]
      }
      comments.set(comment.id, comment)
      return { status: 201, body: describe(match[1], match[2], comment) }
    }
    match = /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)$/.exec(req.path)
    if (match && req.method === 'PATCH') {
      const comment = comments.get(Number(match[3]))
      if (!comment) return { status: 404, body: { message: 'Not Found' } }
      comment.body = String(req.body?.body)
      comment.bodies.push(comment.body)
      return { status: 200, body: describe(match[1], match[2], comment) }
    }
    return { status: 404, body: { message: 'Not Found' } }
  }

  /** @param {string} owner @param {string} repo @param {ThreadComment} comment */
  function describe(owner, repo, comment) {
    return {
      id: comment.id,
      body: comment.body,
      html_url: `https://github.example/${owner}/${repo}/issues/${comment.issueNumber}#issuecomment-${comment.id}`
    }
  }

  const server = http.createServer((incoming, res) => {
    /** @type {Buffer[]} */
    const chunks = []
    incoming.on('data', (c) => chunks.push(c))
    incoming.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const url = incoming.url ?? ''
      /** @type {RecordedRequest} */
      const req = {
        method: incoming.method ?? '',
        path: url.startsWith(basePath) ? url.slice(basePath.length) : url,
        headers: incoming.headers,
        body: text ? JSON.parse(text) : undefined
      }
      requests.push(req)
      if (options.hang) return
      const { status, body } = url.startsWith(basePath) ? answer(req) : { status: 404, body: { message: 'Not Found' } }
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
      res.end(JSON.stringify(body))
    })
  })
  const host = options.host ?? '127.0.0.1'
  await new Promise((resolve) => server.listen(0, host, () => resolve(undefined)))
  const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port

  return {
    /** The API's address, as GITHUB_API_URL gives it. */
    apiUrl: `http://${host}:${port}${basePath}`,
    port,
    requests,
    reactions,
    /** The comments the action wrote, in the order they were created. */
    get comments() {
      return [...comments.values()]
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve(undefined))
        // Requests left hanging would hold the close forever.
        server.closeAllConnections()
      })
  }
}

/** @typedef {Awaited<ReturnType<typeof startStandInGitHub>>} StandInGitHub */

/**
 * @typedef {object} CommentEventOptions
 * @property {string} body The comment's text.
 * @property {string} [action] 'created' (default), 'edited' or 'deleted'.
 * @property {string} [association] The author's author_association (default 'OWNER').
 * @property {string} [login] The author (default 'octo-maintainer').
 * @property {'User' | 'Bot'} [userType] Default 'User'.
 * @property {boolean} [onPullRequest] The thread is a pull request, not an issue.
 * @property {number} [number] The issue or pull request number (default 12).
 * @property {string} [title] Its title.
 * @property {number} [commentId] Default 4242.
 * @property {string} [repository] owner/name (default 'octo-org/docs-site').
 */

/**
 * An issue_comment event payload, shaped as GitHub sends it (the fields this action reads, and a
 * few around them).
 * @param {CommentEventOptions} options
 */
export function issueCommentEvent(options) {
  const repository = options.repository ?? 'octo-org/docs-site'
  const number = options.number ?? 12
  const kind = options.onPullRequest ? 'pull' : 'issues'
  const login = options.login ?? 'octo-maintainer'
  return {
    action: options.action ?? 'created',
    issue: {
      number,
      title: options.title ?? 'Retries are not documented',
      html_url: `https://github.com/${repository}/${kind}/${number}`,
      user: { login: 'someone-else', type: 'User' },
      ...(options.onPullRequest
        ? { pull_request: { url: `https://api.github.com/repos/${repository}/pulls/${number}` } }
        : {})
    },
    comment: {
      id: options.commentId ?? 4242,
      body: options.body,
      html_url: `https://github.com/${repository}/${kind}/${number}#issuecomment-${options.commentId ?? 4242}`,
      author_association: options.association ?? 'OWNER',
      user: { login, type: options.userType ?? 'User' }
    },
    repository: { full_name: repository, name: repository.split('/')[1], owner: { login: repository.split('/')[0] } },
    sender: { login, type: options.userType ?? 'User' }
  }
}

/** @type {string[]} */
const eventDirs = []

/**
 * Writes an event payload to a file of its own, as the runner does, and returns its path.
 * @param {object} payload
 */
export function writeEventFile(payload) {
  const dir = mkdtempSync(join(tmpdir(), 'docs-agent-event-'))
  eventDirs.push(dir)
  const path = join(dir, 'event.json')
  writeFileSync(path, JSON.stringify(payload))
  return path
}

/** Removes every file writeEventFile wrote. */
export function removeEventFiles() {
  for (const dir of eventDirs.splice(0)) rmSync(dir, { recursive: true, force: true })
}
