// A proxy variable the HTTP client cannot use is a sentence before any request, never its credentials.
import { describe, expect, it } from 'vitest'
import { checkProxyVariables } from '../../../src/net/proxy-settings.js'

describe('checkProxyVariables', () => {
  it.each([
    {},
    { HTTPS_PROXY: 'http://proxy.example:3128' },
    { https_proxy: 'https://user:pw@proxy.example', HTTP_PROXY: 'http://proxy.example' },
    { HTTP_PROXY: 'socks5://127.0.0.1:1080' },
    // undici reads the lower-case name first: an empty one means no proxy, whatever the other says.
    { https_proxy: '', HTTPS_PROXY: 'not a url' },
    { HTTPS_PROXY: '' }
  ])('accepts %j', (env) => {
    expect(() => checkProxyVariables(env)).not.toThrow()
  })

  it.each<[Record<string, string>, RegExp]>([
    [{ HTTPS_PROXY: 'not a url' }, /^The environment variable HTTPS_PROXY is 'not a url', which is not a URL\./],
    [{ http_proxy: 'proxy.example:3128' }, /^The environment variable http_proxy is .* does not start with http:\/\//],
    [{ HTTP_PROXY: 'ftp://proxy.example' }, /HTTP_PROXY .* does not start with http:\/\//],
    [{ https_proxy: 'http://u:p w@x y' }, /https_proxy is set \(the value is not shown: it may hold credentials\)/]
  ])('refuses %j with a sentence', (env, sentence) => {
    expect(() => checkProxyVariables(env)).toThrow(sentence)
  })

  it('never shows a value that may hold credentials', () => {
    expect(() => checkProxyVariables({ HTTPS_PROXY: 'http://user:hunter2@proxy example' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') })
    )
  })
})
