// The project's own OpenAPI description of the service (docs/openapi.yaml), as a checker: it finds
// the operation a request is for, and says what in a request or an answer does not follow the
// description. The document itself is validated against the OpenAPI 3.1 schema by
// @seriousme/openapi-schema-validator; bodies are validated as JSON Schema 2020-12 (OpenAPI 3.1's
// dialect) by ajv, with ajv-formats for `uri` and `date-time`.
import { readFileSync } from 'node:fs'
import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { parse } from 'yaml'

export const OPENAPI_PATH = new URL('../../docs/openapi.yaml', import.meta.url)

// ajv-formats is CommonJS: its default export arrives wrapped once more under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020
) => Ajv2020

type Json = Record<string, unknown>

interface Operation {
  method: string
  template: string
  pattern: RegExp
  names: string[]
  spec: Json
  pathParameters: Json[]
}

/** What a recorded request or answer is checked as. */
export interface Exchange {
  method: string
  /** The path as sent, percent-encoded, with the query if any. */
  path: string
  headers: Record<string, string | string[] | undefined>
  body: string
}

export interface Answer {
  status: number
  contentType: string
  body: string
}

/** Validates docs/openapi.yaml against the OpenAPI schema of its version; the problems, or []. */
export async function documentProblems(): Promise<string[]> {
  const validator = new Validator()
  const result = await validator.validate(
    parse(readFileSync(OPENAPI_PATH, 'utf8')) as Parameters<Validator['validate']>[0]
  )
  if (result.valid) return []
  return (Array.isArray(result.errors) ? result.errors : [result.errors]).map((e) => JSON.stringify(e))
}

export class ServiceContract {
  readonly document: Json
  private readonly ajv: Ajv2020
  private readonly operations: Operation[]
  private readonly compiled = new Map<string, ValidateFunction>()

