// @ts-check
// A stand-in for the part of GitHub's REST API that the action uses: reactions on an issue comment
// or a review comment, comments created, listed and updated on an issue or pull request, replies
// to review comments, and who the token is (comment-triggered runs, the note on the agent's pull
// request); a pull request's details (the summary of a job that opened one); and the
// reads of the context for the agent: a workflow run, a workflow's runs, a comparison of two commits,
// a pull request's files, the releases; who may label (a collaborator's permission), reactions on an
// issue itself, and locked issues that refuse comments. A real HTTP server on 127.0.0.1, Node's built-ins only,
// like ./stand-in-service.js; it records every request, and can answer every request with an error
// (a token without `issues: write`, a server that is down), or one route with a fault of its own
// (403, 404, 422, a rate limit, an answer that never comes, a body of any text), or add headers of its
// own to every answer (a deprecation notice). It keeps labels on issues and pull requests too (added
// by the action, or there before the run), lists the open ones that carry a label
// (`GET …/issues?labels=…&state=open`), and knows each pull request's state (open, merged, closed),
// which a test may change between runs.
//
// It keeps its state for as long as it runs, so one stand-in serves many runs of the action (a
// hand-over, then reporting runs): comments can be deleted (by the action, or by someone with
// deleteComment); issues are read and edited (`GET`/`PATCH …/issues/{number}`: state, state_reason,
// locked, body, who opened it), locked and unlocked (a locked issue refuses outsiders, not the token),
// opened by someone else (addIssue: a triager's labelled issue) and closed as not planned (closeIssue);
// workflows are read and turned on and off (`…/actions/workflows/{id or file}`, `/enable`, `/disable`;
// 403 without `actions: write`), and a test's scheduler asks isWorkflowActive before it starts a
// scheduled run; commit statuses are listed and combined, so a write can be read back. A fault can be
// `made: true`: the write is done and the answer is the fault, as GitHub sometimes answers 502 after
// the fact. A body past 65,536 characters is refused (422), as GitHub refuses it. Every route is one of GitHub's REST description (test/unit/project/stand-in-github.test.ts).
//
// It also writes the event payloads the runner hands an action (GITHUB_EVENT_PATH), so that a test
// reads as "this comment, by this person, on this thread", or "this push of these commits".
import { createHash } from 'node:crypto'
import http from 'node:http'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * @typedef {object} RecordedRequest
 * @property {string} method
 * @property {string} path The path without the API's base path, with its query.
 * @property {string} pathname The same without the query.
 * @property {Record<string, string>} query The query's parameters.
 * @property {Record<string, string | string[] | undefined>} headers
 * @property {any} body The JSON body, parsed (undefined when there is none).
 * @property {number} at When it arrived (Date.now()): the benchmark counts the reads before the create.
 *
 * @typedef {object} Reaction
 * @property {number} [commentId] The comment reacted to (not set for a reaction on an issue itself).
 * @property {number} [issueNumber] For a reaction on an issue or pull request itself (a label asked).
 * @property {string} content
 * @property {'review comment' | 'issue'} [on] Set for a reaction on a review comment (a comment on the
 *   diff), or on an issue or pull request itself.
 *
 * @typedef {object} ThreadComment
 * @property {number} id
 * @property {number} issueNumber The issue or pull request it is on.
 * @property {string} body The body as it is now.
 * @property {string[]} bodies Every body it has had, the first as created.
 * @property {number} [inReplyTo] For a reply to a review comment: the comment it answers.
 * @property {number} updatedAt When it was created or last edited (Date.now() time).
 *
 * @typedef {object} SeededComment A comment already on a thread, written by someone (or some bot).
 * @property {number} issueNumber
 * @property {string} body
 * @property {string} login
 * @property {'User' | 'Bot'} [type]
 * @property {number} [at] When it was last updated (Date.now() time; default an hour before the stand-in started).
 *
 * @typedef {object} ApiFile A changed file, as the compare and pull request files APIs list it.
 * @property {string} filename
 * @property {string} status added, modified, removed, renamed...
 * @property {number} additions
 * @property {number} deletions
 * @property {string} [patch] The diff hunks (GitHub leaves them out for binaries and huge diffs).
 * @property {string} [previous_filename] For a renamed file.
 *
 * @typedef {object} StandInCommit A commit of the repository's history.
 * @property {string} sha
 * @property {string} message
 * @property {{name: string, login?: string}} author
 * @property {ApiFile[]} files
 *
 * @typedef {object} WorkflowRun A run of a workflow, as the Actions API lists it (the fields read).
 * @property {number} id
 * @property {number} workflow_id
 * @property {string} path The workflow's file, `.github/workflows/docs.yml`.
 * @property {string} head_branch
 * @property {string} head_sha
 * @property {string} status queued, in_progress or completed.
 * @property {string | null} conclusion success, failure, cancelled... null while running.
 * @property {string} event
 *
 * @typedef {object} StandInRepository What the context reads of the repository (any owner/name).
 * @property {StandInCommit[]} [history] One line of history, oldest first.
 * @property {Record<string, string>} [refs] Branch and tag names, and the commit each points to.
 * @property {string[]} [forcePushed] Commits no longer in the history: a comparison from one is a 422.
 * @property {WorkflowRun[]} [workflowRuns] Newest first.
 * @property {Record<number, ApiFile[]>} [pullFiles] Each pull request's changed files.
 * @property {Record<number, object>} [pulls] Each pull request as `GET …/pulls/{number}` answers it
 *   (see apiPullRequest); a number not here is a 404.
 * @property {object[]} [releases] As GitHub lists them, newest first.
 *
 * @typedef {'reaction' | 'issue-reaction' | 'permission' | 'comment-create' | 'comment-update' | 'comment-list' | 'review-reaction' | 'review-reply' |
 *   'review-update' | 'user' | 'workflow-run' | 'workflow-runs' | 'compare' | 'pull-files' | 'releases' | 'pull' |
 *   'label-add' | 'issue-list' | 'issue-create' | 'comment-get' | 'status-create' | 'comment-delete' | 'issue-get' |
 *   'issue-update' | 'issue-lock' | 'issue-unlock' | 'workflow-list' | 'workflow-get' | 'workflow-enable' | 'workflow-disable' |
 *   'status-list' | 'status-combined'} Route
 * @typedef {'open' | 'draft' | 'merged' | 'closed'} PullState
 * @typedef {{id: number, sha: string, state: string, context: string, description: string | null, target_url: string | null}} CommitStatus
 * @typedef {{status: number, message?: string, body?: string, headers?: Record<string, string>,
 *   when?: (req: RecordedRequest) => boolean, times?: number, made?: boolean} | 'hang'} Fault
 *   An answer in place of the route's own: GitHub's error JSON with `message`, or `body` as it is
 *   (any text: a huge or hostile answer); or 'hang': the request is read and never answered. `when`
 *   picks the requests it applies to (default all), `times` how many of them (default every one).
 *   `made: true`: the route first does what it was asked (the comment is created, edited or deleted,
 *   the status set, the reaction given, the issue edited or locked, the workflow turned on or off), and
 *   the fault is the answer: GitHub making a write and answering 502 (the requests so answered are in
 *   `madeDespiteFault`).
 *
 * @typedef {object} StandInWorkflow A workflow of the repository, as the Actions API shows it.
 * @property {number} id
 * @property {string} path `.github/workflows/report-later.yml`; its file name finds it too.
 * @property {'active' | 'disabled_manually'} [state] Default 'active'.
 * @property {string} [name] Default: the file name without its extension.
 *
 * @typedef {object} IssueFacts What `GET …/issues/{number}` answers of an issue or pull request.
 * @property {string} title
 * @property {string} body
 * @property {'open' | 'closed'} state
 * @property {'completed' | 'not_planned' | 'reopened' | null} state_reason
 * @property {boolean} locked
 * @property {string} login Who opened it.
 * @property {'User' | 'Bot'} type
 *
 * @typedef {object} OutsiderIssue An issue opened (and maybe labelled) by someone, not by the action.
 * @property {string} [title] Default 'An older issue'.
 * @property {string} [body] Default ''.
 * @property {string} [login] Default 'octo-triager'.
 * @property {string[]} [labels] Put on it (by a triager, say).
 * @property {number} [number] Default: the next free number below those the action creates.
 *
 * @typedef {object} Options
 * @property {string} [basePath] Where the API lives on the server: '' as on github.com,
 *   '/api/v3' as on GitHub Enterprise Server.
 * @property {{status: number, message: string}} [failAll] Answer every request with this error.
 * @property {boolean} [hang] Never answer any request (until the server closes).
 * @property {Partial<Record<Route, Fault>>} [faults] Answer one route's requests with a fault.
 * @property {{rate: number, random: () => number, routes: Route[], fault?: Fault | (() => Fault)}} [randomFaults] Answer a
 *   share (`rate`) of the requests of `routes` with `fault` (default a 502; a function draws one per
 *   request, e.g. now a 502, now a write made and answered 502), drawing from `random` (seeded, in a
 *   test): GitHub failing now and then.
 * @property {Partial<Record<Route, {ms: number, times?: number, until?: Promise<unknown>}>>} [delays] Do what
 *   the route's first `times` requests (default 1) ask at once (a comment is made), but answer this much
 *   later (and not before `until` settles, when given: a test decides when): GitHub slow to answer.
 * @property {Record<string, string>} [headers] Added to every answer (e.g. GitHub's `deprecation`
 *   and `sunset`, which Octokit reports).
 * @property {StandInRepository} [repository] What the context's reads find.
 * @property {string} [tokenLogin] Who the comments the action writes are by (default 'github-actions[bot]').
 * @property {string} [user] What `GET /user` answers: this login; by default a 403, as GitHub answers a
 *   GITHUB_TOKEN (an installation token is no user).
 * @property {SeededComment[]} [threadComments] Comments on the threads before the run.
 * @property {Record<string, string>} [permissions] Each login's role on the repository (admin, maintain,
 *   write, triage, read), as `GET …/collaborators/{login}/permission` answers; anyone else reads `read`.
 * @property {number[]} [lockedIssues] Issues that refuse new comments from the action (403), as a locked
 *   issue does to a token without write access; they read `locked: true`. An issue locked through the API
 *   (`PUT …/lock`, or lockIssue) refuses outsiders only: the token is a collaborator with write.
 * @property {StandInWorkflow[]} [workflows] The repository's workflows (besides `.github/workflows/docs.yml`,
 *   id 161335, active, unless given here).
 * @property {boolean} [actionsWrite] Whether the token may turn workflows on and off (`actions: write`);
 *   default true. False: `PUT …/enable` and `/disable` answer 403 "Resource not accessible by integration".
 * @property {number[]} [issues] Numbers that are issues, not pull requests: the issues list shows them
 *   without a `pull_request` key, and `GET …/pulls/{number}` is a 404 for them. Every other labelled
 *   number is a pull request.
 * @property {Record<number, string[]>} [labels] Labels on issues and pull requests before the run, by number.
 * @property {Record<number, PullState>} [pullStates] Each pull request's state (default open); a number
 *   here and not in `repository.pulls` is read as `apiPullRequest` makes it.
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
  const tokenLogin = options.tokenLogin ?? 'github-actions[bot]'
  /** @type {(ThreadComment & {login: string, type: string})[]} */
  const seeded = (options.threadComments ?? []).map((c) => ({
    id: nextId++,
    issueNumber: c.issueNumber,
    body: c.body,
    bodies: [c.body],
    // Written before the run (an hour before, unless said), as a thread's earlier comments were.
    updatedAt: c.at ?? Date.now() - 3_600_000,
    login: c.login,
    type: c.type ?? (c.login.endsWith('[bot]') ? 'Bot' : 'User')
  }))
  const repository = options.repository ?? {}
  /** @type {http.ServerResponse[]} */
  const hanging = []
  /** @type {Map<Route | null, number>} How many requests of each route were answered late (delays). */
  const delayed = new Map()
  /** @type {Map<number, string[]>} The labels on each issue or pull request, in the order added. */
  const labels = new Map(Object.entries(options.labels ?? {}).map(([n, names]) => [Number(n), [...names]]))
  /** @type {Map<number, PullState>} */
  const pullStates = new Map(Object.entries(options.pullStates ?? {}).map(([n, state]) => [Number(n), state]))
  const issueNumbers = new Set(options.issues ?? [])
  /** @type {RecordedRequest[]} The requests answered with a random fault. */
  const randomlyFaulted = []
  // Set by hangFromNow(): GitHub stops answering in the middle of a run.
  let silent = false
  /** @type {Map<object, number>} How many requests each fault with `times` has answered. */
  const faultsGiven = new Map()
  /**
   * Whether a fault answers this request (its `when`, within its `times`), counting it when it does.
   * @param {Exclude<Fault, 'hang'>} fault @param {RecordedRequest} req
   */
  function applies(fault, req) {
    if (fault.when && !fault.when(req)) return false
    const given = faultsGiven.get(fault) ?? 0
    if (fault.times !== undefined && given >= fault.times) return false
    faultsGiven.set(fault, given + 1)
    return true
  }

  /** @type {Map<string, {id: number, content: string, created_at: string}>} Reactions given, by place and content. */
  const given = new Map()
  /** @type {Map<number, {title: string, body: string}>} Issues created through the API (not pull requests). */
  const issues = new Map()
  let nextIssue = 500
  /** @type {CommitStatus[]} Every commit status set, oldest first. */
  const statuses = []
  /** @type {Set<number>} Comments deleted (by the action or by someone else): gone from lists, a 404 to read, edit or react to. */
  const deletedIds = new Set()
  /** @type {(ThreadComment & {login: string, type: string})[]} The comments deleted, as they were. */
  const deletedComments = []
  /** @type {RecordedRequest[]} The requests whose write was made and answered with a fault (`made: true`). */
  const madeDespiteFault = []
  /** @type {Map<number, IssueFacts>} Each issue or pull request read or written through the issues API. */
  const issueFacts = new Map()
  const lockedByOption = new Set(options.lockedIssues ?? [])
  let nextOutsiderIssue = 100
  /** @type {Map<number, Required<StandInWorkflow>>} */
  const workflows = new Map()
  for (const w of [{ id: 161335, path: '.github/workflows/docs.yml' }, ...(options.workflows ?? [])]) {
    const name =
      w.path
        .split('/')
        .at(-1)
        ?.replace(/\.ya?ml$/, '') ?? String(w.id)
    for (const [id, known] of workflows) if (known.path === w.path) workflows.delete(id)
    workflows.set(w.id, { state: 'active', name, ...w })
  }

  /** A workflow by its id or its file name (`report-later.yml`), as the Actions API finds it. @param {string} key */
  function workflowOf(key) {
    return [...workflows.values()].find((w) => String(w.id) === key || w.path.split('/').at(-1) === key)
  }

  /** A workflow as the Actions API shows it. @param {string} owner @param {string} repo @param {Required<StandInWorkflow>} w */
  function describeWorkflow(owner, repo, w) {
    return {
      id: w.id,
      node_id: `W_${w.id}`,
      name: w.name,
      path: w.path,
      state: w.state,
      created_at: '2026-11-01T10:00:00Z',
      updated_at: '2026-11-01T10:00:00Z',
      url: `https://api.github.example/repos/${owner}/${repo}/actions/workflows/${w.id}`,
      html_url: `https://github.example/${owner}/${repo}/blob/main/${w.path}`,
      badge_url: `https://github.example/${owner}/${repo}/workflows/${encodeURIComponent(w.name)}/badge.svg`
    }
  }

  /** Whether a comment is on the stand-in now (not deleted), anyone's. @param {number} id */
  function commentById(id) {
    if (deletedIds.has(id)) return undefined
    return comments.get(id) ?? seeded.find((c) => c.id === id)
  }

  /**
   * Deletes a comment (anyone's); false when there is none of that id.
   * @param {number} id
   */
  function removeComment(id) {
    const own = comments.get(id)
    const at = seeded.findIndex((c) => c.id === id)
    if (deletedIds.has(id) || (!own && at < 0)) return false
    deletedIds.add(id)
    if (own) {
      comments.delete(id)
      deletedComments.push({ ...own, login: tokenLogin, type: 'Bot' })
    } else {
      deletedComments.push(...seeded.splice(at, 1))
    }
    return true
  }

  /** Whether a number is a pull request (labelled or given a state, and not said to be an issue). @param {number} number */
  function isPull(number) {
    if (issues.has(number) || issueNumbers.has(number)) return false
    return labels.has(number) || pullStates.has(number) || repository.pulls?.[number] !== undefined
  }

  /**
   * The facts of an issue or pull request the stand-in knows of: created, said to exist (issues,
   * labels, pullStates, repository.pulls), or holding a comment. Undefined for any other number (a 404).
   * @param {number} number
   * @returns {IssueFacts | undefined}
   */
  function factsOf(number) {
    const known = issueFacts.get(number)
    if (known) return known
    const commented = [...seeded, ...comments.values()].some((c) => c.issueNumber === number)
    if (!issues.has(number) && !issueNumbers.has(number) && !isPull(number) && !commented) return undefined
    /** @type {IssueFacts} */
    const facts = {
      title: isPull(number) ? 'Document the --dry-run flag' : 'Retries are not documented',
      body: '',
      state: 'open',
      state_reason: null,
      locked: lockedByOption.has(number),
      // Said to exist (labelled before the run): by the token, as the issues list has always shown them;
      // known only by its comments (the thread of an event): by someone else.
      ...(issueNumbers.has(number) || labels.has(number)
        ? { login: tokenLogin, type: /** @type {const} */ ('Bot') }
        : { login: 'someone-else', type: /** @type {const} */ ('User') })
    }
    issueFacts.set(number, facts)
    return facts
  }

  /** Whether an issue or pull request is open now. @param {number} number */
  function isOpenNow(number) {
    if (isPull(number) && !issueFacts.has(number)) return isOpen(pullStates.get(number))
    return factsOf(number)?.state !== 'closed'
  }

  /**
   * An issue (or a pull request) as `GET …/issues/{number}` answers it.
   * @param {string} owner @param {string} repo @param {number} number
   */
  function describeIssue(owner, repo, number) {
    const facts = /** @type {IssueFacts} */ (factsOf(number))
    const pull = isPull(number)
    return {
      id: 700000 + number,
      number,
      title: facts.title,
      body: facts.body,
      state: isOpenNow(number) ? 'open' : 'closed',
      state_reason: facts.state_reason,
      locked: facts.locked,
      active_lock_reason: facts.locked ? 'resolved' : null,
      html_url: `https://github.example/${owner}/${repo}/${pull ? 'pull' : 'issues'}/${number}`,
      labels: (labels.get(number) ?? []).map((name) => ({ name })),
      user: { login: facts.login, type: facts.type },
      comments: [...seeded, ...comments.values()].filter((c) => c.issueNumber === number && c.inReplyTo === undefined)
        .length,
      ...(pull
        ? {
            pull_request: {
              url: `https://api.github.example/repos/${owner}/${repo}/pulls/${number}`,
              html_url: `https://github.example/${owner}/${repo}/pull/${number}`,
              merged_at: pullStates.get(number) === 'merged' ? '2026-11-02T11:00:00Z' : null
            }
          }
        : {})
    }
  }

  /**
   * Reads and edits of an issue itself, its lock, and comment deletion.
   * @param {RecordedRequest} req
   * @returns {{status: number, body: object | string} | null}
   */
  function answerIssue(req) {
    let match = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)$/.exec(req.pathname)
    if (match && (req.method === 'GET' || req.method === 'PATCH')) {
      const number = Number(match[3])
      const facts = factsOf(number)
      if (!facts) return notFound()
      if (req.method === 'PATCH') {
        const body = req.body ?? {}
        if (body.state !== undefined && body.state !== 'open' && body.state !== 'closed') {
          return { status: 422, body: { message: 'Validation Failed' } }
        }
        if (typeof body.title === 'string') facts.title = body.title
        if (typeof body.body === 'string' || body.body === null) facts.body = body.body ?? ''
        if (body.state) {
          facts.state = body.state
          facts.state_reason = body.state === 'closed' ? (body.state_reason ?? 'completed') : 'reopened'
          if (isPull(number)) pullStates.set(number, body.state === 'closed' ? 'closed' : 'open')
        } else if (body.state_reason !== undefined) {
          facts.state_reason = body.state_reason
        }
        const made = issues.get(number)
        if (made) Object.assign(made, { title: facts.title, body: facts.body })
      }
      return { status: 200, body: describeIssue(match[1], match[2], number) }
    }
    match = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/lock$/.exec(req.pathname)
    if (match && (req.method === 'PUT' || req.method === 'DELETE')) {
      const facts = factsOf(Number(match[3]))
      if (!facts) return notFound()
      facts.locked = req.method === 'PUT'
      return { status: 204, body: '' }
    }
    match = /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)$/.exec(req.pathname)
    if (match && req.method === 'DELETE') {
      return removeComment(Number(match[3])) ? { status: 204, body: '' } : notFound()
    }
    return null
  }

  /**
   * The Actions API's workflows: listed, read, turned on and off (with `actions: write`).
   * @param {RecordedRequest} req
   * @returns {{status: number, body: object | string} | null}
   */
  function answerWorkflow(req) {
    let match = /^\/repos\/([^/]+)\/([^/]+)\/actions\/workflows$/.exec(req.pathname)
    if (match && req.method === 'GET') {
      const all = [...workflows.values()].map((w) => describeWorkflow(match?.[1] ?? '', match?.[2] ?? '', w))
      return { status: 200, body: { total_count: all.length, workflows: all } }
    }
    match = /^\/repos\/([^/]+)\/([^/]+)\/actions\/workflows\/([^/]+)$/.exec(req.pathname)
    if (match && req.method === 'GET') {
      const w = workflowOf(decodeURIComponent(match[3]))
      return w ? { status: 200, body: describeWorkflow(match[1], match[2], w) } : notFound()
    }
    match = /^\/repos\/([^/]+)\/([^/]+)\/actions\/workflows\/([^/]+)\/(enable|disable)$/.exec(req.pathname)
    if (match && req.method === 'PUT') {
      if (options.actionsWrite === false) {
        return {
          status: 403,
          body: {
            message: 'Resource not accessible by integration',
            documentation_url: 'https://docs.github.com/rest/actions/workflows#enable-a-workflow',
            status: '403'
          }
        }
      }
      const w = workflowOf(decodeURIComponent(match[3]))
      if (!w) return notFound()
      w.state = match[4] === 'enable' ? 'active' : 'disabled_manually'
      return { status: 204, body: '' }
    }
    return null
  }

  /**
   * A reaction, as GitHub answers: 201 when it is new, 200 with the one given before when the same
   * identity already reacted so (an atomic claim for whoever gets the 201).
   * @param {string} key @param {string} content
   */
  function giveReaction(key, content) {
    const before = given.get(key)
    if (before) return { status: 200, body: { ...before, user: { login: tokenLogin, type: 'Bot' } } }
    const reaction = { id: nextId++, content, created_at: new Date().toISOString() }
    given.set(key, reaction)
    return { status: 201, body: { ...reaction, user: { login: tokenLogin, type: 'Bot' } } }
  }

  /**
   * The writes beyond comments: an issue created (with its labels), a comment read by its id, a commit
   * status set and listed (per sha and context the newest wins, listed newest first).
   * @param {RecordedRequest} req
   * @returns {{status: number, body: object | string, headers?: Record<string, string>} | null}
   */
  function answerWrite(req) {
    let match = /^\/repos\/([^/]+)\/([^/]+)\/issues$/.exec(req.pathname)
    if (match && req.method === 'POST') {
      const number = nextIssue++
      const title = String(req.body?.title ?? '')
      issues.set(number, { title, body: String(req.body?.body ?? '') })
      // Opened by the token's identity: the action can tell an issue it made from one someone else made.
      issueFacts.set(number, {
        title,
        body: String(req.body?.body ?? ''),
        state: 'open',
        state_reason: null,
        locked: false,
        login: tokenLogin,
        type: 'Bot'
      })
      const names = Array.isArray(req.body?.labels) ? req.body.labels.map(String) : []
      labels.set(number, [...names])
      return { status: 201, body: listedIssue(match[1], match[2], number, names) }
    }
    match = /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)$/.exec(req.pathname)
    if (match && req.method === 'GET') {
      const id = Number(match[3])
      const comment = commentById(id)
      if (!comment || comment.inReplyTo !== undefined) return notFound()
      return { status: 200, body: describe(match[1], match[2], comment) }
    }
    match = /^\/repos\/([^/]+)\/([^/]+)\/statuses\/([0-9a-f]{40})$/.exec(req.pathname)
    if (match && req.method === 'POST') {
      const state = String(req.body?.state)
      if (!['pending', 'success', 'failure', 'error'].includes(state)) {
        return { status: 422, body: { message: 'Validation Failed' } }
      }
      /** @type {CommitStatus} */
      const status = {
        id: nextId++,
        sha: match[3],
        state,
        context: String(req.body?.context ?? 'default'),
        description: req.body?.description ?? null,
        target_url: req.body?.target_url ?? null
      }
      statuses.push(status)
      return { status: 201, body: status }
    }
    match = /^\/repos\/([^/]+)\/([^/]+)\/commits\/([^/]+)\/(statuses|status)$/.exec(req.pathname)
    if (match && req.method === 'GET') {
      const ref = decodeURIComponent(match[3])
      const sha = repository.refs?.[ref] ?? ref
      // Newest first, as GitHub lists them.
      const all = statuses.filter((s) => s.sha === sha).reverse()
      const perPage = Math.min(100, Number(req.query.per_page ?? 30))
      const page = Number(req.query.page ?? 1)
      if (match[4] === 'statuses') {
        return {
          status: 200,
          body: all.slice((page - 1) * perPage, page * perPage),
          headers: pageLinks(req, page, perPage, all.length)
        }
      }
      // Combined: the newest per context; failure over pending over success, pending when there is none.
      /** @type {Map<string, CommitStatus>} */
      const latest = new Map()
      for (const s of all) if (!latest.has(s.context)) latest.set(s.context, s)
      const states = [...latest.values()].map((s) => s.state)
      const state = states.some((s) => s === 'failure' || s === 'error')
        ? 'failure'
        : states.length === 0 || states.includes('pending')
          ? 'pending'
          : 'success'
      return {
        status: 200,
        body: {
          state,
          sha,
          total_count: latest.size,
          statuses: [...latest.values()].slice((page - 1) * perPage, page * perPage),
          repository: { full_name: `${match[1]}/${match[2]}` },
          commit_url: `https://api.github.example/repos/${match[1]}/${match[2]}/commits/${sha}`,
          url: `https://api.github.example/repos/${match[1]}/${match[2]}/commits/${sha}/status`
        }
      }
    }
    return null
  }

  /** An issue (not a pull request) as the issues list shows it. @param {string} owner @param {string} repo @param {number} number @param {string[]} names */
  function listedIssue(owner, repo, number, names) {
    return {
      number,
      title: issues.get(number)?.title ?? '',
      // As GitHub lists an issue: its body too (the index is known by the marker in it).
      body: factsOf(number)?.body ?? issues.get(number)?.body ?? '',
      state: isOpenNow(number) ? 'open' : 'closed',
      state_reason: factsOf(number)?.state_reason ?? null,
      locked: factsOf(number)?.locked ?? false,
      html_url: `https://github.example/${owner}/${repo}/issues/${number}`,
      labels: names.map((name) => ({ name })),
      user: { login: factsOf(number)?.login ?? tokenLogin, type: factsOf(number)?.type ?? 'Bot' }
    }
  }

  /**
   * @param {RecordedRequest} req
   * @returns {{status: number, body: object | string, headers?: Record<string, string>} | 'hang'}
   */
  function answer(req) {
    if (options.failAll) {
      return {
        status: options.failAll.status,
        body: { message: options.failAll.message, documentation_url: 'https://docs.github.com/rest' }
      }
    }
    const route = routeOf(req)
    const chaos = options.randomFaults
    const drawn =
      route && chaos?.routes.includes(route) && chaos.random() < chaos.rate
        ? ((typeof chaos.fault === 'function' ? chaos.fault() : chaos.fault) ?? {
            status: 502,
            message: 'Server Error'
          })
        : undefined
    if (drawn) randomlyFaulted.push(req)
    const fault = drawn ?? (route && options.faults?.[route])
    if (fault === 'hang') return 'hang'
    if (fault && applies(fault, req)) {
      if (fault.made && answerRoute(route, req).status < 300) madeDespiteFault.push(req)
      return {
        status: fault.status,
        headers: fault.headers,
        body: fault.body ?? { message: fault.message ?? 'Error', documentation_url: 'https://docs.github.com/rest' }
      }
    }
    return answerRoute(route, req)
  }

  /**
   * What the route does and answers, with no fault.
   * @param {Route | null} route
   * @param {RecordedRequest} req
   * @returns {{status: number, body: object | string, headers?: Record<string, string>}}
   */
  function answerRoute(route, req) {
    // As GitHub refuses a comment's or an issue's body past 65,536 characters.
    const bodied = ['comment-create', 'comment-update', 'review-reply', 'review-update', 'issue-create', 'issue-update']
    if (route && bodied.includes(route) && typeof req.body?.body === 'string' && req.body.body.length > MAX_BODY) {
      return {
        status: 422,
        body: {
          message: 'Validation Failed',
          errors: [
            {
              resource: route.startsWith('issue') ? 'Issue' : 'IssueComment',
              code: 'custom',
              field: 'body',
              message: `body is too long (maximum is ${MAX_BODY} characters)`
            }
          ],
          documentation_url: 'https://docs.github.com/rest'
        }
      }
    }
    const read = route && answerRead(route, req)
    if (read) return read
    let match = /^\/repos\/([^/]+)\/([^/]+)\/(issues|pulls)\/comments\/(\d+)\/reactions$/.exec(req.path)
    if (match && req.method === 'POST') {
      if (deletedIds.has(Number(match[4]))) return notFound()
      const on = match[3] === 'pulls' ? { on: /** @type {const} */ ('review comment') } : {}
      reactions.push({ commentId: Number(match[4]), content: req.body?.content, ...on })
      return giveReaction(`${match[3]}:${match[4]}:${req.body?.content}`, String(req.body?.content))
    }
    match = /^\/repos\/([^/]+)\/([^/]+)\/(issues|pulls)\/comments\/(\d+)\/reactions\/(\d+)$/.exec(req.path)
    if (match && req.method === 'DELETE') {
      const key = [...given.entries()].find(
        ([k, r]) => k.startsWith(`${match?.[3]}:${match?.[4]}:`) && r.id === Number(match?.[5])
      )?.[0]
      if (!key) return notFound()
      given.delete(key)
      return { status: 204, body: '' }
    }
    const written = answerWrite(req) ?? answerIssue(req) ?? answerWorkflow(req)
    if (written) return written
    match = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/reactions$/.exec(req.path)
    if (match && req.method === 'POST') {
      reactions.push({ issueNumber: Number(match[3]), content: req.body?.content, on: 'issue' })
      return {
        status: 201,
        body: { id: nextId++, content: req.body?.content, user: { login: tokenLogin, type: 'Bot' } }
      }
    }
    match = /^\/repos\/([^/]+)\/([^/]+)\/collaborators\/([^/]+)\/permission$/.exec(req.pathname)
    if (match && req.method === 'GET') {
      const role = options.permissions?.[decodeURIComponent(match[3])] ?? 'read'
      const permission = role === 'maintain' ? 'write' : role === 'triage' ? 'read' : role
      return { status: 200, body: { permission, role_name: role, user: { login: decodeURIComponent(match[3]) } } }
    }
    if (req.pathname === '/user' && req.method === 'GET') {
      return options.user
        ? { status: 200, body: { login: options.user, type: 'User' } }
        : { status: 403, body: { message: 'Resource not accessible by integration' } }
    }
    match = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(req.pathname)
    if (match && req.method === 'GET') {
      // At most 100 a page, as GitHub answers.
      const perPage = Math.min(100, Number(req.query.per_page ?? 30))
      const page = Number(req.query.page ?? 1)
      const all = [...seeded, ...[...comments.values()].map((c) => ({ ...c, login: tokenLogin, type: 'Bot' }))]
        .filter((c) => c.issueNumber === Number(match?.[3]) && c.inReplyTo === undefined)
        .sort((a, b) => a.id - b.id)
        // As GitHub does: `since` keeps those updated at or after it (still oldest first).
        .filter((c) => !req.query.since || c.updatedAt >= Date.parse(req.query.since))
      const body = all
        .slice((page - 1) * perPage, page * perPage)
        .map((c) => describe(match?.[1] ?? '', match?.[2] ?? '', c))
      return { status: 200, body, headers: pageLinks(req, page, perPage, all.length) }
    }
    match = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(req.path)
    // The option's locked issues refuse even the action (a token without write); one locked through the
    // API refuses outsiders only (addComment), as the token is a collaborator with write.
    if (match && req.method === 'POST' && lockedByOption.has(Number(match[3]))) {
      return { status: 403, body: { message: 'Unable to create comment because issue is locked.' } }
    }
    if (match && req.method === 'POST') {
      const comment = {
        id: nextId++,
        issueNumber: Number(match[3]),
        body: String(req.body?.body),
        bodies: [String(req.body?.body)],
        updatedAt: Date.now()
      }
      comments.set(comment.id, comment)
      return { status: 201, body: describe(match[1], match[2], comment) }
    }
    match = /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)\/comments\/(\d+)\/replies$/.exec(req.path)
    if (match && req.method === 'POST') {
      const comment = {
        id: nextId++,
        issueNumber: Number(match[3]),
        inReplyTo: Number(match[4]),
        body: String(req.body?.body),
        bodies: [String(req.body?.body)],
        updatedAt: Date.now()
      }
      comments.set(comment.id, comment)
      return { status: 201, body: describe(match[1], match[2], comment) }
    }
    match = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/labels$/.exec(req.path)
    if (match && req.method === 'POST') {
      const number = Number(match[3])
      const names = Array.isArray(req.body?.labels) ? req.body.labels.map(String) : []
      const on = labels.get(number) ?? []
      for (const name of names) if (!on.includes(name)) on.push(name)
      labels.set(number, on)
      return { status: 200, body: on.map((name) => ({ name })) }
    }
    match = /^\/repos\/([^/]+)\/([^/]+)\/issues$/.exec(req.pathname)
    if (match && req.method === 'GET') {
      const [owner, repo] = [match[1], match[2]]
      const wanted = (req.query.labels ?? '').split(',').filter(Boolean)
      const state = req.query.state ?? 'open'
      const perPage = Math.min(100, Number(req.query.per_page ?? 30))
      const page = Number(req.query.page ?? 1)
      // Newest first, as GitHub sorts by default (created, descending).
      const all = [...labels.entries()]
        .filter(([, names]) => wanted.every((name) => names.includes(name)))
        .map(([number, names]) => ({ number, names, open: isOpenNow(number) }))
        .filter((entry) => state === 'all' || (state === 'open') === entry.open)
        .sort((a, b) => b.number - a.number)
      const listed = all
        .slice((page - 1) * perPage, page * perPage)
        .map(({ number, names, open }) =>
          issues.has(number) || issueNumbers.has(number)
            ? listedIssue(owner, repo, number, names)
            : listedPull(owner, repo, number, names, open)
        )
      return { status: 200, body: listed, headers: pageLinks(req, page, perPage, all.length) }
    }
    match = /^\/repos\/([^/]+)\/([^/]+)\/(?:issues|pulls)\/comments\/(\d+)$/.exec(req.path)
    if (match && req.method === 'PATCH') {
      const comment = commentById(Number(match[3]))
      if (!comment) return { status: 404, body: { message: 'Not Found' } }
      comment.body = String(req.body?.body)
      comment.bodies.push(comment.body)
      comment.updatedAt = Date.now()
      return { status: 200, body: describe(match[1], match[2], comment) }
    }
    return { status: 404, body: { message: 'Not Found' } }
  }

  /**
   * The context's reads, from `options.repository`.
   * @param {Route} route
   * @param {RecordedRequest} req
   * @returns {{status: number, body: object} | null}
   */
  function answerRead(route, req) {
    const parts = req.pathname.split('/').map(decodeURIComponent)
    const query = req.query
    const perPage = Number(query.per_page ?? 30)
    const page = Number(query.page ?? 1)
    /** @param {any[]} list */
    const paged = (list) => list.slice((page - 1) * perPage, page * perPage)
    switch (route) {
      case 'workflow-run': {
        const run = (repository.workflowRuns ?? []).find((r) => String(r.id) === parts[6])
        return run ? { status: 200, body: run } : notFound()
      }
      case 'workflow-runs': {
        const workflow = parts[6]
        const runs = (repository.workflowRuns ?? []).filter(
          (r) =>
            (String(r.workflow_id) === workflow || r.path.endsWith(`/${workflow}`)) &&
            (!query.branch || r.head_branch === query.branch) &&
            (!query.status || r.conclusion === query.status || r.status === query.status)
        )
        return { status: 200, body: { total_count: runs.length, workflow_runs: paged(runs) } }
      }
      case 'compare':
        return compare(req.pathname.slice(req.pathname.indexOf('/compare/') + '/compare/'.length))
      case 'pull-files': {
        const files = repository.pullFiles?.[Number(parts[5])]
        return files ? { status: 200, body: paged(files) } : notFound()
      }
      case 'releases':
        return { status: 200, body: paged(repository.releases ?? []) }
      case 'pull': {
        const number = Number(parts[5])
        const state = pullStates.get(number) ?? (labels.has(number) && !issueNumbers.has(number) ? 'open' : undefined)
        const pull =
          repository.pulls?.[number] ??
          (state ? apiPullRequest({ number, state, repository: `${parts[2]}/${parts[3]}` }) : undefined)
        return pull ? { status: 200, body: pull } : notFound()
      }
      default:
        return null
    }
  }

  /** @param {string} range `base...head`, each a commit id or a branch or tag name (URL-encoded). */
  function compare(range) {
    const [base, head] = range.split('...').map(decodeURIComponent)
    const history = repository.history ?? []
    /** @param {string} ref */
    const indexOf = (ref) => {
      const id = repository.refs?.[ref] ?? ref
      return history.findIndex((c) => c.sha === id || (id.length >= 7 && c.sha.startsWith(id)))
    }
    const from = indexOf(base)
    const to = indexOf(head)
    if (from < 0 && (repository.forcePushed ?? []).some((id) => id.startsWith(base))) {
      return { status: 422, body: { message: `No common ancestor between ${base} and ${head}.` } }
    }
    if (from < 0 || to < 0) return notFound()
    const commits = to > from ? history.slice(from + 1, to + 1) : []
    /** @type {Map<string, ApiFile>} */
    const files = new Map()
    for (const commit of commits) {
      for (const file of commit.files) {
        const earlier = files.get(file.filename)
        files.set(
          file.filename,
          earlier
            ? {
                ...file,
                status: earlier.status === 'added' ? 'added' : file.status,
                additions: earlier.additions + file.additions,
                deletions: earlier.deletions + file.deletions,
                patch: earlier.patch && file.patch ? `${earlier.patch}\n${file.patch}` : undefined
              }
            : { ...file }
        )
      }
    }
    return {
      status: 200,
      body: {
        status: to > from ? 'ahead' : to === from ? 'identical' : 'behind',
        ahead_by: Math.max(0, to - from),
        behind_by: Math.max(0, from - to),
        total_commits: commits.length,
        // As GitHub does: at most 250 commits and 300 files.
        commits: commits.slice(0, 250).map((c) => ({
          sha: c.sha,
          commit: { message: c.message, author: { name: c.author.name, email: 'someone@example.com' } },
          author: c.author.login ? { login: c.author.login } : null
        })),
        files: [...files.values()].slice(0, 300)
      }
    }
  }

  /**
   * A pull request as the issues list shows it.
   * @param {string} owner @param {string} repo @param {number} number @param {string[]} names @param {boolean} open
   */
  function listedPull(owner, repo, number, names, open) {
    const merged = pullStates.get(number) === 'merged'
    return {
      number,
      title: 'Document the --dry-run flag',
      state: open ? 'open' : 'closed',
      html_url: `https://github.example/${owner}/${repo}/pull/${number}`,
      labels: names.map((name) => ({ name })),
      user: { login: tokenLogin, type: 'Bot' },
      pull_request: {
        url: `https://api.github.example/repos/${owner}/${repo}/pulls/${number}`,
        html_url: `https://github.example/${owner}/${repo}/pull/${number}`,
        merged_at: merged ? '2026-11-02T11:00:00Z' : null
      }
    }
  }

  /** @param {string} owner @param {string} repo @param {ThreadComment & {login?: string, type?: string}} comment */
  function describe(owner, repo, comment) {
    const url =
      comment.inReplyTo === undefined
        ? `https://github.example/${owner}/${repo}/issues/${comment.issueNumber}#issuecomment-${comment.id}`
        : `https://github.example/${owner}/${repo}/pull/${comment.issueNumber}#discussion_r${comment.id}`
    return {
      id: comment.id,
      body: comment.body,
      html_url: url,
      user: { login: comment.login ?? tokenLogin, type: comment.type ?? 'Bot' },
      ...(comment.inReplyTo === undefined ? {} : { in_reply_to_id: comment.inReplyTo })
    }
  }

  const server = http.createServer((incoming, res) => {
    /** @type {Buffer[]} */
    const chunks = []
    incoming.on('data', (c) => chunks.push(c))
    incoming.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const url = incoming.url ?? ''
      const path = url.startsWith(basePath) ? url.slice(basePath.length) : url
      const parsed = new URL(path, 'http://stand-in')
      /** @type {RecordedRequest} */
      const req = {
        method: incoming.method ?? '',
        path,
        pathname: parsed.pathname,
        query: Object.fromEntries(parsed.searchParams),
        headers: incoming.headers,
        body: text ? JSON.parse(text) : undefined,
        at: Date.now()
      }
      requests.push(req)
      const answered = options.hang || silent ? 'hang' : url.startsWith(basePath) ? answer(req) : notFound()
      if (answered === 'hang') {
        hanging.push(res)
        return
      }
      const { status, body, headers } = answered
      const reply = () => {
        if (res.destroyed) return
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...options.headers, ...headers })
        res.end(typeof body === 'string' ? body : JSON.stringify(body))
      }
      const route = routeOf(req)
      const delay = route ? options.delays?.[route] : undefined
      if (delay && (delayed.get(route) ?? 0) < (delay.times ?? 1)) {
        delayed.set(route, (delayed.get(route) ?? 0) + 1)
        hanging.push(res)
        const late = new Promise((resolve) => setTimeout(resolve, delay.ms).unref())
        void Promise.all([late, delay.until]).then(reply, reply)
        return
      }
      reply()
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
    /** The requests of the context's reads (workflow runs, compare, pull request files, releases). */
    get reads() {
      const context = ['workflow-run', 'workflow-runs', 'compare', 'pull-files', 'releases']
      return requests.filter((r) => r.method === 'GET' && context.includes(routeOf(r) ?? ''))
    },
    /** The requests whose write was made and then answered with a fault (`made: true`): GitHub's 502 after the fact. */
    madeDespiteFault,
    /** The comments deleted (through the API or deleteComment), as they were, in the order deleted. */
    deletedComments,
    /**
     * Someone deletes a comment (the one that asked, say), as a person can on GitHub; false when no
     * comment of that id is there.
     * @param {number} id
     */
    deleteComment: (id) => removeComment(id),
    /**
     * Someone (a person, not the action) opens an issue, labelled or not: a triager putting a label on
     * an older issue. Returns its number.
     * @param {OutsiderIssue} [issue]
     */
    addIssue: (issue = {}) => {
      let number = issue.number
      if (number === undefined) {
        while (factsOf(nextOutsiderIssue) || labels.has(nextOutsiderIssue)) nextOutsiderIssue++
        number = nextOutsiderIssue++
      }
      issueNumbers.add(number)
      issueFacts.set(number, {
        title: issue.title ?? 'An older issue',
        body: issue.body ?? '',
        state: 'open',
        state_reason: null,
        locked: false,
        login: issue.login ?? 'octo-triager',
        type: 'User'
      })
      if (issue.labels) labels.set(number, [...issue.labels])
      return number
    },
    /**
     * Someone closes an issue (as not planned, by default) and may lock it: a request withdrawn.
     * @param {number} number @param {{reason?: 'completed' | 'not_planned', lock?: boolean}} [how]
     */
    closeIssue: (number, how = {}) => {
      const facts = factsOf(number)
      if (!facts) throw new Error(`the stand-in GitHub knows no issue #${number}`)
      facts.state = 'closed'
      facts.state_reason = how.reason ?? 'not_planned'
      if (how.lock) facts.locked = true
      if (isPull(number)) pullStates.set(number, 'closed')
    },
    /** Someone with write access locks an issue's conversation: outsiders can no longer comment. @param {number} number */
    lockIssue: (number) => {
      const facts = factsOf(number)
      if (!facts) throw new Error(`the stand-in GitHub knows no issue #${number}`)
      facts.locked = true
    },
    /**
     * An issue or pull request as `GET …/issues/{number}` answers it now, or undefined when unknown.
     * @param {number} number
     */
    issue: (number) => (factsOf(number) ? describeIssue('octo-org', 'docs-site', number) : undefined),
    /**
     * A workflow by its id or file name (`report-later.yml`), as the Actions API shows it, or undefined.
     * @param {number | string} key
     */
    workflow: (key) => {
      const w = workflowOf(String(key))
      return w ? { ...w } : undefined
    },
    /**
     * Whether a workflow would start a run now: GitHub starts none, scheduled or other, for a disabled
     * one. A test's scheduler asks this before it starts a scheduled run.
     * @param {number | string} key
     */
    isWorkflowActive: (key) => workflowOf(String(key))?.state === 'active',
    /**
     * Turns a workflow on or off, as a maintainer does in the Actions tab.
     * @param {number | string} key @param {'active' | 'disabled_manually'} state
     */
    setWorkflowState: (key, state) => {
      const w = workflowOf(String(key))
      if (!w) throw new Error(`the stand-in GitHub knows no workflow ${key}`)
      w.state = state
    },
    /** The requests answered with a random fault (randomFaults). */
    randomlyFaulted,
    /**
     * Adds labels to an issue or pull request between runs (`issue`: it is an issue, not a pull request).
     * @param {number} number @param {string[]} names @param {{issue?: boolean}} [as]
     */
    addLabels: (number, names, as = {}) => {
      const on = labels.get(number) ?? []
      for (const name of names) if (!on.includes(name)) on.push(name)
      labels.set(number, on)
      if (as.issue) issueNumbers.add(number)
    },
    /**
     * Makes every reaction given so far `ms` older, as time passing between runs would: a claim left by
     * a run that never finished lapses.
     * @param {number} ms
     */
    ageReactions: (ms) => {
      for (const reaction of given.values()) {
        reaction.created_at = new Date(Date.parse(reaction.created_at) - ms).toISOString()
      }
    },
    /** Every commit status set, oldest first; per (sha, context) the newest is the one GitHub shows. */
    get statuses() {
      return [...statuses]
    },
    /** The issues created through the API, by number. */
    get issues() {
      return [...issues.entries()].map(([number, issue]) => ({ number, ...issue, labels: labels.get(number) ?? [] }))
    },
    /** Every comment on a thread now (seeded ones and the action's), oldest first, with who wrote it. */
    get allComments() {
      return [...seeded, ...[...comments.values()].map((c) => ({ ...c, login: tokenLogin, type: 'Bot' }))].sort(
        (a, b) => a.id - b.id
      )
    },
    /** The labels on each issue or pull request, by number. */
    labelsOf: (/** @type {number} */ number) => [...(labels.get(number) ?? [])],
    /**
     * Sets a pull request's state, as a merge or a close between runs does.
     * @param {number} number @param {PullState} state
     */
    setPullState: (number, state) => void pullStates.set(number, state),
    /** The listings of issues and pull requests by label (`GET …/issues?labels=…`). */
    get labelReads() {
      return requests.filter((r) => routeOf(r) === 'issue-list')
    },
    /** The reads of a pull request's details (`GET …/pulls/{number}`). */
    get pullReads() {
      return requests.filter((r) => routeOf(r) === 'pull')
    },
    /** The reads of a thread's comments, of who the token is, and of a labeller's permission. */
    get threadReads() {
      return requests.filter(isThreadRead)
    },
    /**
     * Someone (not the action) comments on a thread between runs; returns the comment's id.
     * @param {SeededComment} comment
     */
    addComment: (comment) => {
      // A locked conversation refuses anyone without write access, as GitHub does.
      const facts = issueFacts.get(comment.issueNumber)
      const role = options.permissions?.[comment.login] ?? 'read'
      if (
        (facts?.locked || lockedByOption.has(comment.issueNumber)) &&
        !['admin', 'maintain', 'write'].includes(role)
      ) {
        throw new Error(`issue #${comment.issueNumber} is locked: GitHub refuses a comment from ${comment.login}`)
      }
      const id = nextId++
      seeded.push({
        id,
        issueNumber: comment.issueNumber,
        body: comment.body,
        bodies: [comment.body],
        updatedAt: comment.at ?? Date.now(),
        login: comment.login,
        type: comment.type ?? (comment.login.endsWith('[bot]') ? 'Bot' : 'User')
      })
      return id
    },
    /** Every comment on a thread, anyone's, oldest first: what a person scrolling it sees. */
    threadComments: (/** @type {number} */ issueNumber) =>
      [...seeded, ...[...comments.values()].map((c) => ({ ...c, login: tokenLogin, type: 'Bot' }))]
        .filter((c) => c.issueNumber === issueNumber && c.inReplyTo === undefined)
        .sort((a, b) => a.id - b.id),
    /** From now on, never answer any request (until the server closes): GitHub gone silent mid-run. */
    hangFromNow: () => {
      silent = true
    },
    close: () =>
      new Promise((resolve) => {
        for (const res of hanging.splice(0)) res.destroy()
        server.close(() => resolve(undefined))
        // Requests left hanging would hold the close forever.
        server.closeAllConnections()
      })
  }
}

