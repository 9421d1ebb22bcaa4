// Reading an issue_comment event: who may start a job with which comment, and the prompt it sends.
import { afterAll, describe, expect, it } from 'vitest'
import { decideComment, instructionAfter, readCommentRequest, type CommentRules } from '../../../src/thread/trigger.js'
import { isCommentEvent, readRunnerEvent } from '../../../src/github/event.js'
import { readRunner, type Runner } from '../../../src/github/runner.js'
import {
  issueCommentEvent,
  removeEventFiles,
  reviewCommentEvent,
  reviewEvent,
  writeEventFile
} from '../../support/stand-in-github.js'

afterAll(removeEventFiles)

/** decideComment over a payload, as the runner reads it for `eventName` (issue_comment by default). */
function decide(payload: unknown, { eventName = 'issue_comment', ...given }: CommentRules & { eventName?: string }) {
  const event = readRunnerEvent(eventName, payload)
  if (!isCommentEvent(event)) throw new Error(`${eventName} is not a comment event`)
  return decideComment(event, given)
}

/** readCommentRequest for the runner's comment event, as the comment's stage hands it over. */
function readRequest(given: Parameters<typeof readCommentRequest>[0], runner: Runner) {
  if (!isCommentEvent(runner.event)) throw new Error('not a comment event')
  return readCommentRequest(given, runner.event, runner)
}

/** A run of an issue_comment event with `payload` in its event file, and GITHUB_REPOSITORY unset. */
function runnerWithoutRepository(payload: object): Runner {
  return readRunner({
    GITHUB_EVENT_NAME: 'issue_comment',
    GITHUB_EVENT_PATH: writeEventFile(payload),
    GITHUB_SERVER_URL: 'https://github.example'
  })
}

const rules: CommentRules = {
  trigger: '/docs',
  allowedAssociations: ['OWNER', 'MEMBER', 'COLLABORATOR'],
  serverUrl: 'https://github.example',
  repository: 'octo-org/docs-site'
}

describe('instructionAfter', () => {
  it.each([
    ['/docs explain the retry policy', 'explain the retry policy'],
    ['  /docs   explain it  ', 'explain it'],
    ['/DOCS explain it', 'explain it'],
    ['/docs\r\nfirst line\r\nsecond line', 'first line\nsecond line'],
    ['/docs', ''],
    ['/docs   ', '']
  ])('%j gives %j', (body, expected) => {
    expect(instructionAfter(body, '/docs')).toBe(expected)
  })

  it.each(['please /docs explain it', '/docsify the readme', '/doc explain it', '', 'docs explain it'])(
    '%j is not an instruction',
    (body) => {
      expect(instructionAfter(body, '/docs')).toBeNull()
    }
  )
})

