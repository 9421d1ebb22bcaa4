// Which INPUT_* variables are taken for a misspelt input of this action, and which are left alone.
import { describe, expect, it } from 'vitest'
import { misnamedInputs } from '../../../src/inputs/misnamed-inputs.js'

const meant = (variable: string): string[] => misnamedInputs({ [variable]: 'value' }).map((input) => input.meant)

describe('misnamedInputs', () => {
  it.each([
    ['INPUT_PROJECT_ID', 'projectId'],
    ['INPUT_API-KEY', 'apiKey'],
    ['INPUT_API_KEY', 'apiKey'],
    ['INPUT_POLL_INTERVAL', 'pollInterval'],
    ['INPUT_BASE-URL', 'baseUrl'],
    ['INPUT_JOB_ID', 'jobId'],
    ['INPUT_TIMOUT', 'timeout'],
    ['INPUT_PROMT', 'prompt'],
    ['INPUT_REQUIRE_PR', 'requirePr'],
    ['INPUT_GITHUB_TOKEN', 'githubToken'],
    ['INPUT_CONTEXT_LIMIT', 'contextLimit'],
    ['INPUT_ALLOWED-ASSOCIATIONS', 'allowedAssociations']
  ])('takes %s for %s', (variable, input) => {
    expect(meant(variable)).toEqual([input])
  })

  it.each(['INPUT_PROJECTID', 'INPUT_APIKEY', 'INPUT_POLLINTERVAL', 'INPUT_CONTEXTLIMIT'])(
    'leaves %s alone: the runner sets it for the input itself',
    (variable) => {
      expect(meant(variable)).toEqual([])
    }
  )

  it.each(['INPUT_WITH', 'INPUT_TOKEN', 'INPUT_FETCH-DEPTH', 'INPUT_KEY', 'INPUT_URL', 'PROJECT_ID', 'INPUTS_PROMPT'])(
    'leaves %s alone: close to no input of this action, or no input at all',
    (variable) => {
      expect(meant(variable)).toEqual([])
    }
  )

  it('never carries the value', () => {
    expect(JSON.stringify(misnamedInputs({ 'INPUT_API-KEY': 'svc_secret' }))).not.toContain('svc_secret')
  })
})
