// @ts-check
// The house as drawn (CONTRIBUTING.md, "The map of the code"), checked by `npm run lint:layers` and
// in .ci/run: src/ is a stack of folders, and an import only ever goes down it. The shared layers
// come first, then the run's stages in the order a mode (src/modes/) tells them; index.ts and main.ts sit on
// top and may import anything. No circle of files either, type imports included: a type import
// ties two files together as much as any other.

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

// Imports that still cross the plan upwards while the move into rooms is finished; each entry is one
// file's import of another, and the list only ever shrinks. It is empty now: every import goes down.
/** @type {[string, string][]} */
const KNOWN_CROSSINGS = []

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
    ...LAYERS.flatMap((layer, index) => {
      const above = `^src/(?:(?:${[...LAYERS.slice(index + 1)].join('|') || '(?!)'})/|(?:main|index)\\.ts$)`
      const comment =
        `src/${layer}/ may import only ${['itself', ...LAYERS.slice(0, index)].join(', ')}: ` +
        'a lower room or an earlier feature never depends on a later one.'
      const crossing = KNOWN_CROSSINGS.filter(([from]) => from.startsWith(`src/${layer}/`))
      const crossers = [...new Set(crossing.map(([from]) => from))]
      return [
        {
          name: `${layer}-imports-only-below`,
          severity: /** @type {const} */ ('error'),
          comment,
          from: { path: `^src/${layer}/`, pathNot: crossers.map((file) => `^${file}$`) },
          to: { path: above }
        },
        ...crossers.map((file) => ({
          name: `${layer}-imports-only-below`,
          severity: /** @type {const} */ ('error'),
          comment,
          from: { path: `^${file}$` },
          to: { path: above, pathNot: crossing.filter(([from]) => from === file).map(([, to]) => `^${to}$`) }
        }))
      ]
    }),
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