describe('decideComment', () => {
  it('starts a job for an owner: the prompt is the instruction (who asked where is in the context section)', () => {
    const decision = decide(
      issueCommentEvent({ body: '/docs explain the retry policy in the FAQ', number: 7, title: 'Retries?' }),
      rules
    )

    expect(decision).toEqual({
      start: true,
      prompt: 'explain the retry policy in the FAQ',
      fresh: false,
      comment: {
        id: 4242,
        kind: 'issue comment',
        author: 'octo-maintainer',
        repository: 'octo-org/docs-site',
        thread: {
          kind: 'issue',
          number: 7,
          title: 'Retries?',
          url: 'https://github.example/octo-org/docs-site/issues/7'
        }
      }
    })
  })

  it('knows a pull request thread from an issue', () => {
    const decision = decide(
      issueCommentEvent({ body: '/docs document this change', onPullRequest: true, number: 31 }),
      rules
    )

    expect(decision.start && decision.comment.thread).toMatchObject({
      kind: 'pull request',
      url: 'https://github.example/octo-org/docs-site/pull/31'
    })
    expect(decision.start && decision.prompt).toBe('document this change')
  })

  it.each(['OWNER', 'MEMBER', 'COLLABORATOR'])('starts a job for %s by default', (association) => {
    expect(decide(issueCommentEvent({ body: '/docs x', association }), rules).start).toBe(true)
  })

  it.each(['CONTRIBUTOR', 'FIRST_TIME_CONTRIBUTOR', 'FIRST_TIMER', 'NONE', 'MANNEQUIN'])(
    'refuses %s by default, naming the association',
    (association) => {
      const decision = decide(issueCommentEvent({ body: '/docs x', association, login: 'stranger' }), rules)

      expect(decision).toEqual({
        start: false,
        reason: expect.stringContaining(
          `The comment by stranger starts with /docs, but their association with the repository is ${association}`
        )
      })
    }
  )

  it('lets in an association the rules add', () => {
    const decision = decide(issueCommentEvent({ body: '/docs x', association: 'CONTRIBUTOR' }), {
      ...rules,
      allowedAssociations: ['CONTRIBUTOR']
    })
    expect(decision.start).toBe(true)
  })

  it('treats a payload without an association as NONE', () => {
    const event = issueCommentEvent({ body: '/docs x' }) as { comment: Record<string, unknown> }
    delete event.comment.author_association
    expect(decide(event, rules)).toMatchObject({ start: false, reason: expect.stringContaining('is NONE') })
  })

  it('never starts a job for a bot, even an allowed one', () => {
    const decision = decide(
      issueCommentEvent({ body: '/docs x', userType: 'Bot', login: 'github-actions[bot]', association: 'OWNER' }),
      rules
    )
    expect(decision).toEqual({ start: false, reason: expect.stringContaining('by a bot (github-actions[bot])') })
  })

  it.each(['edited', 'deleted'])('an %s comment starts nothing', (action) => {
    const decision = decide(issueCommentEvent({ body: '/docs x', action }), rules)
    expect(decision).toEqual({
      start: false,
      reason: expect.stringContaining(`The comment was ${action}, not created`)
    })
  })

  it('a comment without the trigger starts nothing', () => {
    expect(decide(issueCommentEvent({ body: 'Thanks, looks good!' }), rules)).toEqual({
      start: false,
      reason: 'The comment does not start with /docs: it starts nothing.'
    })
  })

  it('a trigger with nothing after it starts nothing, and says how to use it', () => {
    expect(decide(issueCommentEvent({ body: '/docs' }), rules)).toMatchObject({
      start: false,
      reason: expect.stringContaining('has nothing after /docs')
    })
  })

  it('refuses a stranger before looking at their instruction, and a bot before anything else', () => {
    expect(decide(issueCommentEvent({ body: '/docs', association: 'NONE' }), rules)).toMatchObject({
      reason: expect.stringContaining('is NONE')
    })
    expect(decide(issueCommentEvent({ body: 'hi', userType: 'Bot' }), rules)).toMatchObject({
      reason: expect.stringContaining('by a bot')
    })
  })

  it('takes the repository from the payload when GITHUB_REPOSITORY is not set', () => {
    const runner = runnerWithoutRepository(issueCommentEvent({ body: '/docs x', repository: 'other/repo' }))
    const decision = readRequest(rules, runner)
    expect(decision.start && decision.comment.thread.url).toBe('https://github.example/other/repo/issues/12')
  })

  it("shows the payload's texts neutralised: they end up in the log", () => {
    const login = 'bot\n::add-mask::x ##[error]y'
    const decision = decide(issueCommentEvent({ body: 'hi', userType: 'Bot', login }), rules)
    expect(decision).toMatchObject({ reason: expect.stringContaining('(bot\\n::add-mask::x ## [error]y)') })
    const edited = decide(issueCommentEvent({ body: '/docs x', action: 'edited\r::error::z' }), rules)
    expect(edited).toMatchObject({
      reason: expect.stringContaining('The comment was edited\\r::error::z, not created')
    })
  })

  it('refuses a repository from the payload that is not owner/name: it goes into every reply link', () => {
    const event = issueCommentEvent({ body: '/docs x', repository: 'o/r)![x](https://evil.example/i.png' })
    expect(() => readRequest(rules, runnerWithoutRepository(event))).toThrow(/is not of the form owner\/name/)
  })

  it('says so when the payload has no comment', () => {
    expect(() => decide({ action: 'created' }, rules)).toThrow(/has no comment or no issue in its payload/)
  })
})

