import { describe, expect, it } from 'vitest'
import { isWrittenBy, readAuthor } from '../../../src/github/author.js'

describe('who the action writes as', () => {
  it("is the token's own account when GET /user names it, whatever its case", async () => {
    const author = await readAuthor(async () => ({ login: 'Docs-Bot-Person', type: 'User' }))
    expect(author).toEqual({ login: 'Docs-Bot-Person' })
    expect(isWrittenBy(author, { login: 'docs-bot-person', type: 'User' })).toBe(true)
    expect(isWrittenBy(author, { login: 'mallory', type: 'User' })).toBe(false)
    expect(isWrittenBy(author, { login: 'github-actions[bot]', type: 'Bot' })).toBe(false)
  })

  it("is an app's bot account when GitHub refuses GET /user (an installation's token) or names no one", async () => {
    const refused = await readAuthor(async () => {
      throw new Error('403 Resource not accessible by integration')
    })
    expect(refused).toBe('an app')
    expect(await readAuthor(async () => ({ login: '<script>' }))).toBe('an app')
    expect(isWrittenBy(refused, { login: 'github-actions[bot]', type: 'Bot' })).toBe(true)
    expect(isWrittenBy(refused, { login: 'mallory', type: 'User' })).toBe(false)
    expect(isWrittenBy(refused, null)).toBe(false)
  })

  it('throws when the run was cancelled, rather than guess', async () => {
    const cancel = new AbortController()
    cancel.abort()
    await expect(
      readAuthor(async () => {
        throw new Error('aborted')
      }, cancel.signal)
    ).rejects.toThrow('aborted')
  })
})
