// The service's address (the baseUrl input), checked before the key is ever sent to it: a URL, with
// no credentials, query or fragment in it, over https (plain http only to this machine, for local
// testing), and not already ending in the API's own path.
import { Input } from '../kernel/action-names.js'
import { ActionError } from '../runtime/errors.js'
import { neutralise } from '../safety/neutralise.js'

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost'])

/** The service's address from the baseUrl input, without a trailing slash; a sentence when it cannot be used. */
export function readBaseUrl(text: string): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new ActionError(
      `Input ${Input.baseUrl} is '${text}', which is not a URL. Give the service's address, https://...`
    )
  }
  if (url.username || url.password) {
    throw new ActionError(
      `Input ${Input.baseUrl} carries credentials. Give the address alone; the key goes in ${Input.apiKey}.`
    )
  }
  if (url.search || url.hash) {
    // Not quoted: a query is where a key pasted by mistake would sit.
    throw new ActionError(
      `Input ${Input.baseUrl} has a query (?) or fragment (#). Give the service's address alone, https://...`
    )
  }
  const loopback = LOOPBACK_HOSTS.has(url.hostname)
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new ActionError(
      `Input ${Input.baseUrl} is '${text}', but the key may only travel over https. ` +
        `Use https://... (plain http is accepted only for 127.0.0.1, ::1 and localhost, for local testing).`
    )
  }
  // The action adds /v2/agent/<projectId>/job itself: an address that already ends in part of it
  // (pasted from the API reference) would be asked for /v2/v2/agent/..., which no service has.
  const apiPath = /\/v2(?:\/agent(?:\/.*)?)?\/*$/i.exec(url.pathname)
  if (apiPath) {
    const address = `${url.origin}${url.pathname.slice(0, apiPath.index)}`
    throw new ActionError(
      `Input ${Input.baseUrl} is '${neutralise(url.href, 200)}', which ends in the API's own path (${neutralise(apiPath[0], 100)}): ` +
        `the action adds /v2/agent/<projectId>/job itself. Give the service's address alone: ${neutralise(address, 200)}`
    )
  }
  return url.href.replace(/\/+$/, '')
}
