// Only a link of the shape of a pull or merge request on a code host becomes the prLink output.
import { describe, expect, it } from 'vitest'
import {
  pullRequestLink,
  pullRequestName,
  pullRequestNumber,
  requestKind,
  requestNumber
} from '../../../src/service/pull-request-link.js'

describe('pullRequestLink', () => {
  it.each([
    'https://github.com/acme/handbook/pull/7',
    'https://ghe.example.com/acme/handbook/pull/1234',
    'https://gitea.example.org/acme/handbook/pulls/7',
    'https://gitlab.com/acme/docs/handbook/-/merge_requests/7',
    'https://bitbucket.org/acme/handbook/pull-requests/7',
    'https://dev.azure.com/acme/docs/_git/handbook/pullrequest/7',
    'https://github.com/my.org/hand_book-2/pull/9'
  ])('passes on %s', (link) => {
    expect(pullRequestLink(link)).toBe(link)
  })

  it.each([
    ['shell bait in a query', 'https://github.com/acme/handbook/pull/7?$(touch${IFS}pwned)'],
    ['a query', 'https://github.com/acme/handbook/pull/7?x=1'],
    ['a fragment', 'https://github.com/acme/handbook/pull/7#x'],
    ['shell bait in a segment', 'https://github.com/acme/$(id)/pull/7'],
    ['backticks', 'https://github.com/acme/`id`/pull/7'],
    ['a quote', "https://github.com/acme/a'b/pull/7"],
    ['a space', 'https://github.com/acme/a b/pull/7'],
    ['percent-encoding', 'https://github.com/acme/a%20b/pull/7'],
    ['credentials', 'https://user:pass@github.com/acme/handbook/pull/7'],
    ['a port', 'https://github.com:8443/acme/handbook/pull/7'],
    ['plain http', 'http://github.com/acme/handbook/pull/7'],
    ['javascript:', 'javascript:alert(1)//github.com/acme/handbook/pull/7'],
    ['no number', 'https://github.com/acme/handbook/pull/new'],
    ['number zero', 'https://github.com/acme/handbook/pull/0'],
    ['something after the number', 'https://github.com/acme/handbook/pull/7/files'],
    ['a trailing slash', 'https://github.com/acme/handbook/pull/7/'],
    ['not a pull request', 'https://github.com/acme/handbook/issues/7'],
    ['no owner and repository', 'https://github.com/pull/7'],
    ['a dot segment', 'https://github.com/acme/../pull/7'],
    ['a host that is not a name', 'https://github/acme/handbook/pull/7'],
    ['an upper-case host the parser would change', 'https://GitHub.com/acme/handbook/pull/7'],
    ['a backslash', 'https://github.com\\acme/handbook/pull/7'],
    ['a newline', 'https://github.com/acme/handbook/pull/7\n::error::x'],
    ['an empty segment', 'https://github.com/acme//handbook/pull/7'],
    ['a very long link', `https://github.com/${'a'.repeat(600)}/handbook/pull/7`]
  ])('refuses %s', (_name, link) => {
    expect(pullRequestLink(link)).toBeNull()
  })
})

describe('pullRequestNumber', () => {
  it.each([
    ['https://github.com/acme/handbook/pull/7', '7'],
    ['https://gitlab.com/acme/docs/handbook/-/merge_requests/1234', '1234'],
    ['https://dev.azure.com/acme/docs/_git/handbook/pullrequest/42', '42'],
    [null, ''],
    ['https://github.com/acme/handbook/pull/7?x=1', ''],
    ['https://github.com/acme/handbook/issues/7', '']
  ])('reads %s as %j', (link, number) => {
    expect(pullRequestNumber(link)).toBe(number)
  })
})

describe('a request named as its host names it', () => {
  it.each([
    ['https://github.com/acme/handbook/pull/7', 'pull request', 'acme/handbook#7', '#7'],
    ['https://gitlab.com/acme/docs/handbook/-/merge_requests/12', 'merge request', 'acme/docs/handbook!12', '!12'],
    ['https://gitlab.example.org/acme/handbook/-/merge_requests/3', 'merge request', 'acme/handbook!3', '!3'],
    [
      'https://gitea.example.org/acme/handbook/pulls/7',
      'pull request',
      'https://gitea.example.org/acme/handbook/pulls/7',
      '#7'
    ],
    [
      'https://bitbucket.org/acme/handbook/pull-requests/5',
      'pull request',
      'https://bitbucket.org/acme/handbook/pull-requests/5',
      '#5'
    ],
    // Not a link this action passes on: no kind of its own, named as given, no number.
    [
      'https://gitlab.com/acme/handbook/-/merge_requests/7?x',
      'pull request',
      'https://gitlab.com/acme/handbook/-/merge_requests/7?x',
      ''
    ]
  ])('%s: a %s, %s, %s', (link, kind, name, number) => {
    expect(requestKind(link)).toBe(kind)
    expect(pullRequestName(link)).toBe(name)
    expect(requestNumber(link)).toBe(number)
  })
})
