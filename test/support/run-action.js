// @ts-check
// Runs the bundled action (dist/index.js) the way the runner does: inputs as INPUT_* variables,
// outputs and the job summary written to the files GITHUB_OUTPUT and GITHUB_STEP_SUMMARY name, the
// result read from the exit code. Node's built-ins only: the demo and the benchmark use it too.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

// The test suite sets ACTION_ENTRY to the bundle it built from the current src/ (build-action.ts);
// the demo and the benchmark run the committed dist/.
export const ACTION_ENTRY = process.env.ACTION_ENTRY || fileURLToPath(new URL('../../dist/index.js', import.meta.url))

/**
 * @typedef {object} ActionRun
 * @property {number | null} code The exit code (null when killed by a signal).
 * @property {string} stdout Everything the action printed (the runner reads its commands from it).
 * @property {string} stderr
 * @property {Record<string, string>} outputs The step outputs, last value of each name.
 * @property {string} outputFile The GITHUB_OUTPUT file as written, every setting of every output.
 * @property {string} summary The job summary written (Markdown/HTML).
 * @property {string} all stdout, stderr, outputs and summary together: what a leak check reads.
 * @property {number} startedAt When the process was started (Date.now()).
 * @property {number} endedAt When its exit was seen (Date.now()): with the stand-ins' request times, how
 *   long the run went on after a request, without node's start-up.
 *
 * @typedef {object} RunOptions
 * @property {Record<string, string>} inputs Input names as in action.yml (projectId, apiKey...).
 * @property {Record<string, string>} [env] Extra environment (a proxy, RUNNER_DEBUG...).
 * @property {string} [entry] The script to run (default dist/index.js).
 * @property {string} [node] The node binary (default: the one running this).
 * @property {(chunk: string) => void} [onStdout] Sees stdout as it arrives.
 */

/**
 * Starts the action; `done` resolves when it exits.
 * @param {RunOptions} options
 */
export function startAction(options) {
  const dir = mkdtempSync(join(tmpdir(), 'docs-agent-action-'))
  const outputFile = join(dir, 'output')
  const summaryFile = join(dir, 'summary')
  writeFileSync(outputFile, '')
  writeFileSync(summaryFile, '')

  /** @type {Record<string, string>} */
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? dir,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    RUNNER_TEMP: dir,
    ...options.env
  }
  for (const [name, value] of Object.entries(options.inputs)) {
    env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value
  }

  const startedAt = Date.now()
  const child = spawn(options.node ?? process.execPath, [options.entry ?? ACTION_ENTRY], {
    env,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    stdout += chunk
    options.onStdout?.(chunk)
  })
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk))

  /** @type {Promise<ActionRun>} */
  const done = new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => {
      const endedAt = Date.now()
      const outputText = readFileSync(outputFile, 'utf8')
      const outputs = parseOutputs(outputText)
      const summary = readFileSync(summaryFile, 'utf8')
      rmSync(dir, { recursive: true, force: true })
      const all = [stdout, stderr, JSON.stringify(outputs), summary].join('\n')
      resolve({ code, stdout, stderr, outputs, outputFile: outputText, summary, all, startedAt, endedAt })
    })
  })
  return { child, done }
}

/** @param {RunOptions} options */
export function runAction(options) {
  return startAction(options).done
}

/**
 * Reads a GITHUB_OUTPUT file: `name<<delimiter`, the value's lines, `delimiter`.
 * @param {string} text
 */
export function parseOutputs(text) {
  /** @type {Record<string, string>} */
  const outputs = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const header = /^([^<=]+)<<(.+)$/.exec(lines[i])
    if (header) {
      const [, name, delimiter] = header
      const end = lines.indexOf(delimiter, i + 1)
      outputs[name] = lines.slice(i + 1, end).join('\n')
      i = end
    } else if (lines[i].includes('=')) {
      const at = lines[i].indexOf('=')
      outputs[lines[i].slice(0, at)] = lines[i].slice(at + 1)
    }
  }
  return outputs
}

/**
 * What the action printed with the runner's own masking commands taken out: `::add-mask::` lines
 * are how the key is handed to the runner to mask, and never reach the log.
 * @param {string} text
 */
export function withoutMaskCommands(text) {
  return text
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n')
}

/**
 * Inputs for a run against a stand-in service: its key and address, a project, a prompt, and
 * intervals short enough for a test; `extra` overrides any of them.
 * @param {{ apiKey: string, url: string }} service
 * @param {Record<string, string>} [extra]
 * @returns {Record<string, string>}
 */
export function inputsFor(service, extra = {}) {
  return {
    projectId: 'docs',
    prompt: 'Document the new --dry-run flag',
    apiKey: service.apiKey,
    baseUrl: service.url,
    pollInterval: '1s',
    timeout: '10s',
    ...extra
  }
}
