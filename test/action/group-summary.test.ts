// A group's run says in its job summary which group it belongs to, the group's pull request, and
// what this run sent (the commits after the group's mark, up to this run's), apart from the pull
// request's totals: through the bundled action, on a group's world that keeps its state across runs.
import { afterAll, describe, expect, it } from 'vitest'
import { removeEventFiles } from '../support/stand-in-github.js'
import { commit, GROUP, groupWorld, push, REPO, SERVER, SEVERAL_RUNS_MS } from '../support/group-world.js'

afterAll(removeEventFiles)

/** The summary's group line, as text with its links' targets. */
function groupLine(summary: string): string {
  return /<p>Group <code>.*?<\/p>/.exec(summary)?.[0] ?? ''
}

describe('a group run’s summary', () => {
  it(
    'names the group and its pull request, and the commits this run sent, apart from the pull request’s totals',
    { timeout: SEVERAL_RUNS_MS },
    async (test) => {
      const w = await groupWorld(test)
      const [a, b] = [commit('a'), commit('b')]
      const first = await push(w, [a])
      expect(first.code).toBe(0)
      // The job this run created opened the group's pull request: linked once, in the sentence above.
      expect(first.summary).toContain(`<a href="${SERVER}/${REPO}/pull/31">${REPO}#31</a>`)
      expect(groupLine(first.summary)).toBe(
        `<p>Group <code>${GROUP}</code>: the pull request above is the group’s. ` +
          `This run sent the commits up to <code>${a.sha.slice(0, 7)}</code>.</p>`
      )

      const second = await push(w, [b])
      expect(second.code).toBe(0)
      expect(w.service.requestsOf('POST', '/message')).toHaveLength(1)
      // The message went to the group's open pull request; what it carried is the commits after the mark.
      expect(groupLine(second.summary)).toBe(
        `<p>Group <code>${GROUP}</code>: the pull request above is the group’s. ` +
          `This run sent <a href="${SERVER}/${REPO}/compare/${a.sha}...${b.sha}">the commits</a> after ` +
          `<code>${a.sha.slice(0, 7)}</code> up to <code>${b.sha.slice(0, 7)}</code>.</p>`
      )
      // Said once, right under the sentence, before the next step.
      const at = second.summary.indexOf('<p>Group ')
      expect(at).toBeGreaterThan(second.summary.indexOf('</h3>'))
      expect(at).toBeLessThan(second.summary.indexOf('Next step'))
    }
  )
})