/** The longest body GitHub takes for a comment or an issue, in characters. */
export const MAX_BODY = 65_536

/** @param {RecordedRequest} req */
function isThreadRead(req) {
  const route = routeOf(req)
  return route === 'comment-list' || route === 'comment-get' || route === 'user' || route === 'permission'
}

/** @param {PullState | undefined} state */
function isOpen(state) {
  return state === undefined || state === 'open' || state === 'draft'
}

/**
 * GitHub's `Link` header for one page of a list of `total` items: `next` and `last` while pages
 * follow, `prev` and `first` after the first (no header when the list fits one page).
 * @param {RecordedRequest} req @param {number} page @param {number} perPage @param {number} total
 * @returns {Record<string, string>}
 */
export function pageLinks(req, page, perPage, total) {
  const last = Math.max(1, Math.ceil(total / perPage))
  if (last === 1) return {}
  /** @param {number} n @param {string} rel */
  const link = (n, rel) => {
    const url = new URL(`https://api.github.example${req.pathname}`)
    for (const [name, value] of Object.entries(req.query)) url.searchParams.set(name, value)
    url.searchParams.set('page', String(n))
    return `<${url.href}>; rel="${rel}"`
  }
  const links = []
  if (page > 1) links.push(link(page - 1, 'prev'))
  if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'))
  if (page > 1) links.push(link(1, 'first'))
  return { link: links.join(', ') }
}

