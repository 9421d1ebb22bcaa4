// @ts-check
// The house as drawn (CONTRIBUTING.md, "The map of the code"), checked by `npm run lint:layers` and
// in .ci/run: src/ is a stack of folders, and an import only ever goes down it. The shared layers
// come first, then the run's stages in the order a mode (src/modes/) tells them; index.ts and main.ts sit on
// top and may import anything. No circle of files either, type imports included: a type import
// ties two files together as much as any other.

/** From the bottom up: a folder may import only the folders before it in this list (and itself). */
const LAYERS = [
  // Shared layers, below every stage.
  'safety', // secrets, neutralising outside text, the credential scan, bounded JSON
  'runtime', // log, errors, deadline, durations, cancel, version
  'net', // HTTP transport, proxy settings, the retry policy
  'github', // the event, GitHub's JSON shapes, its reader and client, notes' places, bounded comment writes
  // The stages of a run, in the order a mode tells them.
  'inputs',
  'group', // a group's docs pull request found, recorded, labelled and told: routing (request/) finds it
  'request', // where a request comes from (a comment, a label, the inputs) and where it goes (the Route)
  'context',
  'prompt',
  'service',
  'report',
  // The stages themselves, each taking what the ones before it returned.
  'run',
  // The modes a run can be (main.ts chooses one), each telling its stages in order.
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
        'a lower layer or an earlier stage never depends on a later one.',
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
