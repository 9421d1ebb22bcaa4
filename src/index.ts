// runtime/before-undici-loads.js first: it must run before the modules main.js loads.
import { restoreWebGlobals } from './runtime/before-undici-loads.js'
import { setFlagsFromString } from 'node:v8'
import { run } from './main.js'

restoreWebGlobals()

// undici parses HTTP with a WebAssembly build of llhttp. After a few requests V8 re-compiles it
// with its optimising compiler, and that alone raises a run's peak memory by about 30 MB (to about
// 95 MB), to parse a handful of small JSON answers. A tier-up budget no run can spend keeps the
// parser on V8's baseline compiler: the same parser, a little slower, which no run can notice.
// (`--liftoff-only` would say it more directly, but Node 24's V8 ignores it when set at run time.)
setFlagsFromString('--wasm-tiering-budget=2000000000')

await run()
