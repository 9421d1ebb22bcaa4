// @ts-check
// Preloaded with `node --import` (NODE_OPTIONS), it makes every host name except the loopback ones
// fail to resolve, as a typo or a placeholder address does, without asking any DNS server: the suite
// never leaves 127.0.0.1. UNRESOLVABLE_CODE picks the failure (ENOTFOUND, the default, or EAI_AGAIN);
// each name looked up is written, one a line, to the file LOOKUPS_LOG names, so a test can count tries.
import { appendFileSync } from 'node:fs'
import dns from 'node:dns'

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1'])
const code = process.env.UNRESOLVABLE_CODE || 'ENOTFOUND'
const logFile = process.env.LOOKUPS_LOG
const lookup = dns.lookup

/** @type {any} */
const failingLookup = (/** @type {string} */ hostname, /** @type {any[]} */ ...rest) => {
  if (LOOPBACK.has(hostname)) return /** @type {Function} */ (lookup).apply(dns, [hostname, ...rest])
  if (logFile) appendFileSync(logFile, `${hostname}\n`)
  const callback = rest[rest.length - 1]
  const error = Object.assign(new Error(`getaddrinfo ${code} ${hostname}`), {
    code,
    errno: code === 'ENOTFOUND' ? -3008 : -3001,
    syscall: 'getaddrinfo',
    hostname
  })
  process.nextTick(() => callback(error))
}
dns.lookup = failingLookup
