// @ts-check
// The house as drawn (CONTRIBUTING.md), checked by `npm run lint:layers` and in .ci/run: src/ is a
// stack of rooms, and an import only ever goes down it. The shared rooms come first, then the kernel
// of types every feature shares, then the features, each of which may use the ones before it, then the
// modes; index.ts and main.ts sit on top and may import anything. No circle of files either, type
// imports included: a type import ties two files together as much as any other.

/** From the bottom up: a folder may import only the folders before it in this list (and itself). */
const LAYERS = [
  // The shared rooms, below every feature.
  'safety', // secrets, neutralising outside text, the credential scan, bounded JSON, the one signature
  'runtime', // log, errors, deadline, durations, cancel, version
  'net', // HTTP transport, proxy settings, the retry policy
  'github', // the GitHub session: the event, GitHub's JSON shapes, reads, writes, the live comment, signed records
  'service', // the job service's client: its paths, answers, errors, the following
  // The kernel: the types every feature shares (settings, the route, the outcome and its endings).
  'kernel',
  // The features, each a room of its own, a later one may use an earlier one.
  'context', // what changed, for the agent
  'prompt', // the prompt the service gets, and what leaves the repository
  'ending', // the words of every ending, the summary and the outputs
  'thread', // a request on an issue or pull request: trigger, label, the thread's job, the reply, the note
  'group', // a group's one docs pull request: look-up, record, status comment, send
  'hand-over', // report later: the hand-over, the index, the queue, the commit status, the reporting run
  'follow', // the route decided, the send, the following, the ending told
  'inputs', // the inputs, read once at the start
  // The modes a run can be (main.ts chooses one), each telling its steps in order.
  'modes'
]

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A circle of imports (type imports count): the files cannot be read, tested or moved apart.',
      from: {},
      to: { circular: true }
    },
    ...LAYERS.map((layer, index) => ({
      name: `${layer}-imports-only-below`,
      severity: /** @type {const} */ ('error'),
      comment:
        `src/${layer}/ may import only ${['itself', ...LAYERS.slice(0, index)].join(', ')}: ` +
        'a lower room or an earlier feature never depends on a later one.',
      from: { path: `^src/${layer}/` },
      to: { path: `^src/(?:(?:${[...LAYERS.slice(index + 1)].join('|') || '(?!)'})/|(?:main|index)\\.ts$)` }
    })),
    {
      name: 'src-not-to-tests-or-scripts',
      severity: 'error',
      comment: 'The action never imports the test suite or the scripts.',
      from: { path: '^src/' },
      to: { path: '^(?:test|scripts)/' }
    }
  ],
  options: {
    includeOnly: '^src/',
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are dependencies too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' }
  }
}
