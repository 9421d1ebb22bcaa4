// How two parts of a prompt join, in one place: the inputs join promptFile's text and the prompt
// input, and the assembly joins the settings' prompt and a comment's instruction, the same way.

/** The prompt sent: the file's text first, then, after a blank line, the prompt given inline. */
export function joinPrompts(fromFile: string, inline: string): string {
  return [fromFile, inline].filter((part) => part !== '').join('\n\n')
}
