// The comment settings' shape and constants (trigger, allowedAssociations, the --new flag): the thread
// and the words share them; inputs/comment-settings.ts reads them.

export interface CommentSettings {
  /** The prefix that marks a comment as an instruction, e.g. `/docs`. */
  trigger: string
  /** The author_association values whose comments may start a job, upper-case. */
  allowedAssociations: string[]
}

export const DEFAULT_TRIGGER = '/docs'
export const DEFAULT_ASSOCIATIONS = 'OWNER,MEMBER,COLLABORATOR'
/** Written right after the trigger (`/docs --new ...`): a new job, even on the agent's own pull request. */
export const FRESH_FLAG = '--new'
