// The words of a group's run that sent nothing (the `held` ending): why it held, and what becomes of
// its changes. ending-words.ts words every other ending (with queued-words.ts and message-words.ts).
import { Input } from '../kernel/action-names.js'
import { assertNever } from '../runtime/assert-never.js'
import { formatDuration } from '../runtime/duration.js'
import type { EndingWords, GroupHold } from '../kernel/run-outcome.js'

const NOTHING_SENT = 'Nothing was sent to the documentation agent job service.'

/** What an `unread` hold could not read, when it is how the run's commit stands to the group's mark. */
export function wordUnreadAncestry(covers: string): string {
  return `how ${covers.slice(0, 7)} stands to the group's mark`
}

/** What an `unread` hold could not read, when it is the changes since the group's mark (the comparison failed). */
export function wordUnreadSinceMark(mark: string, group: string): string {
  return `the changes since ${mark.slice(0, 7)}, the last commit group ${group}'s job was told of (see the warning above)`
}

/** A group's held run: what it did not send, why, and where its changes go. */
export function wordHold(hold: GroupHold, name: string): EndingWords {
  const group = `group ${hold.group}`
  const mark = 'mark' in hold ? hold.mark : ''
  const markStays = mark
    ? `The group's mark stays at ${mark.slice(0, 7)}, so the group's next run sends this run's changes.`
    : "The group's next run sends this run's changes."
  switch (hold.why) {
    case 'covered':
      return {
        level: 'notice',
        icon: '☑️',
        short: `Nothing was sent: ${group}'s docs were told of the changes up to ${hold.covers.slice(0, 7)} already.`,
        log:
          `This run's commit ${hold.covers.slice(0, 7)} is at or before ${group}'s mark ${hold.mark.slice(0, 7)} (a re-run, ` +
          `or an older run run again): its changes were sent before. ${NOTHING_SENT} The mark stays where it is.`
      }
    case 'waited-out':
      return {
        level: 'notice',
        icon: '⏳',
        short: `Nothing was sent: ${group}'s job ${name} was still working on its last changes when the ${Input.timeout} ran out.`,
        log:
          `${upper(group)}'s job ${name} was still working on the group's last message when the ${Input.timeout} ` +
          `(${formatDuration(hold.timeoutMs)}) ran out, so this run sent nothing. ${markStays}`
      }
    case 'handed-over':
      return {
        level: 'notice',
        icon: '⏳',
        short: `Nothing was sent: ${group}'s job ${name}, handed over by an earlier run, is still working.`,
        log:
          `${upper(group)}'s job ${name} was handed over by an earlier run and is still working, with no docs pull ` +
          `request yet, so this run created no second job beside it. ${NOTHING_SENT} ` +
          (mark
            ? `The group's mark stays at ${mark.slice(0, 7)}, so the group's next run after the job ends sends this run's changes.`
            : "The group's next run after the job ends sends this run's changes.")
      }
    case 'unread':
      return {
        level: 'warning',
        icon: '⚠️',
        short: `Nothing was sent: GitHub could not say what ${group}'s job has not been told of yet.`,
        log: `Could not read ${hold.problem}. ${NOTHING_SENT} ${markStays}`
      }
    case 'code-closed': {
      const how = hold.merged ? 'was merged' : 'was closed without merging'
      const code = `The code pull request #${hold.code} ${how}`
      const told = hold.docs
        ? hold.untold
          ? `${code}, but ${group}'s docs pull request ${hold.docs} could not be told: ${hold.untold}`
          : `${code}: said so on ${group}'s docs pull request ${hold.docs}.`
        : `${code}, and ${group} has no open docs pull request to tell.`
      return {
        level: hold.untold ? 'warning' : 'info',
        icon: '📝',
        short: `${told} Nothing was sent: the docs have every change.`,
        log: `${told} ${NOTHING_SENT}`
      }
    }
    default:
      return assertNever(hold, 'group hold')
  }
}

function upper(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
