// The entry scripts/bench-credentials.js bundles: the action's own credential scan and secret-file
// list, for measuring them on a corpus. Not part of the action.
export { blankText, blankTexts } from '../src/safety/credentials/scan.js'
export { fileKind } from '../src/context/file-kinds.js'
