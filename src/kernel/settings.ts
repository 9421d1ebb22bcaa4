// The run's settings as types, with no reading in them: every room that is handed the settings
// imports their shape from here, and inputs/ alone reads and checks the inputs into it.
import type { CommentSettings } from './comment-settings.js'

/**
 * Everything a run needs, read and checked once, before the first request is sent; nothing changes
 * it afterwards (where the request goes is decided apart, as a Route: kernel/route.ts).
 */
export type Settings = Readonly<SettingsFields>

export interface SettingsFields {
  /** The documentation project, as the service names it (not yet URL-encoded). */
  projectId: string
  /**
   * The instruction for the agent: promptFile's text, then the prompt input (with a jobId, the prompt
   * alone, as a follow-up message to it); empty when a comment gives it (a comment's instruction then
   * follows promptFile's text).
   */
  prompt: string
  /** The admin key, `svc_<secret>`; already masked in the log. */
  apiKey: string
  /** The service's address without a trailing slash: https, or http on a loopback host. */
  baseUrl: string
  /** Follow the job to a final status, or stop once it exists or has the message (a jobId alone is always followed). */
  wait: boolean
  /** How long the step may follow the job, counted from the step's start. */
  timeoutMs: number
  /** The steady interval between polls once a job has run a while. */
  pollIntervalMs: number
  /** An existing job to follow (with a prompt: to send it a follow-up message) instead of creating one; empty to create. */
  jobId: string
  /** Fail a completed job that opened no pull request. */
  requirePr: boolean
  /** Set when the run is comment-triggered: a comment event (see COMMENT_EVENTS), and neither prompt nor jobId given. */
  comment: CommentSettings | null
  /** What the agent is told besides the prompt: nothing, what changed, or that and the diffs. */
  context: ContextMode
  /** The most characters the context section may take. */
  contextLimit: number
  /** For GitHub's API: reading the context, and the replies on a comment thread; already masked; may be empty. */
  githubToken: string
  /** Read the inputs and the context, show the prompt, send nothing to the service. */
  dryRun: boolean
  /** The trigger as the note on the agent's pull request names it, in any run: the default when the input is unusable. */
  noteTrigger: string
  /** Runs that share one docs pull request (the group input, and docsRepository); null without one. */
  group: GroupSettings | null
  /** Where a group's docs pull requests are looked for (docsRepository, or this repository); '' when neither is known. */
  docsRepository: string
}

/** `none`: the prompt alone; `changes`: and what changed; `diff`: and the diff hunks too. */
export type ContextMode = 'none' | 'changes' | 'diff'

/** A group of runs that share one docs pull request (group/group-settings.ts reads it). */
export interface GroupSettings {
  /** The group's name, checked: it goes into a label (at most 50 characters with its prefix) and a marker. */
  name: string
  /** Where the group's pull request is looked for: `owner/repo`. */
  repository: string
}

/**
 * The inputs a run reads before the others: a comment-triggered run answers on its thread (with the
 * token) even when the rest are wrong. readSettings takes them as they were read, so each is read once.
 */
export interface FirstInputs {
  /** Null when the run is not comment-triggered (see readCommentSettings). */
  comment: CommentSettings | null
  /** For GitHub's API; already masked (maskSecrets); may be empty. */
  githubToken: string
}

/** What a reporting run needs: the service's access, the token, the trigger its notes name. */
export type ReportSettings = Pick<Settings, 'projectId' | 'apiKey' | 'baseUrl' | 'githubToken' | 'noteTrigger'>