  constructor(text = readFileSync(OPENAPI_PATH, 'utf8')) {
    this.document = parse(text) as Json
    this.ajv = new Ajv2020({ strict: true, allErrors: true })
    addFormats(this.ajv)
    // The schemas under components/, as one schema of their own that every $ref points into.
    const components = this.document.components as Json
    this.ajv.addSchema({ $id: 'openapi', $defs: rewriteRefs(components.schemas) as Json })
    this.operations = []
    for (const [template, item] of Object.entries(this.document.paths as Record<string, Json>)) {
      const names: string[] = []
      const pattern = new RegExp(
        `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, (_, name: string) => {
          names.push(name)
          return '([^/]+)'
        })}$`
      )
      const shared = ((item.parameters as Json[] | undefined) ?? []).map((p) => this.resolve(p))
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
        const spec = item[method] as Json | undefined
        if (!spec) continue
        const own = ((spec.parameters as Json[] | undefined) ?? []).map((p) => this.resolve(p))
        const pathParameters = [...shared, ...own].filter((p) => p.in === 'path')
        this.operations.push({ method: method.toUpperCase(), template, pattern, names, spec, pathParameters })
      }
    }
  }

  /** The operation's id a request is for, or null. */
  operationOf(method: string, path: string): string | null {
    return (this.match(method, path)?.operation.spec.operationId as string | undefined) ?? null
  }

  /** What in a request the action sent does not follow the description; [] when all of it does. */
  requestProblems(request: Exchange): string[] {
    const found = this.match(request.method, request.path)
    const where = `${request.method} ${request.path}`
    if (!found) return [`${where}: no operation of the description has this method and path`]
    const problems: string[] = []
    const { operation, values } = found
    operation.pathParameters.forEach((parameter) => {
      const raw = values[String(parameter.name)]
      let value: string
      try {
        value = decodeURIComponent(raw)
      } catch {
        return void problems.push(`${where}: path parameter ${String(parameter.name)} is not percent-encoded text`)
      }
      if (encodeURIComponent(value) !== raw) {
        problems.push(`${where}: path parameter ${String(parameter.name)} is not encoded as encodeURIComponent would`)
      }
      problems.push(
        ...this.check(parameter.schema as Json, value, `${where}: path parameter ${String(parameter.name)}`)
      )
    })
    const auth = String(request.headers.authorization ?? '')
    if (!/^Bearer svc_\S+$/.test(auth)) problems.push(`${where}: no Bearer svc_ key in Authorization`)
    const body = operation.spec.requestBody ? this.resolve(operation.spec.requestBody as Json) : null
    if (!body) {
      if (request.body !== '') problems.push(`${where}: a body where the operation takes none`)
      return problems
    }
    const type = mediaType(request.headers['content-type'])
    const media = (body.content as Record<string, Json>)[type]
    if (!media) return [...problems, `${where}: content type '${type}' is not one the operation takes`]
    let parsed: unknown
    try {
      parsed = JSON.parse(request.body)
    } catch {
      return [...problems, `${where}: the body is not JSON`]
    }
    return [...problems, ...this.check(media.schema as Json, parsed, `${where}: body`)]
  }

  /** What in an answer to `request` does not follow the description; [] when all of it does. */
  answerProblems(request: Pick<Exchange, 'method' | 'path'>, answer: Answer): string[] {
    const found = this.match(request.method, request.path)
    const where = `${answer.status} to ${request.method} ${request.path}`
    if (!found) return [`${where}: no operation of the description has this method and path`]
    const responses = found.operation.spec.responses as Record<string, Json>
    const declared = responses[String(answer.status)]
    if (!declared) return [`${where}: status ${answer.status} is not one the operation documents`]
    const response = this.resolve(declared)
    const type = mediaType(answer.contentType)
    const media = (response.content as Record<string, Json> | undefined)?.[type]
    if (!media) return [`${where}: content type '${type}' is not documented for this status`]
    let parsed: unknown = answer.body
    if (type === 'application/json') {
      try {
        parsed = JSON.parse(answer.body)
      } catch {
        return [`${where}: the body is not JSON`]
      }
    }
    return this.check(media.schema as Json, parsed, `${where}: body`)
  }

  /** Validates a value against one of the description's schemas (a $ref into components, or inline). */
  check(schema: Json, value: unknown, where: string): string[] {
    const key = JSON.stringify(schema)
    let validate = this.compiled.get(key)
    if (!validate) {
      validate = this.ajv.compile(rewriteRefs(schema) as Json)
      this.compiled.set(key, validate)
    }
    if (validate(value)) return []
    return (validate.errors ?? []).map((e) => `${where}${e.instancePath} ${e.message ?? 'is not valid'}`)
  }

  /** The schema of a named component: `schemaOf('Job')`. */
  schemaOf(name: string): Json {
    return { $ref: `#/components/schemas/${name}` }
  }

  private match(method: string, path: string): { operation: Operation; values: Record<string, string> } | null {
    const pathname = path.split('?')[0]
    for (const operation of this.operations) {
      if (operation.method !== method) continue
      const found = operation.pattern.exec(pathname)
      if (found) return { operation, values: Object.fromEntries(operation.names.map((n, i) => [n, found[i + 1]])) }
    }
    return null
  }

  /** Follows a $ref to a component (parameters, requestBodies, responses), once or more. */
  private resolve(value: Json): Json {
    let current = value
    while (typeof current.$ref === 'string') {
      const parts = current.$ref.replace(/^#\//, '').split('/')
      current = parts.reduce<Json>((node, part) => node[part] as Json, this.document)
    }
    return current
  }
}

/** `#/components/schemas/X` becomes `openapi#/$defs/X`: the components as ajv holds them. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === '$ref' && typeof item === 'string'
        ? item.replace('#/components/schemas/', 'openapi#/$defs/')
        : rewriteRefs(item)
    ])
  )
}

function mediaType(header: string | string[] | undefined): string {
  return String(header ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase()
}
