// @ts-check
// Preloaded with `node --import` (NODE_OPTIONS), it writes the host of every TCP connection the process
// opens, one a line, to the file CONNECTIONS_LOG names: a test then sees where a run sent its requests,
// whichever client sent them (undici, Octokit's fetch, node:http). Before DNS: the host as asked for.
import { appendFileSync } from 'node:fs'
import net from 'node:net'

const logFile = process.env.CONNECTIONS_LOG
if (logFile) {
  const connect = net.Socket.prototype.connect
  /** @this {net.Socket} @param {any[]} args */
  net.Socket.prototype.connect = function (...args) {
    // Node calls it with (options, callback), (port, host, callback), (path, callback), or an array of those.
    const [first, second] = Array.isArray(args[0]) ? args[0] : args
    const host =
      typeof first === 'object' && first !== null
        ? first.path
          ? 'unix socket'
          : (first.host ?? 'localhost')
        : typeof first === 'string'
          ? 'unix socket'
          : typeof second === 'string'
            ? second
            : 'localhost'
    if (host !== 'unix socket') appendFileSync(logFile, `${host}\n`)
    return connect.apply(this, /** @type {any} */ (args))
  }
}
