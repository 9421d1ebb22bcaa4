// The one sentence a failed GitHub write is told with: what GitHub answered, and for a refusal the
// permission the workflow needs for that write; GitHub's words never as a command or over lines.
import { describe, expect, it } from 'vitest'
import { ReadFailure } from '../../../src/github/read-failure.js'
import { describeWriteFailure } from '../../../src/github/write-failure.js'

const ACCESS = { tokenInput: 'githubToken', needs: '"pull-requests: write" on that repository' }
const http = (status: number, message: string, extra: object = { response: {} }) =>
  Object.assign(new Error(message), { name: 'HttpError', status, ...extra })

describe('describeWriteFailure', () => {
  it.each([
    [
      http(403, 'Resource not accessible by integration'),
      /^HTTP 403 \(Resource not accessible by integration\)\. Check that githubToken may write there: the workflow needs "pull-requests: write" on that repository in its permissions block\.$/
    ],
    [http(404, 'Not Found'), /^HTTP 404 \(Not Found\)\. Check that githubToken may write there/],
    [
      http(401, 'Bad credentials'),
      /^HTTP 401 \(Bad credentials\)\. GitHub rejected githubToken: leave it at its default/
    ],
    [http(502, 'Bad Gateway'), /^HTTP 502 \(Bad Gateway\)\.$/],
    [http(500, 'socket hang up', { response: undefined }), /^no answer from GitHub \(socket hang up\)\.$/],
    [new Error('socket hang up'), /^socket hang up\.$/],
    [
      new ReadFailure('forbidden', "the pull request's comments", 'pull-requests: read', { status: 403 }),
      /^the pull request's comments: the token lacks "pull-requests: read" \(HTTP 403\)/
    ]
  ])('words %s', (error, sentence) => {
    expect(describeWriteFailure(error, ACCESS)).toMatch(sentence)
  })

  it("never carries GitHub's text as a workflow command or over many lines", () => {
    const said = describeWriteFailure(http(500, 'oops\n::error::injected\r\nmore'), ACCESS)
    expect(said).not.toMatch(/[\r\n]/)
    expect(said.startsWith('HTTP 500 (')).toBe(true)
  })
})
