// A pull request from a fork gets no secrets from GitHub: the empty key is explained, not just required.
import { describe, expect, it } from 'vitest'
import { forkKeySentence, forkWithoutSecrets } from '../../../src/github/fork.js'
import { readRunnerEvent as eventOf } from '../../../src/github/event.js'
import { pullRequestEvent, reviewCommentEvent } from '../../support/stand-in-github.js'

describe('forkWithoutSecrets', () => {
  it('finds the fork of a pull_request event, by name or by its fork mark', () => {
    expect(
      forkWithoutSecrets(eventOf('pull_request', pullRequestEvent({ number: 9, fork: 'stranger/docs-site' })))
    ).toEqual({
      fork: 'stranger/docs-site',
      number: 9
    })
    const marked = pullRequestEvent({ number: 9 })
    Object.assign(marked.pull_request.head.repo, { fork: true })
    expect(forkWithoutSecrets(eventOf('pull_request', marked))).toEqual({ fork: 'octo-org/docs-site', number: 9 })
  })

  it('finds it on a review comment too, whose run has no secrets either', () => {
    const event = reviewCommentEvent({ body: '/docs fix this' })
    Object.assign(event.pull_request, {
      head: { repo: { full_name: 'stranger/docs-site', fork: true } },
      base: { repo: { full_name: 'octo-org/docs-site' } }
    })
    expect(forkWithoutSecrets(eventOf('pull_request_review_comment', event))).toEqual({
      fork: 'stranger/docs-site',
      number: 31
    })
  })

  it.each([
    ['a pull request from a branch of the repository', 'pull_request', pullRequestEvent({})],
    ['pull_request_target, which runs with the secrets', 'pull_request_target', pullRequestEvent({ fork: 'a/b' })],
    ['a push', 'push', { ref: 'refs/heads/main' }],
    ['no payload', 'pull_request', {}]
  ])('%s: none', (_, eventName, payload) => {
    expect(forkWithoutSecrets(eventOf(eventName, payload))).toBeNull()
  })

  it('never repeats a fork name of another shape', () => {
    const event = pullRequestEvent({ number: 3, fork: '::error::x/y z' })
    expect(forkWithoutSecrets(eventOf('pull_request', event))).toEqual({ fork: '', number: 3 })
  })
})

describe('forkKeySentence', () => {
  it('says why the key is empty and what to do instead', () => {
    const sentence = forkKeySentence({ fork: 'stranger/docs-site', number: 9 }, 'apiKey')
    expect(sentence).toBe(
      'Input apiKey is empty: this run is for pull request #9 from the fork stranger/docs-site, and GitHub gives ' +
        "the workflows it runs for a fork's pull request no secrets. Skip such runs with an if: on the job, " +
        'github.event.pull_request.head.repo.full_name == github.repository; or, knowing its trade-offs (it has ' +
        'the secrets and runs on text an outsider wrote, see docs/security.md), trigger on pull_request_target instead.'
    )
    expect(forkKeySentence({ fork: '', number: 0 }, 'apiKey')).toContain('this run is for a pull request from a fork,')
  })
})
