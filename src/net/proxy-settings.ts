import { ActionError } from '../runtime/errors.js'
import { neutralise } from '../safety/neutralise.js'

// The service is reached through the proxy the environment names, as undici's EnvHttpProxyAgent
// reads it: the lower-case variable first, then the upper-case one. A value it cannot read would
// otherwise surface as "Invalid URL" from deep inside the HTTP client, before or during the first
// request; here it is a sentence before any request, naming the variable and never its credentials.
const PROXY_VARIABLES = [
  ['https_proxy', 'HTTPS_PROXY'],
  ['http_proxy', 'HTTP_PROXY']
] as const
// undici also tunnels through a SOCKS5 proxy.
const PROXY_PROTOCOLS = new Set(['http:', 'https:', 'socks5:', 'socks:'])

/** Throws an ActionError when a proxy variable the HTTP client would use is not a proxy's address. */
export function checkProxyVariables(env: NodeJS.ProcessEnv): void {
  for (const [lower, upper] of PROXY_VARIABLES) {
    const name = env[lower] !== undefined ? lower : upper
    const value = env[name]
    if (!value) continue
    const problem = proxyProblem(value)
    if (problem) {
      throw new ActionError(
        `The environment variable ${name} is ${describeValue(value)}, which ${problem}. Set it to the proxy's ` +
          `address, such as http://proxy.example:3128 (with user:password@ before the host if the proxy needs ` +
          `them), or unset it for this step.`
      )
    }
  }
}

function proxyProblem(value: string): string | null {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'is not a URL'
  }
  if (!PROXY_PROTOCOLS.has(url.protocol)) return 'does not start with http://, https:// or socks5://'
  return null
}

/** The value, when it cannot hold credentials; otherwise only what it is not. */
function describeValue(value: string): string {
  return value.includes('@') ? 'set (the value is not shown: it may hold credentials)' : `'${neutralise(value, 100)}'`
}
