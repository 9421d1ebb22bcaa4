// Every sentence a failed write (a create or a follow-up message) is told with, whole: what happened,
// and what to do. A line from a user's log is found here by searching for its words. The two writes
// fail the same ways, and JobService.write decides which; each kind of failure has one sentence per
// write, side by side. How to start a new job instead of one that refused a message is the ending's
// to say (report/run-ending.ts): it depends on how the run named the job.

/** The sentences of one write, by failure. */
export interface WriteSentences {
  /**
   * A 2xx whose body is not the record of the job written to (a proxy's page, another job's record);
   * `why`: the field of a JSON object that is wrong, and how (", as its `id` is missing"), or ''.
   */
  notAJobRecord(status: number, excerpt: string, namedJob: string | null, why: string): string
  /** The service took it (its own success status, or a body cut at the size limit), and its answer cannot be read. */
  takenUnread(status: number, why: string): string
  /** 429: the rate limit; the service did not take it. */
  rateLimited(): string
  /** 5xx: it may or may not have been taken. */
  serverFailed(status: number, excerpt: string): string
  /** 400 and 404: the service (or the job) refused it. */
  refused(status: 400 | 404, excerpt: string): string
  /** The timeout ran out before a byte of it was written. */
  timedOutBeforeSent(): string
  /** The timeout ran out after it was written, before the answer. */
  timedOutUnanswered(): string
  /** The runner refused to send it (a header value it cannot carry): `why` is the transport's reason. */
  refusedOnTheRunner(why: string): string
  /** No connection: it was surely not sent. */
  unreachable(why: string): string
  /** Written, and the connection failed before an answer. */
  noAnswer(why: string): string
}

export function createSentences(projectId: string, baseUrl: string): WriteSentences {
  // The sentence of every failure after which the job may exist: said once here, whole.
  const mayExist = "The job may or may not have been created: check the project's jobs before running again."
  return {
    notAJobRecord: (status, excerpt, namedJob, why) =>
      `The service answered the create with something that is not ${namedJob ? `its job's record (it names job ${namedJob})` : `a job record${why}`} ` +
      `(HTTP ${status}: ${excerpt}); a proxy may be in the way. ${mayExist}`,
    takenUnread: (status, why) =>
      `The service created the job (HTTP ${status}), but its answer could not be read (${why}), so its id is not known. ` +
      "Look it up in the project's dashboard (it is the newest job there) and follow it with the jobId input and no prompt; " +
      'do not run this again blindly, or a second job will be made.',
    rateLimited: () =>
      "The service's rate limit was reached (HTTP 429): it allows 100 job creations per project per hour. " +
      'No job was created; wait before running again, or space out the runs that create jobs.',
    serverFailed: (status, excerpt) =>
      `The service failed while creating the job (HTTP ${status}: ${excerpt}). ${mayExist}`,
    refused: (status, excerpt) =>
      status === 400
        ? `The service rejected the job request (HTTP 400: ${excerpt}). Check the prompt input; no job was created.`
        : `The service has no project ${projectId} at ${baseUrl} (HTTP 404). Check projectId and baseUrl; no job was created.`,
    timedOutBeforeSent: () =>
      `The timeout ran out before the create could be sent to ${baseUrl}. No job was created; ` +
      'check that baseUrl is reachable from the runner, or raise the timeout.',
    timedOutUnanswered: () => `The timeout ran out before the service answered the create. ${mayExist}`,
    refusedOnTheRunner: (why) =>
      `The create was not sent: ${why}. No job was created. Check the inputs it is made of ` +
      '(apiKey is svc_ followed by printable ASCII, baseUrl and projectId); sending it again would fail the same way.',
    unreachable: (why) =>
      `Could not reach the service at ${baseUrl}: ${why}. No job was created; ` +
      'check baseUrl, and the proxy settings if the runner uses a proxy.',
    noAnswer: (why) => `Creating the job got no answer from ${baseUrl}: ${why}. ${mayExist}`
  }
}

export function messageSentences(jobId: string, projectId: string, baseUrl: string): WriteSentences {
  // The sentence of every failure after which the message may have reached the job: said once here, whole.
  const mayHaveReached =
    `The message may or may not have reached job ${jobId}, so it is not sent again: look at the job and its pull ` +
    'request before running this again, or the agent may do the work twice.'
  return {
    notAJobRecord: (status, excerpt, namedJob, why) =>
      `The service answered the message to job ${jobId} with something that is not ${namedJob ? `its job's record (it names job ${namedJob})` : `a job record${why}`} ` +
      `(HTTP ${status}: ${excerpt}); a proxy may be in the way. ${mayHaveReached}`,
    takenUnread: (status, why) =>
      `The service took the message for job ${jobId} (HTTP ${status}), but its answer could not be read (${why}); ` +
      'following the job.',
    rateLimited: () =>
      "The service's rate limit was reached (HTTP 429): it allows 100 job creations and follow-up messages per " +
      `project per hour, together. The message did not reach job ${jobId}; wait before running again, or space out ` +
      'the runs that create jobs or send messages.',
    serverFailed: (status, excerpt) =>
      `The service failed while taking the message for job ${jobId} (HTTP ${status}: ${excerpt}). ${mayHaveReached}`,
    refused: (status, excerpt) =>
      status === 404
        ? `Job ${jobId} in project ${projectId} refused the follow-up message (HTTP 404: ${excerpt}): the job is not ` +
          `in this project, or takes no more messages. Check jobId and projectId. No new job was created.`
        : `Job ${jobId} in project ${projectId} refused the follow-up message (HTTP 400: ${excerpt}): a job that is ` +
          `archived or failed may take no more messages. No new job was created.`,
    timedOutBeforeSent: () =>
      `The timeout ran out before the message to job ${jobId} could be sent to ${baseUrl}. The message did not reach ` +
      `job ${jobId}; check that baseUrl is reachable from the runner, or raise the timeout.`,
    timedOutUnanswered: () =>
      `The timeout ran out before the service answered the message to job ${jobId}. ${mayHaveReached}`,
    refusedOnTheRunner: (why) =>
      `The message to job ${jobId} was not sent: ${why}. The message did not reach job ${jobId}. Check the inputs it ` +
      'is made of (apiKey is svc_ followed by printable ASCII, baseUrl, projectId and jobId); sending it again would fail the same way.',
    unreachable: (why) =>
      `Could not reach the service at ${baseUrl}: ${why}. The message did not reach job ${jobId}; ` +
      'check baseUrl, and the proxy settings if the runner uses a proxy.',
    noAnswer: (why) => `Sending the message to job ${jobId} got no answer from ${baseUrl}: ${why}. ${mayHaveReached}`
  }
}
