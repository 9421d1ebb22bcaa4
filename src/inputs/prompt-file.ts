// A standing instruction kept in the repository (promptFile) rather than in the workflow's YAML. The
// file is read from the checkout, and only from inside it: the path is the workflow's, but the
// file's content (and any link in the checkout) may be anyone's who can push, so a path that leads
// elsewhere on the runner (`..`, an absolute path, a symbolic link) is refused before anything is sent.
import { lstatSync, readFileSync, realpathSync, type Stats } from 'node:fs'
import { isAbsolute, join, relative, resolve, sep, win32 } from 'node:path'
import { Input } from '../kernel/action-names.js'
import { ActionError } from '../runtime/errors.js'
import { neutralise } from '../safety/neutralise.js'

/** The most a prompt file may hold: a standing instruction, not a document. */
export const PROMPT_FILE_MAX_BYTES = 64 * 1024

/** The file's text, trimmed; '' when no promptFile is given. Throws a sentence naming promptFile. */
export function readPromptFile(path: string, workspace = process.env.GITHUB_WORKSPACE || process.cwd()): string {
  if (path === '') return ''
  const named = `Input ${Input.promptFile} is '${neutralise(path, 200)}'`
  const relativeHint = 'Give a path relative to the root of the checkout, such as .github/docs-prompt.md.'
  if (isAbsolute(path) || win32.isAbsolute(path)) {
    throw new ActionError(`${named}, an absolute path. ${relativeHint}`)
  }
  if (path.split(/[\\/]+/).includes('..')) {
    throw new ActionError(`${named}, which steps out of the checkout with '..'. ${relativeHint}`)
  }
  const root = realRoot(workspace)
  const full = resolve(root, path)
  // Each step of the path, from the checkout's root down: none may be a symbolic link.
  let stats: Stats | undefined
  let at = root
  for (const part of relative(root, full).split(sep).filter(Boolean)) {
    at = join(at, part)
    stats = lstatOrNull(at) ?? undefined
    if (!stats) {
      throw new ActionError(
        `${named}, but there is no such file in the workspace (${root}). Check the repository out (actions/checkout) ` +
          `in a step before this one, and give the path relative to its root.`
      )
    }
    if (stats.isSymbolicLink()) {
      throw new ActionError(
        `${named}, but ${at === full ? 'it' : `'${neutralise(relative(root, at), 200)}'`} is a symbolic link: ` +
          `${Input.promptFile} is read only from files inside the checkout. Point it at the file itself.`
      )
    }
  }
  if (!stats || stats.isDirectory()) {
    throw new ActionError(`${named}, which is a directory. Give the path of the file that holds the prompt.`)
  }
  if (!stats.isFile()) throw new ActionError(`${named}, which is not a regular file. Give the path of a text file.`)
  if (stats.size > PROMPT_FILE_MAX_BYTES) {
    throw new ActionError(
      `${named}, which holds ${stats.size.toLocaleString('en-US')} bytes; a prompt file may hold at most ` +
        `${PROMPT_FILE_MAX_BYTES.toLocaleString('en-US')}. Keep the standing instruction short, and let the context carry the detail.`
    )
  }
  const text = readFileSync(full, 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
  if (text === '') throw new ActionError(`${named}, which is empty. Write the instruction in it, or leave it out.`)
  return text
}

function realRoot(workspace: string): string {
  try {
    return realpathSync(workspace)
  } catch {
    throw new ActionError(
      `Input ${Input.promptFile} is given, but the workspace (${neutralise(workspace, 200)}) does not exist. ` +
        'Check the repository out (actions/checkout) in a step before this one.'
    )
  }
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path)
  } catch {
    return null
  }
}
