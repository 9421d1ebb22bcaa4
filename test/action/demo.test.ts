// `npm run demo` ends on what a person looks at: the job summary the first run wrote (as text, and
// where its HTML is) and the reply a `/docs` comment gets on its thread. Run here on the bundle the
// current sources build (ACTION_ENTRY), as the suite's other action tests are.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const demo = fileURLToPath(new URL('../../scripts/demo.js', import.meta.url))

function runDemo(): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [demo], { stdio: ['ignore', 'pipe', 'ignore'] })
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
    const { code, stdout } = await runDemo()

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
  }, 60_000)
})
