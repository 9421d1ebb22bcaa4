// Secrets blanked wherever the action writes, in the forms a server may echo them in.
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { blankSecrets, registerSecret } from '../../../src/safety/run-secrets.js'

const KEY = 'svc_Zq9+/x=y&z%w_0123456789'

beforeAll(() => {
  // core.setSecret writes ::add-mask:: to stdout; keep the test output readable.
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
  registerSecret(` ${KEY} `)
  write.mockRestore()
})

describe('blankSecrets', () => {
  it.each([
    ['as written', KEY],
    ['URL-encoded', encodeURIComponent(KEY)],
    ['JSON-escaped', JSON.stringify(KEY).slice(1, -1)],
    ['base64-encoded', Buffer.from(KEY).toString('base64')],
    ['base64-encoded after one byte', Buffer.from(`x${KEY}`).toString('base64')],
    ['base64-encoded after two bytes', Buffer.from(`Basic ${KEY}`).toString('base64')]
  ])('blanks the key %s', (_form, echoed) => {
    const blanked = blankSecrets(`the server said: ${echoed}.`)
    expect(blanked).toContain('***')
    expect(blanked).not.toContain(echoed)
    expect(blanked).not.toContain('0123456789')
  })

  it('leaves other text alone', () => {
    expect(blankSecrets('nothing secret here')).toBe('nothing secret here')
  })
})
