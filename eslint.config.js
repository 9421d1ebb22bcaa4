// @ts-check
import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.ci/node/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // Errors must reach the user as sentences, never as a raw dump; console is for scripts only.
      'no-console': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }]
    }
  },
  { files: ['scripts/**', 'test/**'], rules: { 'no-console': 'off' } },
  {
    // A decision over a union (a Route, an ending) is a switch that names every member, its default
    // assertNever (src/runtime/assert-never.ts), so a new member does not compile until each place has
    // decided; a switch without a default must name every member. (A switch that words a few members
    // and gives the rest one sentence keeps its default.) The rule reads types, so it runs over src/ alone.
    files: ['src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: true }
      ]
    }
  },
  {
    // A function takes at most four values: past that a call is a row of values whose order the
    // reader must remember, so the rest go in an options object whose fields name them.
    files: ['src/**/*.ts'],
    rules: { '@typescript-eslint/max-params': ['error', { max: 4 }] }
  },
  {
    // Every log line goes through src/runtime/log.ts, which neutralises the outside text it carries.
    files: ['src/**/*.ts'],
    ignores: ['src/runtime/log.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['debug', 'info', 'notice', 'warning', 'error', 'setFailed'].map((property) => ({
          object: 'core',
          property,
          message: 'Log through src/runtime/log.ts: it keeps outside text from becoming a workflow command.'
        }))
      ]
    }
  }
)
