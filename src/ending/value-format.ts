// How the service's values are shown where an ending's words go: its own module, since every file of
// words takes it and the places that tell the words (the log, the summary, the reply) each give one.
/**
 * How the service's values are shown where the words go: as they are in the log (the log neutralises
 * every line), in code spans on the thread (see thread/reply-text.ts), where a link the service gave
 * must not become one the repository's bot posted.
 */
export interface ValueFormat {
  id(jobId: string): string
  status(status: string): string
  /** A link the service gave (the job's pull request). */
  link(url: string): string
}

/** The values as the service gave them: the log neutralises every line itself. */
export const VALUES_AS_GIVEN: ValueFormat = { id: (jobId) => jobId, status: (status) => status, link: (url) => url }