describe('decideComment on reviews and review comments', () => {
  it('a review comment: the instruction with its place, and a reply under its thread', () => {
    const decision = decide(
      reviewCommentEvent({ body: '/docs explain this', number: 40, commentId: 77, inReplyTo: 70, line: 3 }),
      { ...rules, eventName: 'pull_request_review_comment' }
    )
    expect(decision).toMatchObject({
      start: true,
      fresh: false,
      comment: { id: 77, kind: 'review comment', replyTo: 70, thread: { kind: 'pull request', number: 40 } }
    })
    expect(decision.start && decision.prompt).toMatch(
      /^explain this\n\nThis was written as a review comment on `docs\/cli.md`, line 3 of the new version/
    )
  })

  it("a review's body, once submitted", () => {
    const rulesForReviews = { ...rules, eventName: 'pull_request_review' }
    expect(decide(reviewEvent({ body: '/docs add examples' }), rulesForReviews)).toMatchObject({
      start: true,
      prompt: 'add examples',
      comment: { id: 6161, kind: 'review', thread: { kind: 'pull request', number: 31 } }
    })
    expect(decide(reviewEvent({ body: null }), rulesForReviews)).toMatchObject({ start: false })
    expect(decide(reviewEvent({ body: '/docs x', action: 'edited' }), rulesForReviews)).toMatchObject({
      start: false,
      reason: expect.stringContaining('The review was edited, not submitted')
    })
  })

  it('/docs --new asks for a new job; the flag is not part of the instruction', () => {
    expect(decide(issueCommentEvent({ body: '/docs --new write a page' }), rules)).toMatchObject({
      start: true,
      prompt: 'write a page',
      fresh: true
    })
    expect(decide(issueCommentEvent({ body: '/docs --newer things' }), rules)).toMatchObject({
      prompt: '--newer things',
      fresh: false
    })
    expect(decide(issueCommentEvent({ body: '/docs --new' }), rules)).toMatchObject({
      start: false,
      reason: expect.stringContaining('has nothing after /docs --new')
    })
  })
})

describe('readCommentRequest', () => {
  const given = { trigger: '/docs', allowedAssociations: ['OWNER'] }

  function env(extra: Record<string, string>) {
    return readRunner({
      GITHUB_EVENT_NAME: 'issue_comment',
      GITHUB_EVENT_PATH: writeEventFile(issueCommentEvent({ body: '/docs explain it' })),
      GITHUB_SERVER_URL: 'https://ghe.example.com/',
      GITHUB_REPOSITORY: 'octo-org/docs-site',
      ...extra
    })
  }

  it('reads the comment, using GITHUB_SERVER_URL for the link', () => {
    expect(readRequest(given, env({}))).toMatchObject({
      start: true,
      comment: { thread: { url: 'https://ghe.example.com/octo-org/docs-site/issues/12' } }
    })
  })

  it('uses the trigger and the associations it is given', () => {
    const path = writeEventFile(issueCommentEvent({ body: '/explain the cache', association: 'CONTRIBUTOR' }))
    const rules = { trigger: '/explain', allowedAssociations: ['CONTRIBUTOR'] }
    expect(readRequest(rules, env({ GITHUB_EVENT_PATH: path }))).toMatchObject({
      start: true,
      prompt: 'the cache'
    })
  })

  it('says so when the payload cannot be read', () => {
    expect(() => readRequest(given, env({ GITHUB_EVENT_PATH: '/nonexistent/event.json' }))).toThrow(
      /payload \(\/nonexistent\/event.json\) could not be read/
    )
    expect(() => readRequest(given, env({ GITHUB_EVENT_PATH: '' }))).toThrow(/GITHUB_EVENT_PATH is not set/)
  })
})
