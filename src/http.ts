import { EnvHttpProxyAgent, request, type Dispatcher } from 'undici'
import { USER_AGENT } from './version.js'

/** Per-request limits, so that a server that never answers cannot hold the step. */
export interface HttpLimits {
  /** Establishing the connection (through the proxy, when there is one). */
  connectTimeoutMs: number
  /** From sending the request to the response's headers. */
  headersTimeoutMs: number
  /** Between two chunks of the response body. */
  bodyTimeoutMs: number
  /** The whole exchange, start to end. */
  requestTimeoutMs: number
  /** The most of a response body that is read; the rest is dropped. */
  maxBodyBytes: number
}

export const DEFAULT_LIMITS: HttpLimits = {
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 30_000,
  bodyTimeoutMs: 30_000,
  requestTimeoutMs: 60_000,
  maxBodyBytes: 1024 * 1024
}

export interface HttpResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  /** The body as text, cut at `maxBodyBytes`. */
  body: string
}

/** A request that got no HTTP answer. */
export class NetworkError extends Error {
  override name = 'NetworkError'
  constructor(
    message: string,
    /** undici's or the system's error code, e.g. ECONNREFUSED. */
    readonly code: string,
    /** True only when the request surely never reached the server (the connection was never made). */
    readonly notSent: boolean
  ) {
    super(message)
  }
}

// The connection was never established, so the request was never written.
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT'])

const CODE_WORDS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed while sending',
  ENOTFOUND: 'the host name was not found',
  EAI_AGAIN: 'the host name could not be looked up',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'connecting timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no answer came in time',
  UND_ERR_BODY_TIMEOUT: 'the answer stopped arriving',
  UND_ERR_SOCKET: 'the connection closed before the answer was complete',
  REQUEST_TIMEOUT: 'the request took too long'
}

/**
 * The one way out to the network: through the proxy the environment names (HTTPS_PROXY,
 * HTTP_PROXY, NO_PROXY), never following redirects, and only ever to one origin, the service's,
 * because every request carries the admin key.
 */
export class HttpClient {
  private readonly dispatcher: Dispatcher

  constructor(
    private readonly origin: string,
    private readonly limits: HttpLimits = DEFAULT_LIMITS
  ) {
    this.dispatcher = new EnvHttpProxyAgent({
      connect: { timeout: limits.connectTimeoutMs },
      headersTimeout: limits.headersTimeoutMs,
      bodyTimeout: limits.bodyTimeoutMs
    })
  }

  async send(
    method: 'GET' | 'POST',
    url: string,
    options: { headers: Record<string, string>; body?: string; signal?: AbortSignal }
  ): Promise<HttpResponse> {
    if (new URL(url).origin !== this.origin) {
      // A guard, not a path any input can reach: the key goes to the service's origin only.
      throw new Error(`Refusing to send a request outside ${this.origin}.`)
    }
    const timeout = AbortSignal.timeout(this.limits.requestTimeoutMs)
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
    try {
      const response = await request(url, {
        method,
        headers: { 'user-agent': USER_AGENT, accept: 'application/json', ...options.headers },
        body: options.body,
        signal,
        dispatcher: this.dispatcher
      })
      const body = await readCapped(response.body, this.limits.maxBodyBytes)
      return { status: response.statusCode, headers: response.headers, body }
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason
      if (timeout.aborted) throw new NetworkError(describe('REQUEST_TIMEOUT'), 'REQUEST_TIMEOUT', false)
      const proxyStatus = proxyRefusal(error)
      if (proxyStatus) {
        // The proxy would not open the tunnel: the request never left for the service.
        throw new NetworkError(`the proxy refused to connect to it (HTTP ${proxyStatus})`, 'PROXY_REFUSED', true)
      }
      const code = errorCode(error)
      throw new NetworkError(describe(code), code, NOT_SENT_CODES.has(code))
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.destroy()
  }
}

async function readCapped(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk)
    size += chunk.length
    if (size >= maxBytes) {
      body.destroy()
      break
    }
  }
  return Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8')
}

/** The error and the causes it wraps (undici wraps the system's error), a few levels deep. */
function* causes(error: unknown): Generator<{ code?: unknown; message?: unknown }> {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    yield e as { code?: unknown; message?: unknown }
  }
}

function errorCode(error: unknown): string {
  // The wrapped system error carries ECONNREFUSED and the like.
  for (const { code } of causes(error)) {
    if (typeof code === 'string' && code !== 'UND_ERR') return code
  }
  return 'UNKNOWN'
}

/** undici's ProxyAgent tells a proxy's refusal of CONNECT (403, 407, 502...) only in its message. */
function proxyRefusal(error: unknown): string | null {
  for (const { message } of causes(error)) {
    const match = /^Proxy response \((\d{3})\) !== 200/.exec(String(message))
    if (match) return match[1]
  }
  return null
}

function describe(code: string): string {
  return CODE_WORDS[code] ?? `the request failed (${code})`
}
