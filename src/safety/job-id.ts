// The one shape a job id may have, wherever it comes from (the jobId input, the service's answer, the
// marker in the note on the agent's pull request). An id goes into paths, log lines, outputs and
// replies, and a later step may print it at the start of a line: a short token that starts with a
// letter or digit (so never `.`, `..` or `::`).
const JOB_ID = /^[A-Za-z0-9][A-Za-z0-9._:~-]{0,127}$/

/** Whether `text` has the shape of a job id: 1 to 128 letters, digits and . _ : ~ -, starting with a letter or digit. */
export function isJobId(text: string): boolean {
  return JOB_ID.test(text)
}
