// The inputs of a group (group, docsRepository): read on their own, beside the others, so that a run
// without a group reads and checks exactly what it did before.
import * as core from '@actions/core'
import { ActionError } from '../runtime/errors.js'
import { neutralise } from '../safety/neutralise.js'
import type { Runner } from '../github/runner.js'
import { Input } from '../kernel/action-names.js'
import type { GroupSettings } from '../kernel/settings.js'

// A label is at most 50 characters; the group's has an 11-character prefix (docs-agent:).
const GROUP_SHAPE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,38}$/
const REPOSITORY_SHAPE = /^[A-Za-z0-9][A-Za-z0-9-]{0,38}\/[A-Za-z0-9._-]{1,100}$/

/**
 * The group of this run, or null without one. A group needs its runs to follow their jobs (`wait`):
 * the group's record is its docs pull request, which a run learns only by following its job there; a
 * run that hands its job over would leave the next run nothing to find, and each push would open a
 * docs pull request of its own. So the combination is refused at the start, in a sentence.
 */
export function readGroupSettings(runner: Pick<Runner, 'repository'>, wait = true): GroupSettings | null {
  const name = core.getInput(Input.group)
  if (!name) return null
  if (!wait) {
    throw new ActionError(
      `Input ${Input.group} needs ${Input.wait}: true (the default), and ${Input.wait} is false: a run that does not ` +
        `follow its job cannot make the job's pull request the group's, so every run would open a docs pull request ` +
        `of its own. Remove ${Input.wait}: false to keep one docs pull request for the group, or remove ` +
        `${Input.group} to hand each run's job over (a reporting run tells its ending).`
    )
  }
  if (!GROUP_SHAPE.test(name)) {
    throw new ActionError(
      `Input ${Input.group} is '${neutralise(name, 80)}', which is not a group name: use 1 to 39 letters, digits, ` +
        `dots, underscores or hyphens, starting with a letter or digit (the group's label is docs-agent:<group>, ` +
        `and GitHub allows 50 characters), for example docs-follow-code or code-pr-42.`
    )
  }
  const repository = readDocsRepository(runner)
  if (!repository) {
    throw new ActionError(
      `Input ${Input.group} needs a repository to look for the group's pull request in, and GITHUB_REPOSITORY ` +
        `is not set: give ${Input.docsRepository} as owner/repo.`
    )
  }
  return { name, repository }
}

/**
 * Where a group's docs pull requests are looked for: the docsRepository input, or this repository. A
 * run without a group reads it too: a comment on a group's code pull request goes to the group's job.
 * '' when neither is given (a local run without GITHUB_REPOSITORY): then no group is looked for.
 */
export function readDocsRepository(runner: Pick<Runner, 'repository'>): string {
  const docsRepository = core.getInput(Input.docsRepository)
  const repository = docsRepository || runner.repository
  if (REPOSITORY_SHAPE.test(repository)) return repository
  if (docsRepository) {
    throw new ActionError(
      `Input ${Input.docsRepository} is '${neutralise(docsRepository, 140)}', which is not owner/repo. ` +
        `Give the repository the docs pull requests are opened in, for example octo-org/docs.`
    )
  }
  return ''
}
