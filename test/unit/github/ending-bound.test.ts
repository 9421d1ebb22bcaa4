// The run's end and GitHub (src/github/ending-bound.ts): one bound for every GitHub call left, cut to
// what a cancel's grace has left, and over at once while GitHub is silent (src/github/silence.ts).
import { afterEach, describe, expect, it } from 'vitest'
import { ENDING_GITHUB_MS, ENDING_MARGIN_MS, EndingOver, startEndingBound } from '../../../src/github/ending-bound.js'
import { gitHubIsSilent, noteGitHubAnswered, noteGitHubSilent } from '../../../src/github/silence.js'

afterEach(() => noteGitHubAnswered())

function aborted(signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.reason), { once: true }))
}

describe('the ending bound', () => {
  it('is the documented 5 s without a cancel', () => {
    const bound = startEndingBound(Infinity, true)
    expect(ENDING_GITHUB_MS).toBe(5000)
    expect(bound.signal.aborted).toBe(false)
    bound.clear()
  })

  it("is cut to what a cancel's grace has left, less the margin, and says so when it ends", async () => {
    const bound = startEndingBound(ENDING_MARGIN_MS + 300, true)
    const reason = await aborted(bound.signal)
    expect(reason).toBeInstanceOf(EndingOver)
    expect((reason as Error).message).toBe("GitHub did not answer within 300ms of the run's end")
  })

  it('is over at once while GitHub is silent, and not once it has answered again', () => {
    noteGitHubSilent()
    expect(gitHubIsSilent()).toBe(true)
    const silent = startEndingBound(Infinity, false)
    expect(silent.signal.aborted).toBe(true)
    expect(silent.signal.reason).toBeInstanceOf(EndingOver)
    noteGitHubAnswered()
    const again = startEndingBound(Infinity, false)
    expect(again.signal.aborted).toBe(false)
    again.clear()
  })
})