/** @returns {{status: number, body: object, headers?: Record<string, string>}} */
function notFound() {
  return { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } }
}

/** Every route the stand-in serves: its method, its path, its name (faults and delays name it). */
const ROUTES = /** @type {[string, RegExp, Route][]} */ ([
  ['POST', /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/\d+\/reactions$/, 'reaction'],
  ['POST', /^\/repos\/[^/]+\/[^/]+\/issues\/\d+\/reactions$/, 'issue-reaction'],
  ['GET', /^\/repos\/[^/]+\/[^/]+\/collaborators\/[^/]+\/permission$/, 'permission'],
  ['POST', /^\/repos\/[^/]+\/[^/]+\/issues\/\d+\/comments$/, 'comment-create'],
  ['PATCH', /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/\d+$/, 'comment-update'],
  ['GET', /^\/repos\/[^/]+\/[^/]+\/issues\/\d+\/comments$/, 'comment-list'],
  ['POST', /^\/repos\/[^/]+\/[^/]+\/pulls\/comments\/\d+\/reactions$/, 'review-reaction'],
  ['POST', /^\/repos\/[^/]+\/[^/]+\/pulls\/\d+\/comments\/\d+\/replies$/, 'review-reply'],
  ['PATCH', /^\/repos\/[^/]+\/[^/]+\/pulls\/comments\/\d+$/, 'review-update'],
  ['GET', /^\/user$/, 'user'],
  ['GET', /^\/repos\/[^/]+\/[^/]+\/actions\/runs\/\d+$/, 'workflow-run'],
  ['GET', /^\/repos\/[^/]+\/[^/]+\/actions\/workflows\/[^/]+\/runs$/, 'workflow-runs'],
  ['GET', /^\/repos\/[^/]+\/[^/]+\/compare\/.+\.\.\..+$/, 'compare'],
  ['GET', /^\/repos\/[^/]+\/[^/]+\/pulls\/\d+\/files$/, 'pull-files'],
  ['GET', /^\/repos\/[^/]+\/[^/]+\/releases$/, 'releases'],
  ['GET', /^\/repos\/[^/]+\/[^/]+\/pulls\/\d+$/, 'pull'],
  ['POST', /^\/repos\/[^/]+\/[^/]+\/issues\/\d+\/labels$/, 'label-add'],
  ['GET', /^\/repos\/[^/]+\/[^/]+\/issues$/, 'issue-list'],
  ['POST', /^\/repos\/[^/]+\/[^/]+\/issues$/, 'issue-create'],
  ['GET', /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/\d+$/, 'comment-get'],
  ['POST', /^\/repos\/[^/]+\/[^/]+\/statuses\/[0-9a-f]+$/, 'status-create'],
  ['DELETE', /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/\d+$/, 'comment-delete'],
  ['GET', /^\/repos\/[^/]+\/[^/]+\/issues\/\d+$/, 'issue-get'],
  ['PATCH', /^\/repos\/[^/]+\/[^/]+\/issues\/\d+$/, 'issue-update'],
  ['PUT', /^\/repos\/[^/]+\/[^/]+\/issues\/\d+\/lock$/, 'issue-lock'],
  ['DELETE', /^\/repos\/[^/]+\/[^/]+\/issues\/\d+\/lock$/, 'issue-unlock'],
  ['GET', /^\/repos\/[^/]+\/[^/]+\/actions\/workflows$/, 'workflow-list'],
  ['GET', /^\/repos\/[^/]+\/[^/]+\/actions\/workflows\/[^/]+$/, 'workflow-get'],
  ['PUT', /^\/repos\/[^/]+\/[^/]+\/actions\/workflows\/[^/]+\/enable$/, 'workflow-enable'],
  ['PUT', /^\/repos\/[^/]+\/[^/]+\/actions\/workflows\/[^/]+\/disable$/, 'workflow-disable'],
  ['GET', /^\/repos\/[^/]+\/[^/]+\/commits\/[^/]+\/statuses$/, 'status-list'],
  ['GET', /^\/repos\/[^/]+\/[^/]+\/commits\/[^/]+\/status$/, 'status-combined']
])

