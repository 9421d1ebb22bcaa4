// The group's inputs, set as the runner sets them (INPUT_* variables).
import { afterEach, describe, expect, it, vi } from 'vitest'
import { readDocsRepository, readGroupSettings } from '../../../src/group/group-settings.js'
import { readRunner } from '../../../src/github/runner.js'

afterEach(() => vi.unstubAllEnvs())

function read(inputs: Record<string, string>, env: NodeJS.ProcessEnv = { GITHUB_REPOSITORY: 'octo-org/app' }) {
  for (const [name, value] of Object.entries(inputs)) vi.stubEnv(`INPUT_${name.toUpperCase()}`, value)
  return () => readGroupSettings(readRunner(env))
}

describe('readGroupSettings', () => {
  it('is null without a group: a run as before', () => {
    expect(read({ group: '', docsRepository: 'octo-org/docs' })()).toBeNull()
  })

  it("looks in the workflow's repository, or in docsRepository", () => {
    expect(read({ group: 'code-pr-42' })()).toEqual({ name: 'code-pr-42', repository: 'octo-org/app' })
    expect(read({ group: 'docs.follow_code', docsRepository: 'octo-org/docs' })()).toEqual({
      name: 'docs.follow_code',
      repository: 'octo-org/docs'
    })
  })

  it.each([['has space'], ['-starts-with-hyphen'], ['x'.repeat(40)], ['a/b'], ['new\nline']])(
    'refuses the group %j, saying what a group name is',
    (group) => {
      expect(read({ group })).toThrow(/^Input group is '.*', which is not a group name: use 1 to 39 letters/)
    }
  )

  it('refuses a docsRepository that is not owner/repo', () => {
    expect(read({ group: 'g', docsRepository: 'https://github.com/octo-org/docs' })).toThrow(
      /^Input docsRepository is 'https:\/\/github\.com\/octo-org\/docs', which is not owner\/repo\./
    )
  })
})

describe('readDocsRepository', () => {
  const docs = (inputs: Record<string, string>, env: NodeJS.ProcessEnv = { GITHUB_REPOSITORY: 'octo-org/app' }) => {
    for (const [name, value] of Object.entries(inputs)) vi.stubEnv(`INPUT_${name.toUpperCase()}`, value)
    return () => readDocsRepository(readRunner(env))
  }

  it("is read without a group too (a comment on a group's code pull request looks there), else the workflow's repository", () => {
    expect(docs({}, {})()).toBe('')
    expect(docs({})()).toBe('octo-org/app')
    expect(docs({ docsRepository: 'octo-org/docs' })()).toBe('octo-org/docs')
  })

  it('refuses a docsRepository that is not owner/repo, group or not', () => {
    expect(docs({ docsRepository: 'octo-org' })).toThrow(
      /^Input docsRepository is 'octo-org', which is not owner\/repo\./
    )
  })
})
