import { setFlagsFromString } from 'node:v8'
import { run } from './main.js'

// undici parses HTTP with a WebAssembly build of llhttp. V8 would re-compile it with its optimising
// compiler in the background after first use, and that alone raises a run's peak memory by about
// 35 MB, to parse a handful of small JSON answers. The baseline compiler's code is the same parser,
// run slower, which no run of this action can notice. undici compiles it on the first request.
setFlagsFromString('--liftoff-only')

await run()
