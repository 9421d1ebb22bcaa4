// The endings of a group's run that sent nothing (`held`, see GroupHold), worded once: run-ending.ts
// takes its log line, short sentence, heading and next step from here, as for every other ending.
import { Input } from '../inputs/action-names.js'
import { assertNever } from '../runtime/assert-never.js'
import { formatDuration } from '../runtime/duration.js'
import type { EndingWords, Verdict } from './ending-words.js'

/**
 * A run with a group that sent nothing, and why (the `held` ending): `covered`, the group's mark has
 * this run's commit already (a re-run, or an older run run again); `waited-out`, the group's job was
 * still working when the timeout ran out; `unread`, GitHub could not say what the group's job has not
 * been told of; `code-closed`, the code pull request the group documents was closed (or merged with
 * nothing left to send), and its docs pull request was told. The group's mark stays: the changes a
 * held run did not send go with the group's next run.
 */
export type GroupHold =
  | { why: 'covered'; group: string; mark: string; covers: string }
  | { why: 'waited-out'; group: string; mark: string; timeoutMs: number }
  | { why: 'unread'; group: string; mark: string; problem: string }
  | {
      why: 'code-closed'
      group: string
      /** The code pull request's number, and whether it was merged. */
      code: number
      merged: boolean
      /** The group's docs pull request (`#31 of owner/repo`), or null when it has none open. */
      docs: string | null
      /** Why the docs pull request could not be told, as a sentence; null when it was (or there was none). */
      untold: string | null
    }

const NOTHING_SENT = 'Nothing was sent to the documentation agent job service.'

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

/** A group's held run's heading and next step. */
export function judgeHold(hold: GroupHold, says: (verdict: string, next?: string | null) => Verdict): Verdict {
  switch (hold.why) {
    case 'covered':
      return says('Nothing to send: the docs were told of these changes already')
    case 'waited-out':
      return says(
        "Waited out: the group's job was busy",
        `Nothing to do: the group's next run sends these changes. To wait longer for the job, raise ${Input.timeout}.`
      )
    case 'unread':
      return says(
        'Held: GitHub could not be read',
        "The group's next run sends these changes; run the workflow again to send them now."
      )
    case 'code-closed':
      return says(
        hold.merged ? 'Code merged: the docs pull request was told' : 'Code closed: the docs pull request was told',
        hold.merged && hold.docs ? 'Review the docs pull request, and merge it when it is right.' : null
      )
    default:
      return assertNever(hold, 'group hold')
  }
}
