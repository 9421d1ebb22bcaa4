// Where a request goes, decided once (decideRoute), and what the stages after it read from the route:
// each reader is a switch over every member, so a routing mistake fails here, in milliseconds, rather
// than only in a run of the bundle.
import { describe, expect, it } from 'vitest'
import {
  decideRoute,
  followsWhateverWait,
  groupMarkOf,
  messageSource,
  routedGroup,
  routedJobId,
  type Route
} from '../../../src/comment/route.js'
import type { GroupRun } from '../../../src/group/group-lookup.js'
import type { Settings } from '../../../src/inputs/settings.js'
import { readRunner } from '../../../src/github/runner.js'
import { openGitHubSession } from '../../../src/github/session.js'
import type { TriggeringComment } from '../../../src/comment/trigger.js'

const signal = new AbortController().signal
const runner = readRunner({})
const github = openGitHubSession('', runner)
const reads = { runner, github, signal, readJob: null }
const settingsWith = (values: Partial<Settings>): Settings =>
  ({ jobId: '', prompt: '', noteTrigger: '/docs', group: null, ...values }) as unknown as Settings
const GROUP = { settings: { name: 'docs-follow-code' }, lookup: { kind: 'none', unverified: [] }, mark: 'abc' }
const group = GROUP as unknown as GroupRun
const found = { jobId: 'job_g', mark: 'def' } as Extract<Route, { via: 'group' }>['found']

describe('deciding the route', () => {
  it('sends a prompt given with jobId to that job as a message, and follows jobId alone', async () => {
    expect(await decideRoute(settingsWith({ jobId: 'job_1', prompt: 'Also this' }), null, reads)).toEqual({
      kind: 'message',
      jobId: 'job_1',
      via: 'input'
    })
    expect(await decideRoute(settingsWith({ jobId: 'job_1' }), null, reads)).toEqual({
      kind: 'follow',
      jobId: 'job_1'
    })
  })

  it('creates a job for a comment that asks for a new one, whatever its thread keeps, without reading it', async () => {
    const readJob = () => Promise.reject(new Error('a --new comment reads no job'))
    const ask = { comment: {} as TriggeringComment, fresh: true }
    expect(
      await decideRoute(settingsWith({ prompt: 'Document it' }), ask, { runner, github, signal, readJob })
    ).toEqual({
      kind: 'create'
    })
  })

  it('creates a job when nothing names one and there is no group', async () => {
    expect(await decideRoute(settingsWith({ prompt: 'Document it' }), null, reads)).toEqual({ kind: 'create' })
  })
})

describe('what the stages read from a route', () => {
  const routes: [string, Route][] = [
    ['a create', { kind: 'create' }],
    ["a group's create", { kind: 'create', group }],
    ['a follow', { kind: 'follow', jobId: 'job_f' }],
    ['a message by jobId', { kind: 'message', jobId: 'job_i', via: 'input' }],
    ["a message by the agent's note", { kind: 'message', jobId: 'job_n', via: 'note', trigger: '/docs' }],
    ["a message by the thread's note", { kind: 'message', jobId: 'job_t', via: 'thread', trigger: '/docs' }],
    ["a message to the group's job", { kind: 'message', jobId: 'job_g', via: 'group', group, found }]
  ]
  const read = (route: Route) => ({
    jobId: routedJobId(route),
    source: messageSource(route),
    group: routedGroup(route) !== null,
    mark: groupMarkOf(route),
    followsAlways: followsWhateverWait(route)
  })

  it.each(routes)('%s', (name, route) => {
    const expected: Record<string, ReturnType<typeof read>> = {
      'a create': { jobId: '', source: null, group: false, mark: '', followsAlways: false },
      // A new job of the group starts from the group's mark too (its last docs pull request's).
      "a group's create": { jobId: '', source: null, group: true, mark: 'abc', followsAlways: false },
      'a follow': { jobId: 'job_f', source: null, group: false, mark: '', followsAlways: true },
      'a message by jobId': { jobId: 'job_i', source: 'input', group: false, mark: '', followsAlways: false },
      "a message by the agent's note": {
        jobId: 'job_n',
        source: 'place',
        group: false,
        mark: '',
        followsAlways: false
      },
      "a message by the thread's note": {
        jobId: 'job_t',
        source: 'place',
        group: false,
        mark: '',
        followsAlways: false
      },
      "a message to the group's job": {
        jobId: 'job_g',
        source: 'group',
        group: true,
        mark: 'abc',
        followsAlways: false
      }
    }
    expect(read(route)).toEqual(expected[name])
  })
})
