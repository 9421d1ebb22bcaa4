import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { isPlaceholderHost, isUnresolvedHost, unresolvedHostWords } from '../../../src/net/host-names.js'

describe('a host name that did not resolve', () => {
  it('is told by the system codes ENOTFOUND and EAI_AGAIN only', () => {
    expect(['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED'].map(isUnresolvedHost)).toEqual([true, true, false])
  })

  it(".env.example's address is a placeholder", () => {
    const baseUrl = /^INPUT_BASEURL=(.+)$/m.exec(
      readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8')
    )
    expect(isPlaceholderHost(new URL(baseUrl?.[1] ?? '').hostname)).toBe(true)
  })

  it.each(['example.com', 'api.example.org', 'docs.example', 'x.invalid', 'svc.test', 'EXAMPLE.NET.'])(
    '%s is a placeholder',
    (host) => expect(isPlaceholderHost(host)).toBe(true)
  )

  it.each(['example.company.com', 'myexample.com', 'docs-agent.io', 'test.docs-agent.io', 'contest'])(
    '%s is not',
    (host) => expect(isPlaceholderHost(host)).toBe(false)
  )

  it('names the placeholder as one, and a real name plainly, without repeating it', () => {
    expect(unresolvedHostWords('ENOTFOUND', 'docs.corp.internal')).toBe('its host name was not found (ENOTFOUND)')
    expect(unresolvedHostWords('EAI_AGAIN', 'api.example.com')).toMatch(
      /^its host name could not be looked up \(EAI_AGAIN\), and it is a placeholder/
    )
    expect(unresolvedHostWords('ENOTFOUND', 'api.example.com')).not.toContain('api.example.com')
  })
})