/** The name of every route the stand-in serves (a contract test holds each to GitHub's REST description). */
export const ROUTE_NAMES = ROUTES.map(([, , name]) => name)

/**
 * Which route a request is for, by method and path (exported for the contract test).
 * @param {RecordedRequest} req
 * @returns {Route | null}
 */
export function routeOf(req) {
  const found = ROUTES.find(([method, pattern]) => method === req.method && pattern.test(req.pathname))
  return found ? found[2] : null
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

/**
 * @typedef {object} IssuesEventOptions An issue labelled (or opened with its labels).
 * @property {string} [action] 'labeled' (default), 'opened', 'unlabeled', 'edited'...
 * @property {number} [number] Default 12.
 * @property {string} [title] Default 'Retries are not documented'.
 * @property {string | null} [body] Default: a short request.
 * @property {string} [author] Who wrote the issue (default 'someone-else').
 * @property {string} [authorAssociation] The author's author_association (default 'NONE').
 * @property {string} [labeller] Who added the label, the event's sender (default 'octo-maintainer').
 * @property {'User' | 'Bot'} [labellerType] Default 'User'.
 * @property {string} [label] Default 'docs'.
 * @property {boolean} [locked]
 * @property {string} [repository] Default 'octo-org/docs-site'.
 */

/**
 * An issues event payload (labeled, opened...), shaped as GitHub sends it.
 * @param {IssuesEventOptions} [options]
 */
export function issuesEvent(options = {}) {
  const repository = options.repository ?? 'octo-org/docs-site'
  const number = options.number ?? 12
  const label = { name: options.label ?? 'docs', color: '0e8a16' }
  const action = options.action ?? 'labeled'
  const labeller = action === 'opened' ? (options.author ?? 'someone-else') : (options.labeller ?? 'octo-maintainer')
  return {
    action,
    issue: {
      number,
      title: options.title ?? 'Retries are not documented',
      body: options.body === undefined ? 'The retry policy of the client is not described anywhere.' : options.body,
      html_url: `https://github.com/${repository}/issues/${number}`,
      state: 'open',
      locked: options.locked ?? false,
      labels: [label],
      author_association: options.authorAssociation ?? 'NONE',
      user: { login: options.author ?? 'someone-else', type: 'User' }
    },
    ...(action === 'labeled' || action === 'unlabeled' ? { label } : {}),
    repository: repositoryOf(repository),
    sender: { login: labeller, type: options.labellerType ?? 'User' }
  }
}

/**
 * @typedef {object} ReviewCommentEventOptions A comment on a line (or lines) of a pull request's diff.
 * @property {string} body
 * @property {string} [action] Default 'created'.
 * @property {string} [association] Default 'OWNER'.
 * @property {string} [login] Default 'octo-maintainer'.
 * @property {'User' | 'Bot'} [userType]
 * @property {number} [number] The pull request (default 31).
 * @property {string} [title]
 * @property {number} [commentId] Default 5151.
 * @property {number} [inReplyTo] The first comment of the review thread, for a reply.
 * @property {string} [path] Default 'docs/cli.md'.
 * @property {number | null} [line] Default 14.
 * @property {number | null} [startLine] For a comment on several lines.
 * @property {'LEFT' | 'RIGHT'} [side] Default 'RIGHT'.
 * @property {string} [diffHunk]
 * @property {string} [repository]
 */

/**
 * A pull_request_review_comment event payload.
 * @param {ReviewCommentEventOptions} options
 */
export function reviewCommentEvent(options) {
  const repository = options.repository ?? 'octo-org/docs-site'
  const number = options.number ?? 31
  const id = options.commentId ?? 5151
  const login = options.login ?? 'octo-maintainer'
  return {
    action: options.action ?? 'created',
    comment: {
      id,
      body: options.body,
      path: options.path ?? 'docs/cli.md',
      line: options.line === undefined ? 14 : options.line,
      start_line: options.startLine ?? null,
      original_line: options.line === undefined ? 14 : options.line,
      side: options.side ?? 'RIGHT',
      diff_hunk:
        options.diffHunk ?? '@@ -10,4 +10,5 @@ Usage\n   --quiet   print less\n+  --dry-run print what would change',
      ...(options.inReplyTo ? { in_reply_to_id: options.inReplyTo } : {}),
      html_url: `https://github.com/${repository}/pull/${number}#discussion_r${id}`,
      author_association: options.association ?? 'OWNER',
      user: { login, type: options.userType ?? 'User' }
    },
    pull_request: pullRequestOf(repository, number, options.title),
    repository: repositoryOf(repository),
    sender: { login, type: options.userType ?? 'User' }
  }
}

/**
 * @typedef {object} ReviewEventOptions A review's body, as submitted.
 * @property {string | null} body
 * @property {string} [action] Default 'submitted'.
 * @property {string} [state] Default 'commented'.
 * @property {string} [association] Default 'OWNER'.
 * @property {string} [login] Default 'octo-maintainer'.
 * @property {number} [number] The pull request (default 31).
 * @property {number} [reviewId] Default 6161.
 * @property {string} [repository]
 */

/**
 * A pull_request_review event payload.
 * @param {ReviewEventOptions} options
 */
export function reviewEvent(options) {
  const repository = options.repository ?? 'octo-org/docs-site'
  const number = options.number ?? 31
  const login = options.login ?? 'octo-maintainer'
  return {
    action: options.action ?? 'submitted',
    review: {
      id: options.reviewId ?? 6161,
      body: options.body,
      state: options.state ?? 'commented',
      html_url: `https://github.com/${repository}/pull/${number}#pullrequestreview-${options.reviewId ?? 6161}`,
      author_association: options.association ?? 'OWNER',
      user: { login, type: 'User' }
    },
    pull_request: pullRequestOf(repository, number),
    repository: repositoryOf(repository),
    sender: { login, type: 'User' }
  }
}

/** @param {string} repository @param {number} number @param {string} [title] */
function pullRequestOf(repository, number, title) {
  return {
    number,
    title: title ?? 'Document the --dry-run flag',
    body: 'Written by the documentation agent.',
    html_url: `https://github.com/${repository}/pull/${number}`,
    user: { login: 'docs-agent-bot', type: 'Bot' }
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

/**
 * The environment the runner gives a step for an event: the event's name and payload (in a file of
 * its own), where the run is, and the stand-in as GitHub's API. A run of the workflow
 * `.github/workflows/docs.yml` of octo-org/docs-site on main, at the push's `after` when there is one.
 * @param {{apiUrl: string}} github
 * @param {string} eventName
 * @param {object} payload
 * @param {Record<string, string>} [extra] Added to, or in place of, any of these variables.
 * @returns {Record<string, string>}
 */
export function runnerEnvironment(github, eventName, payload, extra = {}) {
  const repository = extra.GITHUB_REPOSITORY ?? 'octo-org/docs-site'
  const after = /** @type {{after?: unknown}} */ (payload).after
  return {
    GITHUB_EVENT_NAME: eventName,
    GITHUB_EVENT_PATH: writeEventFile(payload),
    GITHUB_API_URL: github.apiUrl,
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_REPOSITORY: repository,
    GITHUB_RUN_ID: '4711',
    GITHUB_REF: 'refs/heads/main',
    GITHUB_REF_NAME: 'main',
    GITHUB_SHA: typeof after === 'string' ? after : commitId('head'),
    GITHUB_WORKFLOW_REF: `${repository}/.github/workflows/docs.yml@refs/heads/main`,
    ...extra
  }
}

/** Removes every file writeEventFile wrote. */
export function removeEventFiles() {
  for (const dir of eventDirs.splice(0)) rmSync(dir, { recursive: true, force: true })
}

/**
 * A commit id made from a label, the same every time: `commitId('one')`.
 * @param {string} label
 */
export function commitId(label) {
  return createHash('sha1').update(label).digest('hex')
}

/** The `before` of a push that created its branch, and the `after` of one that deleted it. */
export const ZERO_SHA = '0'.repeat(40)

/**
 * A changed file, as the compare and pull request files APIs list it.
 * @param {string} filename
 * @param {Partial<ApiFile>} [fields] Default: modified, +3 -1, with a small patch.
 * @returns {ApiFile}
 */
export function changedFile(filename, fields = {}) {
  const additions = fields.additions ?? 3
  const deletions = fields.deletions ?? 1
  return {
    filename,
    status: 'modified',
    additions,
    deletions,
    patch:
      `@@ -1,${deletions} +1,${additions} @@\n${'-old line\n'.repeat(deletions)}${'+new line\n'.repeat(additions)}`.trimEnd(),
    ...fields
  }
}

/**
 * A commit for a stand-in history; its id comes from its message unless given.
 * @param {string} message
 * @param {ApiFile[]} [files]
 * @param {Partial<StandInCommit>} [fields]
 * @returns {StandInCommit}
 */
export function standInCommit(message, files = [], fields = {}) {
  return { sha: commitId(message), message, author: { name: 'Mona Lisa', login: 'mona' }, files, ...fields }
}

/**
 * A run of a workflow, as the Actions API lists it.
 * @param {Partial<WorkflowRun> & {id: number, head_sha: string}} fields
 * @returns {WorkflowRun}
 */
export function workflowRun(fields) {
  return {
    workflow_id: 161335,
    path: '.github/workflows/docs.yml',
    head_branch: 'main',
    status: 'completed',
    conclusion: 'success',
    event: 'push',
    ...fields
  }
}

/**
 * @typedef {object} PushEventOptions
 * @property {string} [branch] Default 'main'.
 * @property {string} [ref] The full ref, when it is not a branch (refs/tags/v1).
 * @property {string} [before] Default: the commit before the first of `commits`, or zeros.
 * @property {string} [after] Default: the last of `commits`.
 * @property {StandInCommit[]} [commits] The pushed commits, oldest first.
 * @property {boolean} [created] A new branch (before is zeros).
 * @property {boolean} [deleted] The branch was deleted (after is zeros).
 * @property {boolean} [forced]
 * @property {boolean} [withPaths] The commits list added, removed and modified paths (default true).
 * @property {string} [repository] Default 'octo-org/docs-site'.
 * @property {string} [defaultBranch] Default 'main'.
 */

/**
 * A push event payload, shaped as GitHub sends it.
 * @param {PushEventOptions} options
 */
export function pushEvent(options = {}) {
  const repository = options.repository ?? 'octo-org/docs-site'
  const commits = options.commits ?? []
  const after = options.deleted ? ZERO_SHA : (options.after ?? commits.at(-1)?.sha ?? commitId('head'))
  const before = options.created ? ZERO_SHA : (options.before ?? commitId('before'))
  const withPaths = options.withPaths ?? true
  // The push event has no renames: a renamed file is added under its new name, removed under its old.
  /** @param {StandInCommit} c @param {string} status */
  const paths = (c, status) => [
    ...c.files.filter((f) => f.status === status).map((f) => f.filename),
    ...(status === 'added' ? c.files.filter((f) => f.status === 'renamed').map((f) => f.filename) : []),
    ...(status === 'removed' ? c.files.filter((f) => f.status === 'renamed').map((f) => f.previous_filename ?? '') : [])
  ]
  return {
    ref: options.ref ?? `refs/heads/${options.branch ?? 'main'}`,
    before,
    after,
    created: options.created ?? false,
    deleted: options.deleted ?? false,
    forced: options.forced ?? false,
    base_ref: null,
    compare: `https://github.com/${repository}/compare/${before.slice(0, 12)}...${after.slice(0, 12)}`,
    commits: commits.map((c) => ({
      id: c.sha,
      distinct: true,
      message: c.message,
      timestamp: '2026-11-02T10:00:00Z',
      url: `https://github.com/${repository}/commit/${c.sha}`,
      author: { name: c.author.name, email: 'someone@example.com', username: c.author.login },
      ...(withPaths ? { added: paths(c, 'added'), removed: paths(c, 'removed'), modified: paths(c, 'modified') } : {})
    })),
    head_commit: commits.length ? { id: commits.at(-1)?.sha, message: commits.at(-1)?.message } : null,
    pusher: { name: 'octo-pusher', email: 'pusher@example.com' },
    repository: repositoryOf(repository, options.defaultBranch),
    sender: { login: 'octo-pusher', type: 'User' }
  }
}

/**
 * @typedef {object} PullRequestEventOptions
 * @property {number} [number] Default 7.
 * @property {string} [title]
 * @property {string} [body]
 * @property {string} [action] Default 'opened'.
 * @property {string} [base] Default 'main'.
 * @property {string} [head] Default 'feature/dry-run'.
 * @property {string} [fork] The head repository's owner/name, when it is a fork.
 * @property {boolean} [merged]
 * @property {boolean} [draft]
 * @property {string} [headSha] The head commit (default `commitId('pr-head')`): each push to the pull request moves it.
 * @property {number} [changedFiles] Default 2.
 * @property {number} [additions] Default 6.
 * @property {number} [deletions] Default 2.
 * @property {number} [commits] Default 1.
 * @property {string} [login] The author (default 'octo-contributor').
 * @property {string} [association] The author's author_association (default 'CONTRIBUTOR').
 * @property {string} [labeller] For a `labeled` action: who added the label, the sender (default the author).
 * @property {'User' | 'Bot'} [labellerType]
 * @property {string} [repository] Default 'octo-org/docs-site'.
 */

/**
 * A pull_request (or pull_request_target) event payload.
 * @param {PullRequestEventOptions} options
 */
export function pullRequestEvent(options = {}) {
  const repository = options.repository ?? 'octo-org/docs-site'
  const number = options.number ?? 7
  const headRepository = options.fork ?? repository
  return {
    action: options.action ?? 'opened',
    number,
    pull_request: {
      number,
      title: options.title ?? 'Add a --dry-run flag',
      body: options.body ?? 'Adds `--dry-run`, which prints what would change.',
      html_url: `https://github.com/${repository}/pull/${number}`,
      state: options.merged || options.action === 'closed' ? 'closed' : 'open',
      draft: options.draft ?? false,
      merged: options.merged ?? false,
      user: { login: options.login ?? 'octo-contributor', type: 'User' },
      author_association: options.association ?? 'CONTRIBUTOR',
      base: { ref: options.base ?? 'main', sha: commitId('base'), repo: { full_name: repository } },
      head: {
        ref: options.head ?? 'feature/dry-run',
        sha: options.headSha ?? commitId('pr-head'),
        repo: { full_name: headRepository }
      },
      commits: options.commits ?? 1,
      changed_files: options.changedFiles ?? 2,
      additions: options.additions ?? 6,
      deletions: options.deletions ?? 2
    },
    ...(options.action === 'labeled' ? { label: { name: 'docs', color: '0e8a16' } } : {}),
    repository: repositoryOf(repository),
    sender: {
      login: options.labeller ?? options.login ?? 'octo-contributor',
      type: options.labellerType ?? 'User'
    }
  }
}

/**
 * @typedef {object} ReleaseEventOptions
 * @property {string} [tag] Default 'v1.2.0'.
 * @property {string} [name] Default 'Version 1.2.0'.
 * @property {string} [body] The notes.
 * @property {number} [id] Default 3002.
 * @property {boolean} [prerelease]
 * @property {string} [action] Default 'published'.
 * @property {string} [publishedAt] Default '2026-11-02T10:00:00Z'.
 * @property {string} [repository] Default 'octo-org/docs-site'.
 */

/**
 * A release event payload; `release` is also what the releases API lists for it.
 * @param {ReleaseEventOptions} options
 */
export function releaseEvent(options = {}) {
  const repository = options.repository ?? 'octo-org/docs-site'
  return {
    action: options.action ?? 'published',
    release: apiRelease({ ...options, repository }),
    repository: repositoryOf(repository),
    sender: { login: 'octo-maintainer', type: 'User' }
  }
}

/**
 * A release as the releases API lists it.
 * @param {ReleaseEventOptions & {draft?: boolean}} options
 */
export function apiRelease(options = {}) {
  const tag = options.tag ?? 'v1.2.0'
  return {
    id: options.id ?? 3002,
    tag_name: tag,
    name: options.name ?? `Version ${tag.replace(/^v/, '')}`,
    body: options.body ?? 'Adds the --dry-run flag.',
    draft: options.draft ?? false,
    prerelease: options.prerelease ?? false,
    created_at: options.publishedAt ?? '2026-11-02T10:00:00Z',
    published_at: options.publishedAt ?? '2026-11-02T10:00:00Z',
    html_url: `https://github.com/${options.repository ?? 'octo-org/docs-site'}/releases/tag/${tag}`
  }
}

/**
 * @typedef {object} ApiPullRequestOptions
 * @property {number} number
 * @property {string} [title] Default 'Document the --dry-run flag'.
 * @property {'open' | 'draft' | 'merged' | 'closed'} [state] Default 'open'.
 * @property {number} [changedFiles] Default 3.
 * @property {number} [additions] Default 42.
 * @property {number} [deletions] Default 7.
 * @property {string} [repository] Default 'octo-org/docs-site'.
 * @property {string} [serverUrl] Default 'https://github.com'.
 */

/**
 * A pull request as `GET /repos/{owner}/{repo}/pulls/{number}` answers (the fields around those read).
 * @param {ApiPullRequestOptions} options
 */
export function apiPullRequest(options) {
  const repository = options.repository ?? 'octo-org/docs-site'
  const state = options.state ?? 'open'
  const merged = state === 'merged'
  return {
    url: `https://api.github.com/repos/${repository}/pulls/${options.number}`,
    html_url: `${options.serverUrl ?? 'https://github.com'}/${repository}/pull/${options.number}`,
    number: options.number,
    state: state === 'open' || state === 'draft' ? 'open' : 'closed',
    draft: state === 'draft',
    merged,
    merged_at: merged ? '2026-11-02T11:00:00Z' : null,
    title: options.title ?? 'Document the --dry-run flag',
    body: 'Written by the documentation agent.',
    user: { login: 'docs-agent-bot', type: 'Bot' },
    head: { ref: 'docs-agent/dry-run', sha: commitId(`pull-${options.number}`), repo: { full_name: repository } },
    base: { ref: 'main', sha: commitId('base'), repo: { full_name: repository } },
    commits: 1,
    changed_files: options.changedFiles ?? 3,
    additions: options.additions ?? 42,
    deletions: options.deletions ?? 7
  }
}

/**
 * A workflow_dispatch event payload.
 * @param {{branch?: string, repository?: string}} [options]
 */
export function workflowDispatchEvent(options = {}) {
  const repository = options.repository ?? 'octo-org/docs-site'
  return {
    ref: `refs/heads/${options.branch ?? 'main'}`,
    inputs: {},
    repository: repositoryOf(repository),
    sender: { login: 'octo-maintainer', type: 'User' }
  }
}

/** @param {string} repository @param {string} [defaultBranch] */
function repositoryOf(repository, defaultBranch = 'main') {
  const [owner, name] = repository.split('/')
  return { full_name: repository, name, owner: { login: owner }, default_branch: defaultBranch }
}
