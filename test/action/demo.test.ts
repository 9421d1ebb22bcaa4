// `npm run demo` ends on what a person looks at: the job summary the first run wrote (as text, and
// where its HTML is) and the reply a `/docs` comment gets on its thread. Run here on the bundle the
// current sources build (ACTION_ENTRY), as the suite's other action tests are.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  PICTURE,
  readTextChunk,
  REPLY_FILE,
  SOURCE_KEYWORD,
  sourceHash,
  SUMMARY_FILE
} from '../../scripts/picture-source.js'

const demo = fileURLToPath(new URL('../../scripts/demo.js', import.meta.url))

function runDemo(...args: string[]): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [demo, ...args], { stdio: ['ignore', 'pipe', 'ignore'] })
  let stdout = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, stdout }))
  })
}

/** The text between a `--- heading ---` line that starts with `title` and the next one. */
function section(stdout: string, title: string): string {
  const start = stdout.indexOf(`--- ${title}`)
  if (start < 0) return ''
  const end = stdout.indexOf('\n--- ', start + 4)
  return stdout.slice(start, end < 0 ? undefined : end)
}

describe('npm run demo', () => {
  it('ends by showing the job summary it wrote, where its HTML is, and the reply on a comment thread', async () => {
    const out = mkdtempSync(join(tmpdir(), 'demo-out-'))
    const { code, stdout } = await runDemo('--out', out)

    expect(code).toBe(0)
    const jobId = /^jobId +(\S+)$/m.exec(stdout)?.[1] ?? ''
    expect(jobId).not.toBe('')
    const summary = section(stdout, "the first run's job summary")
    // A heading with the verdict, then the job, as text: no HTML tag is left in it.
    expect(summary).toMatch(/^### ✅ Completed/m)
    expect(summary).toContain(jobId)
    expect(summary).not.toMatch(/<\/?(p|td|tr|table|h3|details|summary|a)\b/)
    const page = /The summary's HTML, to open in a browser: (\S+)\)/.exec(summary)?.[1] ?? ''
    expect(existsSync(page)).toBe(true)
    expect(readFileSync(page, 'utf8')).toContain(jobId)

    const reply = section(stdout, 'the reply on the thread')
    expect(reply).toMatch(/^✅ Job /m)
    expect(reply).toContain('[Workflow run](https://github.com/octo-org/docs-site/actions/runs/4711)')

    // What GitHub receives, written where --out says: the README's picture was rendered from these
    // (scripts/render-picture.js), and records their hash; a change to either leaves it stale.
    const written = {
      summary: readFileSync(join(out, SUMMARY_FILE), 'utf8'),
      reply: readFileSync(join(out, REPLY_FILE), 'utf8')
    }
    expect(written.summary).toMatch(/^<h3>✅ Completed: pull request #1 is ready<\/h3>/)
    expect(written.summary).toContain(jobId)
    expect(reply).toContain(written.reply.trim().split('\n')[0])
    const picture = readFileSync(new URL(`../../${PICTURE}`, import.meta.url))
    expect(
      readTextChunk(picture, SOURCE_KEYWORD),
      `${PICTURE} shows an older summary or reply than the demo writes: run node scripts/render-picture.js`
    ).toBe(sourceHash(written.summary, written.reply))
    rmSync(out, { recursive: true, force: true })
  }, 60_000)
})
