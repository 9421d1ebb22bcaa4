// @ts-check
// Which lines of a step's stdout the GitHub Actions runner would obey as workflow commands, read
// by the runner's own rules (actions/runner, ActionCommand.TryParseV2 and TryParse):
// - a line ends at \n, at \r\n, and at a bare \r;
// - `::name props::data` when the line starts with `::` after its leading blanks are trimmed
//   (.NET's blanks, NEL and no-break space among them);
// - else the older `##[name props]data`, found anywhere in the line (its first `##[`);
// - only registered command names count, in any case; `stop-commands` pauses the others, which
//   is ignored here, so that every line that would be a command with commands on is listed.

/** The commands the runner registers (plus stop-commands), lower-case. */
export const RUNNER_COMMANDS = new Set([
  'stop-commands',
  'add-mask',
  'add-path',
  'set-env',
  'set-output',
  'save-state',
  'add-matcher',
  'remove-matcher',
  'debug',
  'warning',
  'error',
  'notice',
  'group',
  'endgroup',
  'echo'
])

// What .NET's String.TrimStart() takes off: char.IsWhiteSpace.
const DOTNET_LEADING_BLANKS = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/

/**
 * @typedef {object} RunnerCommand
 * @property {'::' | '##['} form
 * @property {string} name Lower-case.
 * @property {string} properties The text between the name and the data ('' when none).
 * @property {string} data As the runner reads it (its %-escapes undone).
 * @property {string} line The whole line it was read from.
 * @property {boolean} indented The line had blanks before `::`.
 */

/**
 * Every line of `stdout` the runner would obey as a command.
 * @param {string} stdout
 * @returns {RunnerCommand[]}
 */
export function commandsTheRunnerWouldObey(stdout) {
  /** @type {RunnerCommand[]} */
  const commands = []
  for (const line of stdout.split(/\r\n|\r|\n/)) {
    const command = parseV2(line) ?? parseV1(line)
    if (command) commands.push(command)
  }
  return commands
}

/**
 * The commands in `stdout` that the action did not mean to give. The action gives only these, each
 * on a line of its own written by @actions/core: `::add-mask::` of a secret it holds, and
 * `::error::`, `::warning::`, `::notice::` and `::debug::` with no properties. A test that smuggles
 * commands into the service's answers gives each one data that starts with `marker`, so that an
 * injected `::error::` is told apart from the action's own.
 * @param {string} stdout
 * @param {{ secrets: string[], marker: string }} expected
 * @returns {RunnerCommand[]}
 */
export function unexpectedCommands(stdout, { secrets, marker }) {
  return commandsTheRunnerWouldObey(stdout).filter((command) => {
    if (command.form !== '::' || command.indented || command.properties !== '') return true
    if (command.name === 'add-mask') return !secrets.includes(command.data)
    if (!['error', 'warning', 'notice', 'debug'].includes(command.name)) return true
    return command.data.startsWith(marker)
  })
}

/** @param {string} line @returns {RunnerCommand | null} */
function parseV2(line) {
  const trimmed = line.replace(DOTNET_LEADING_BLANKS, '')
  if (!trimmed.startsWith('::')) return null
  const end = trimmed.indexOf('::', 2)
  if (end < 0) return null
  const info = trimmed.slice(2, end)
  const space = info.indexOf(' ')
  const name = (space < 0 ? info : info.slice(0, space)).toLowerCase()
  if (!RUNNER_COMMANDS.has(name)) return null
  return {
    form: '::',
    name,
    properties: space < 0 ? '' : info.slice(space + 1).trim(),
    data: unescape(trimmed.slice(end + 2), [
      ['%0D', '\r'],
      ['%0A', '\n'],
      ['%25', '%']
    ]),
    line,
    indented: trimmed !== line
  }
}

/** @param {string} line @returns {RunnerCommand | null} */
function parseV1(line) {
  const start = line.indexOf('##[')
  if (start < 0) return null
  const close = line.indexOf(']', start)
  if (close < 0) return null
  const info = line.slice(start + 3, close)
  const space = info.indexOf(' ')
  const name = (space < 0 ? info : info.slice(0, space)).toLowerCase()
  if (!RUNNER_COMMANDS.has(name)) return null
  return {
    form: '##[',
    name,
    properties: space < 0 ? '' : info.slice(space + 1),
    data: unescape(line.slice(close + 1), [
      ['%3B', ';'],
      ['%0D', '\r'],
      ['%0A', '\n'],
      ['%5D', ']'],
      ['%25', '%']
    ]),
    line,
    indented: start > 0
  }
}

/** @param {string} text @param {[string, string][]} mappings */
function unescape(text, mappings) {
  return mappings.reduce((result, [escaped, token]) => result.split(escaped).join(token), text)
}
