// The context's request, read from what the runner sets for a step.
import { afterAll, describe, expect, it } from 'vitest'
import { contextRequestFromRunner } from '../../../src/github/event.js'
import { pushEvent, removeEventFiles, writeEventFile } from '../../support/stand-in-github.js'

afterAll(removeEventFiles)

const settings = { detail: 'changes', limit: 20_000, token: 'ghs_x' } as const

describe('contextRequestFromRunner', () => {
  it('reads the event, the repository, the addresses and the run as the runner sets them', () => {
    const payload = pushEvent({ branch: 'main' })
    const request = contextRequestFromRunner(settings, {
      GITHUB_EVENT_NAME: 'push',
      GITHUB_EVENT_PATH: writeEventFile(payload),
      GITHUB_REPOSITORY: 'octo-org/docs-site',
      GITHUB_SERVER_URL: 'https://ghe.example.com',
      GITHUB_API_URL: 'https://ghe.example.com/api/v3',
      GITHUB_RUN_ID: '4711',
      GITHUB_WORKFLOW_REF: 'octo-org/docs-site/.github/workflows/docs.yml@refs/heads/main',
      GITHUB_REF: 'refs/heads/main',
      GITHUB_SHA: 'a'.repeat(40)
    })
    expect(request).toEqual({
      ...settings,
      eventName: 'push',
      payload,
      repository: 'octo-org/docs-site',
      serverUrl: 'https://ghe.example.com',
      apiUrl: 'https://ghe.example.com/api/v3',
      runId: '4711',
      workflowRef: 'octo-org/docs-site/.github/workflows/docs.yml@refs/heads/main',
      refName: 'main',
      sha: 'a'.repeat(40)
    })
  })

  it("falls back to github.com's addresses, and to an empty payload when the event file cannot be read", () => {
    const request = contextRequestFromRunner(settings, {
      GITHUB_EVENT_NAME: 'schedule',
      GITHUB_EVENT_PATH: '/nonexistent/event.json'
    })
    expect(request).toMatchObject({ payload: {}, serverUrl: 'https://github.com', apiUrl: 'https://api.github.com' })
  })
})
