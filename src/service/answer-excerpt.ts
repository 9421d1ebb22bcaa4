// What the action reads out of the service's answers: the JSON (bounded: see safety/bounded-json.ts),
// and the short, neutralised excerpts of an error body or a redirect that the messages quote.
import { NOT_JSON, parseBoundedJson, type JsonBounds } from '../safety/bounded-json.js'
import type { HttpResponse } from '../net/http.js'
import { pageText } from '../safety/error-page-words.js'
import { neutralise } from '../safety/neutralise.js'

export function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${Math.round(bytes / 1024)} KB`
}

// A job record nests two deep (its source); an error body, one.
const ANSWER_SHAPE: JsonBounds = { maxDepth: 16, maxContainers: 1000 }

/** The answer's JSON, or undefined when it is not JSON or has a shape no answer of the service has. */
export function parseJson(text: string): unknown {
  const parsed = parseBoundedJson(text, ANSWER_SHAPE)
  return 'value' in parsed ? parsed.value : undefined
}

/**
 * A short, single-line excerpt of an error body: the service's own `{"error": ...}` message when
 * there is one, or the text of a plain or HTML page; never the key, should a server echo it.
 */
export function excerpt(response: Pick<HttpResponse, 'body'>, maxLength = 200): string {
  const parsed = parseBoundedJson(response.body, ANSWER_SHAPE)
  // JSON of a shape no answer has (nested a million deep): what it is, not a line of its brackets.
  if ('refused' in parsed && parsed.refused !== NOT_JSON) return `JSON ${parsed.refused}`
  const json = 'value' in parsed ? parsed.value : undefined
  const message =
    json && typeof json === 'object' && typeof (json as { error?: unknown }).error === 'string'
      ? (json as { error: string }).error
      : pageText(response.body)
  // Outside text: one line, no control character, no workflow command, no secret.
  const oneLine = neutralise(message.replace(/\s+/g, ' '), maxLength)
  return oneLine === '' ? 'no message' : oneLine
}

/** Where a redirect points, without its query, and never with the key, should a server echo it. */
export function redirectTarget(response: HttpResponse): string {
  const location = response.headers.location
  const text = Array.isArray(location) ? location[0] : location
  if (!text) return 'no location'
  try {
    const url = new URL(text, 'http://relative.invalid')
    const target = url.origin === 'http://relative.invalid' ? url.pathname : `${url.origin}${url.pathname}`
    return neutralise(target)
  } catch {
    return 'an unreadable location'
  }
}
