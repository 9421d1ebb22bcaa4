// What the run says as it sends: the create made, the follow-up message sent, and what a group's run
// does with the group's job (in a dry run, or before a wait or a create). Worded here with every
// other sentence a person reads; the send-and-follow step logs them.
import { Input } from '../kernel/action-names.js'
import type { GroupRun } from '../kernel/group.js'
import { pullRequestName } from '../github/pull-request-ref.js'

/** The create the service took. */
export function wordCreated(jobId: string, projectId: string): string {
  return `Created job ${jobId} in project ${projectId}.`
}

/** The follow-up message the service took; `group` names the group whose job it went to. */
export function wordMessageSent(jobId: string, group?: string): string {
  return group
    ? `Sent the follow-up message to job ${jobId}, group ${group}'s.`
    : `Sent the follow-up message to job ${jobId}.`
}

/** What the run does with the group's job, as one line: in a dry run, or before a wait or a create. */
export function wordGroupSend(
  group: GroupRun,
  dryRun: boolean,
  why?: 'busy' | 'archived' | 'failed' | 'gone' | 'refused' | 'merged' | 'closed'
): string {
  const { name } = group.settings
  const { open } = group
  if (dryRun) {
    return open
      ? `Dry run: group ${name}'s job ${open.jobId} (docs pull request ${pullRequestName(open.pr)}) ` +
          `would get this prompt as a follow-up message.`
      : `Dry run: group ${name} has no open docs pull request, so a job would be created.`
  }
  const jobId = open?.jobId ?? ''
  const creates = `this run creates a job, and its pull request becomes the group's.`
  switch (why) {
    case 'busy':
      return `Job ${jobId}, group ${name}'s, is still working on the group's last message: the prompt is sent once it has finished, within the ${Input.timeout}.`
    case 'archived':
    case 'failed':
      return `Group ${name}'s job ${jobId} ended ${why} and takes no more messages: ${creates}`
    case 'gone':
      return `Group ${name}'s job ${jobId} was not found in the project (HTTP 404): ${creates}`
    case 'refused':
      return `Group ${name}'s job ${jobId} refused the follow-up message, so the service did not take it: ${creates}`
    case 'merged':
    case 'closed':
      return `Group ${name}'s docs pull request #${open?.pr.number ?? ''} was ${why} while its job was working: ${creates}`
    default:
      return `Group ${name}: ${creates}`
  }
}
