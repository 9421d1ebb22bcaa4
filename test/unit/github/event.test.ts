// What the runner sets for a step, read once (readRunner): the event, the repository, the addresses, the run.
import { afterAll, describe, expect, it } from 'vitest'
import { readRunner } from '../../../src/github/runner.js'
import { pushEvent, removeEventFiles, writeEventFile } from '../../support/stand-in-github.js'

afterAll(removeEventFiles)

describe('readRunner', () => {
  it('reads the event, the repository, the addresses and the run as the runner sets them', () => {
    const payload = pushEvent({ branch: 'main' })
    const path = writeEventFile(payload)
    const runner = readRunner({
      GITHUB_EVENT_NAME: 'push',
      GITHUB_EVENT_PATH: path,
      GITHUB_REPOSITORY: 'octo-org/docs-site',
      GITHUB_SERVER_URL: 'https://ghe.example.com/',
      GITHUB_API_URL: 'https://ghe.example.com/api/v3',
      GITHUB_RUN_ID: '4711',
      GITHUB_WORKFLOW_REF: 'octo-org/docs-site/.github/workflows/docs.yml@refs/heads/main',
      GITHUB_REF: 'refs/heads/main',
      GITHUB_SHA: 'a'.repeat(40)
    })
    expect(runner).toEqual({
      eventName: 'push',
      payload,
      eventFile: { payload, path },
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
    const runner = readRunner({ GITHUB_EVENT_NAME: 'schedule', GITHUB_EVENT_PATH: '/nonexistent/event.json' })
    expect(runner).toMatchObject({ payload: {}, serverUrl: 'https://github.com', apiUrl: 'https://api.github.com' })
    expect(runner.eventFile).toMatchObject({ problem: 'unreadable', path: '/nonexistent/event.json' })
    expect(readRunner({}).eventFile).toMatchObject({ problem: 'no path' })
  })
})
