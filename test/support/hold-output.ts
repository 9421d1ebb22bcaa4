// A passing test prints nothing: what a test writes to stdout or stderr itself (the action's own log
// lines, when a test runs a stage in-process: @actions/core writes them straight to process.stdout)
// is held, and written out only if the test fails, after its error. Console output is vitest's to
// hold (`silent: 'passed-only'` in vitest.config.ts).
import { beforeEach } from 'vitest'

const streams = [process.stdout, process.stderr] as const
const writes = streams.map((stream) => stream.write.bind(stream))

beforeEach((context) => {
  const held: { stream: number; chunk: string }[] = []
  streams.forEach((stream, i) => {
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      held.push({ stream: i, chunk: typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString() })
      // The write's callback, if any, is called as the stream would.
      const done = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined
      done?.()
      return true
    }) as typeof stream.write
  })
  context.onTestFailed(() => {
    for (const { stream, chunk } of held) writes[stream](chunk)
  })
  return () => {
    streams.forEach((stream, i) => (stream.write = writes[i] as typeof stream.write))
  }
})
