// What the replies on the thread say. (That they get there is test/action/comment-action.test.ts.)
import { describe, expect, it, vi } from 'vitest'
import type { Job } from '../../../src/service/job-record.js'
import { runLink } from '../../../src/github/octokit.js'
import { writeOutcomeReply, writeProgressReply, writeStartedReply } from '../../../src/thread/reply-text.js'
import { registerSecret } from '../../../src/safety/run-secrets.js'

const RUN = 'https://github.example/o/r/actions/runs/42'
const THREAD = { runUrl: RUN, serverUrl: 'https://github.com' }

function job(status: string, prLink: string | null = null): Job {
  return {
    id: 'job_7',
    status,
    model: null,
    sourceRepository: null,
    sourceRef: null,
    prLink,
    createdAt: null,
    archivedAt: null
  }
}

describe('runLink', () => {
  it('links the run on the given server', () => {
    expect(runLink('https://ghe.example.com/', 'o/r', '42')).toBe('https://ghe.example.com/o/r/actions/runs/42')
  })

  it("falls back to the repository's Actions page without a run id", () => {
    expect(runLink('https://github.com', 'o/r', undefined)).toBe('https://github.com/o/r/actions')
  })
})

describe('the replies', () => {
  it('the first one links the run and never starts with a trigger', () => {
    expect(writeStartedReply(RUN)).toContain(`[Follow the workflow run](${RUN})`)
    expect(writeStartedReply(RUN)).toMatch(/^👀/)
  })

  it('while the job runs: its id and status in code spans, and after a message, where the instruction went', () => {
    expect(writeProgressReply({ job: job('active'), jobId: 'job_7' }, RUN)).toBe(
      `⏳ Job \`job_7\` is \`active\`. [Follow the workflow run](${RUN}); this comment is updated as it goes.`
    )
    expect(writeProgressReply({ job: job('active'), jobId: 'job_7', followUp: true }, RUN)).toMatch(
      /^⏳ The instruction went to job `job_7` as a follow-up; it is `active`\./
    )
  })

  it('shows the waiting mark only while the job works: never beside a final status', () => {
    for (const status of ['completed', 'archived', 'failed']) {
      const reply = writeProgressReply({ job: job(status), jobId: 'job_7' }, RUN)
      expect(reply).toMatch(new RegExp(`^Job \`job_7\` is \`${status}\`; the run is finishing\\.`))
      // After a message the old final status is not the news: the reply waits for the agent, and says so.
      const followUp = writeProgressReply({ job: job(status), jobId: 'job_7', followUp: true }, RUN)
      expect(followUp).toMatch(
        /^⏳ The instruction went to job `job_7` as a follow-up; waiting for the agent to take it up\./
      )
      expect(followUp).not.toContain(status)
    }
  })

  it.each<[string, Parameters<typeof writeOutcomeReply>[0], RegExp]>([
    [
      'a pull request',
      { ending: 'final', job: job('completed', 'https://github.com/o/r/pull/9'), jobId: 'job_7' },
      /^✅ Job `job_7` opened a pull request: `https:\/\/github.com\/o\/r\/pull\/9` \(a link in the workflow run's summary\)$/m
    ],
    [
      'no changes',
      { ending: 'final', job: job('completed'), jobId: 'job_7' },
      /^☑️ Job `job_7` completed without a pull request/
    ],
    ['archived', { ending: 'final', job: job('archived'), jobId: 'job_7' }, /^🗄️ Job `job_7` was archived/],
    ['failed', { ending: 'final', job: job('failed'), jobId: 'job_7' }, /^❌ Job `job_7` failed/],
    [
      'timed out',
      { ending: 'timeout', job: job('active'), jobId: 'job_7' },
      /^⏱️ Job `job_7` was still `active` .* It keeps running on the service/
    ],
    [
      'not followed',
      { ending: 'created', job: job('active'), jobId: 'job_7' },
      /^🚀 Job `job_7` was created; this run does not follow it \(wait is false\)/
    ],
    [
      'cancelled with a job',
      { ending: 'cancelled', job: job('active'), jobId: 'job_7' },
      /^🛑 The workflow run was cancelled. Job `job_7` keeps running/
    ],
    [
      'cancelled before a job',
      { ending: 'cancelled', job: null, jobId: '' },
      /^🛑 The workflow run was cancelled before a job was started/
    ],
    [
      'an error with a job',
      { ending: 'error', job: job('active'), jobId: 'job_7' },
      /^❌ Following job `job_7` failed/
    ],
    ['an error before a job', { ending: 'error', job: null, jobId: '' }, /^❌ The run failed and no job was started/],
    [
      'a create whose answer was lost',
      { ending: 'error', job: null, jobId: '', failure: 'uncertain' },
      /^❌ The service's answer to the create was lost, so the job may or may not have been created/
    ]
  ])(
    'says %s, names the job at most once, then how long the run took, and links the run',
    (_name, outcome, sentence) => {
      const reply = writeOutcomeReply(outcome, { ...THREAD, elapsedMs: 83_000 })
      expect(reply).toMatch(sentence)
      expect(reply.split('job_7').length - 1).toBe(outcome.jobId ? 1 : 0)
      expect(reply).not.toContain('⏳')
      expect(reply.endsWith(`\n\nTook 1m 23s · [Workflow run](${RUN})`)).toBe(true)
    }
  )

  it('shows what the agent did: the pull request title in a code span, its state, files and lines', () => {
    const outcome = { ending: 'final' as const, job: job('completed', 'https://github.com/o/r/pull/9'), jobId: 'job_7' }
    const details = {
      number: 9,
      title: 'Retries @team `x`',
      state: 'draft' as const,
      changedFiles: 2,
      additions: 10,
      deletions: 1
    }
    expect(writeOutcomeReply(outcome, { ...THREAD, elapsedMs: 2000, pullRequest: details })).toBe(
      "✅ Job `job_7` opened a pull request: `https://github.com/o/r/pull/9` (a link in the workflow run's summary)\n\n" +
        '`` Retries @team `x` `` · draft · 2 files changed, +10 −1\n\n' +
        'Review the pull request, and merge it when it is right.\n\n' +
        'To ask for more, comment `/docs <what to change>` here: it goes to this job while its pull ' +
        'request is open. `/docs --new <instruction>` starts a new job instead.\n\n' +
        `Took 2.0s · [Workflow run](${RUN})`
    )
  })

  it("writes a pull request in the job's own source repository on this GitHub as GitHub's reference", () => {
    const completed = (prLink: string, sourceRepository: string | null) => ({
      ending: 'final' as const,
      job: { ...job('completed', prLink), sourceRepository },
      jobId: 'job_7'
    })
    const reply = (prLink: string, source: string | null) =>
      writeOutcomeReply(completed(prLink, source), { ...THREAD, elapsedMs: 1000 }).split('\n')[0]
    expect(reply('https://github.com/o/r/pull/9', 'https://github.com/o/r')).toBe(
      '✅ Job `job_7` opened a pull request: o/r#9'
    )
    expect(reply('https://github.com/o/r/pull/9', 'https://github.com/O/R.git')).toBe(
      '✅ Job `job_7` opened a pull request: o/r#9'
    )
    // Another repository, another host, or no source: the link as a code span, and where it is a link;
    // a merge request called one.
    for (const [link, source, kind] of [
      ['https://github.com/o/r/pull/9', 'https://github.com/o/other', 'pull request'],
      ['https://gitlab.com/o/r/-/merge_requests/9', 'https://gitlab.com/o/r', 'merge request'],
      ['https://github.com/o/r/pull/9', null, 'pull request']
    ] as const) {
      expect(reply(link, source)).toBe(
        `✅ Job \`job_7\` opened a ${kind}: \`${link}\` (a link in the workflow run's summary)`
      )
    }
  })

  it('keeps a job id from breaking out of its code span: the fence is longer than any backticks in it', () => {
    expect(
      writeOutcomeReply({ ending: 'error', job: null, jobId: 'job`<b>x</b>' }, { ...THREAD, elapsedMs: 1000 })
    ).toContain('``job`<b>x</b>``')
  })

  it('never posts a secret the run holds, in any form', () => {
    const key = 'svc_echoed_key_0123456789'
    // core.setSecret writes ::add-mask:: to stdout; keep the test output readable.
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
    registerSecret(key)
    write.mockRestore()
    const base64 = Buffer.from(key).toString('base64')
    for (const status of [key, encodeURIComponent(key), base64]) {
      const reply = writeOutcomeReply(
        { ending: 'timeout', job: job(status), jobId: 'job_7' },
        { ...THREAD, elapsedMs: 1000 }
      )
      expect(reply).not.toContain(key)
      expect(reply).not.toContain(base64.slice(0, 20))
    }
  })
})
