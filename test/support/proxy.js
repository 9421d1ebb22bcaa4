// @ts-check
// A tiny forward proxy on 127.0.0.1, the kind a runner behind a corporate network is told about
// in HTTP_PROXY / HTTPS_PROXY: it tunnels CONNECT requests and forwards absolute-form requests
// (`GET http://host:port/path`), and records what passed through it. Node's built-ins only.
import http from 'node:http'
import net from 'node:net'

/**
 * @typedef {object} ProxiedRequest
 * @property {string} method CONNECT for a tunnel, else the forwarded request's method.
 * @property {string} target `host:port` the client asked to reach.
 * @property {string | null} path The path of a forwarded request (null for a tunnel).
 * @property {Record<string, string | string[] | undefined>} headers The headers the proxy itself saw.
 * @property {number} at When it arrived (Date.now()).
 *
 * @typedef {object} ProxyOptions
 * @property {number} [refuseConnect] Answer every CONNECT with this status (403 for a proxy's
 *   policy, 407 when it wants credentials) instead of opening the tunnel.
 * @property {number} [connectDelayMs] Open each tunnel this much later: a slow network, during
 *   which the request is still connecting and nothing of it has reached the service.
 */

/**
 * Starts the proxy on 127.0.0.1 at a free port.
 * @param {ProxyOptions} [options]
 */
export async function startProxy(options = {}) {
  /** @type {ProxiedRequest[]} */
  const seen = []
  /** @type {Set<net.Socket>} */
  const sockets = new Set()

  const server = http.createServer((req, res) => {
    /** @type {URL} */
    let url
    try {
      url = new URL(req.url ?? '')
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('A proxy needs an absolute URL')
      return
    }
    const port = Number(url.port) || 80
    seen.push({
      method: req.method ?? '',
      target: `${url.hostname}:${port}`,
      path: url.pathname + url.search,
      headers: req.headers,
      at: Date.now()
    })
    const { 'proxy-connection': _pc, 'proxy-authorization': _pa, ...headers } = req.headers
    const upstream = http.request(
      { host: url.hostname, port, method: req.method, path: url.pathname + url.search, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      }
    )
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('Bad gateway')
      else res.destroy()
    })
    req.pipe(upstream)
  })

  server.on('connect', (req, client, head) => {
    const target = req.url ?? ''
    seen.push({ method: 'CONNECT', target, path: null, headers: req.headers, at: Date.now() })
    client.on('error', () => {})
    if (options.refuseConnect) {
      client.end(`HTTP/1.1 ${options.refuseConnect} Refused by proxy\r\ncontent-length: 0\r\n\r\n`)
      return
    }
    if (options.connectDelayMs) {
      const timer = setTimeout(() => openTunnel(target, client, head), options.connectDelayMs)
      client.on('close', () => clearTimeout(timer))
    } else {
      openTunnel(target, client, head)
    }
  })

  /** @param {string} target @param {import('node:stream').Duplex} client @param {Buffer} head */
  function openTunnel(target, client, head) {
    const at = target.lastIndexOf(':')
    const upstream = net.connect(Number(target.slice(at + 1)), target.slice(0, at).replace(/^\[|\]$/g, ''))
    sockets.add(upstream)
    upstream.on('close', () => sockets.delete(upstream))
    upstream.on('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      if (head.length > 0) upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    upstream.on('error', () => {
      if (client.writable) client.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n')
    })
    client.on('close', () => upstream.destroy())
  }
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })

  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve(undefined))
  })
  const port = /** @type {net.AddressInfo} */ (server.address()).port

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    /** Everything that passed through, in order. */
    seen,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server.close(() => resolve(undefined)))
    }
  }
}

/** @typedef {Awaited<ReturnType<typeof startProxy>>} Proxy */
