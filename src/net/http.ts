import { EnvHttpProxyAgent, request, type Dispatcher } from 'undici'
import { timeLimit } from '../runtime/deadline.js'
import { blankSecrets } from '../safety/run-secrets.js'
import { USER_AGENT } from '../runtime/version.js'
import { isUnresolvedHost, unresolvedHostWords } from './host-names.js'

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
  /** The body was longer than `maxBodyBytes`, and `body` is only its start. */
  truncated: boolean
}

/**
 * How far one request got, for a caller that must know what a failure means: a create that was
 * never written cannot have made a job, and one whose 2xx status arrived did, whatever its body.
 */
export interface RequestProgress {
  /** The request began to be written to a connection: from here on the server may act on it. */
  written: boolean
  /** The answer's status, once its headers arrived (its body may still fail); null before. */
  status: number | null
  /** Told when `written` becomes true. */
  onWritten?: () => void
}

/** A request that got no HTTP answer. */
export class NetworkError extends Error {
  override name = 'NetworkError'
  constructor(
    message: string,
    /** undici's or the system's error code, e.g. ECONNREFUSED. */
    readonly code: string,
    /** True only when the request surely never reached the server: not one byte of it was written. */
    readonly notSent: boolean,
    /** Refused on this runner before any connection (a header HTTP does not allow): no try can succeed. */
    readonly refusedLocally = false
  ) {
    super(message)
  }
}

// Errors raised on this runner about the request itself, before any connection: invalid headers,
// URLs or arguments. Sending it again would be refused the same way.
const LOCAL_CODES = new Set([
  'UND_ERR_INVALID_ARG',
  'UND_ERR_NOT_SUPPORTED',
  'ERR_INVALID_URL',
  'ERR_INVALID_ARG_TYPE',
  'ERR_INVALID_ARG_VALUE',
  'ERR_INVALID_CHAR',
  'ERR_INVALID_HTTP_TOKEN',
  'ERR_INVALID_URI'
])

const CODE_WORDS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed while sending',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'connecting timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no answer came in time',
  UND_ERR_BODY_TIMEOUT: 'the answer stopped arriving',
  UND_ERR_SOCKET: 'the connection closed before the answer was complete',
  REQUEST_TIMEOUT: 'the request took too long',
  // https:// to a port that speaks plain http: the answer to the TLS greeting is not TLS.
  ERR_SSL_WRONG_VERSION_NUMBER:
    "the port answered in plain http, not https (ERR_SSL_WRONG_VERSION_NUMBER): baseUrl names a port that is not the service's https port"
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

  /**
   * Sends one request and reads its answer, within the per-request limits and `signal`. Fills
   * `progress` (when given) as the request goes, so that a caller can tell a request that never
   * left from one that did; a NetworkError says the same in `notSent`.
   */
  async send(
    method: 'GET' | 'POST',
    url: string,
    options: {
      headers: Record<string, string>
      body?: string
      signal?: AbortSignal
      progress?: RequestProgress
    }
  ): Promise<HttpResponse> {
    const progress = options.progress ?? { written: false, status: null }
    // Aborted already: nothing is sent (undici would still connect, and start the request only to drop it).
    if (options.signal?.aborted) throw options.signal.reason
    const limit = timeLimit(this.limits.requestTimeoutMs, ...(options.signal ? [options.signal] : []))
    const { signal } = limit
    if (URL.canParse(url) && new URL(url).origin !== this.origin) {
      // A guard, not a path any input can reach: the key goes to the service's origin only.
      throw new Error(`Refusing to send a request outside ${this.origin}.`)
    }
    try {
      const response = await request(url, {
        method,
        headers: { 'user-agent': USER_AGENT, accept: 'application/json', ...options.headers },
        body: options.body,
        signal,
        // Marks the moment the request starts to be written: an error before it is "not sent".
        dispatcher: this.dispatcher.compose(markWhenWritten(progress))
      })
      progress.status = response.statusCode
      const { text, truncated } = await readCapped(response.body, this.limits.maxBodyBytes)
      return { status: response.statusCode, headers: response.headers, body: text, truncated }
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason
      const notSent = !progress.written
      if (limit.timedOut()) throw new NetworkError(describe('REQUEST_TIMEOUT'), 'REQUEST_TIMEOUT', notSent)
      const proxyStatus = proxyRefusal(error)
      if (proxyStatus) {
        // The proxy would not open the tunnel: the request never left for the service.
        throw new NetworkError(`the proxy refused to connect to it (HTTP ${proxyStatus})`, 'PROXY_REFUSED', notSent)
      }
      const code = errorCode(error)
      if (notSent && isLocalRefusal(error, code)) {
        throw new NetworkError(`it was refused on this runner before it left (${localReason(error)})`, code, true, true)
      }
      const words = isUnresolvedHost(code) ? unresolvedHostWords(code, new URL(url).hostname) : describe(code)
      throw new NetworkError(words, code, notSent)
    } finally {
      limit.clear()
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.destroy()
  }
}

/** Tells `progress` when the request starts to be written; passes everything else through. */
function markWhenWritten(progress: RequestProgress): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) =>
    dispatch(options, {
      onRequestStart: (controller, context) => {
        // undici calls this right before it writes the request to the connection, even for a request
        // whose signal has fired meanwhile: the handler then aborts it, and nothing is written.
        handler.onRequestStart?.(controller, context)
        if (controller.aborted) return
        progress.written = true
        progress.onWritten?.()
      },
      onRequestUpgrade: (...args) => handler.onRequestUpgrade?.(...args),
      onResponseStart: (...args) => handler.onResponseStart?.(...args),
      onResponseData: (...args) => handler.onResponseData?.(...args),
      onResponseEnd: (...args) => handler.onResponseEnd?.(...args),
      onResponseError: (...args) => handler.onResponseError?.(...args)
    })
}

async function readCapped(
  body: Dispatcher.ResponseData['body'],
  maxBytes: number
): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk)
    size += chunk.length
    if (size > maxBytes) {
      body.destroy()
      break
    }
  }
  return { text: Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8'), truncated: size > maxBytes }
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

function isLocalRefusal(error: unknown, code: string): boolean {
  if (LOCAL_CODES.has(code)) return true
  // Thrown by our own code or by a URL or URI function, never by the network.
  return error instanceof TypeError || error instanceof URIError || error instanceof RangeError
}

/** undici's words for what it refused ("invalid authorization header"): they name a header, never its value. */
function localReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return blankSecrets(message).replace(/\s+/g, ' ').trim() || 'no reason given'
}

function describe(code: string): string {
  return CODE_WORDS[code] ?? `the request failed (${code})`
}
