// A host name that did not resolve. Asking again seldom helps (a typo, or a placeholder address that
// was never replaced), so the first failure is said once, in full; and a name under the domains kept
// for examples (example.com, .example, .invalid, .test) is named as the placeholder it is: the one in
// .env.example is such a name.

/** The system's codes for a host name that did not resolve. */
const UNRESOLVED_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN'])

/** Domains reserved for documentation and tests (RFC 2606, RFC 6761): no service lives there. */
const PLACEHOLDER_DOMAIN = /(^|\.)(example\.(com|net|org)|example|invalid|test)\.?$/i

/** Whether a network error's code says that the host name did not resolve. */
export function isUnresolvedHost(code: string): boolean {
  return UNRESOLVED_CODES.has(code)
}

/** Whether a host name is a placeholder: under a domain reserved for examples. */
export function isPlaceholderHost(hostname: string): boolean {
  return PLACEHOLDER_DOMAIN.test(hostname)
}

/** The end of the sentence for a host name that did not resolve, naming a placeholder as one. */
export function unresolvedHostWords(code: string, hostname: string): string {
  const failed = code === 'EAI_AGAIN' ? 'could not be looked up' : 'was not found'
  if (!isPlaceholderHost(hostname)) return `its host name ${failed} (${code})`
  return (
    `its host name ${failed} (${code}), and it is a placeholder (a name kept for examples, as in ` +
    `.env.example), not a service's address: replace it with your service's`
  )
}
