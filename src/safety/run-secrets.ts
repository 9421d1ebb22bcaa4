import * as core from '@actions/core'

// The secrets this run holds (the API key, the GitHub token). The runner masks them in the log,
// but not in what the action posts to GitHub, and a server may echo one back in another form:
// every text that leaves the action passes through blankSecrets first. Each secret is kept with
// its forms, worked out once: every line the action logs is blanked, from before the create on.
const secrets = new Map<string, string[]>()

/** Masks a secret in everything the runner prints from now on, and blanks it wherever we write. */
export function registerSecret(value: string): void {
  for (const form of new Set([value, value.trim()])) {
    if (form === '') continue
    core.setSecret(form)
    if (!secrets.has(form)) secrets.set(form, formsOf(form))
  }
}

/** The text with every registered secret blanked (as `marker`), in every form a server may echo it in. */
export function blankSecrets(text: string, marker = '***'): string {
  let blanked = text
  for (const forms of secrets.values()) {
    for (const form of forms) blanked = blanked.split(form).join(marker)
  }
  return blanked
}

/** As written, URL-encoded, JSON-escaped, and base64-encoded at each of its three alignments. */
function formsOf(secret: string): string[] {
  const forms = [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]
  for (let offset = 0; offset < 3; offset++) {
    // Prefixing 0–2 bytes shifts the secret within base64's 3-byte groups; the characters that
    // depend on the prefix or on what follows are cut, what remains is always in the encoding.
    const encoded = Buffer.from('\0'.repeat(offset) + secret).toString('base64')
    const start = offset === 0 ? 0 : Math.ceil((offset * 4) / 3) + 1
    const end = encoded.replace(/=+$/, '').length - 2
    if (end - start >= 8) forms.push(encoded.slice(start, end))
  }
  return [...new Set(forms.filter((form) => form.length >= 4))].sort((a, b) => b.length - a.length)
}
