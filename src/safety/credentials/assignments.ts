// The long tail: a credential found by where it stands rather than by its shape. A value assigned to
// a name that says it is secret (`api_key = ...`, `"password": "..."`, `--token ...`, `Password=...;`
// in a connection string, `<fooToken>...</fooToken>`), the user and password of `curl -u`, the value
// of an Authorization header, the password of a URL, and the values of a Kubernetes Secret's data.
// A name that says whose credential it is (`asana`, `heroku`) and a value of that vendor's shape is
// enough (rules.ts, NAMED_RULES); otherwise the value must look random (entropy.ts). A little over
// 300 lines, on purpose: each place a secret can be assigned is one pattern here, read side by side.
import { isOrdinaryWords, isPlaceholder, isReference, looksSecret } from './entropy.js'
import { isKeyOfWordsAndDigest, isPublicName } from './public-values.js'
import { NAMED_RULES, PASSWORD_NAME_WORDS, SECRET_NAME_WORDS, type NamedRule } from './rules.js'

/** A credential found: where it is in the text, and its kind. */
export interface Hit {
  start: number
  end: number
  kind: string
}

interface CompiledNamed {
  rule: NamedRule
  value: RegExp
}

const COMPILED_NAMED: CompiledNamed[] = NAMED_RULES.map((rule) => ({
  rule,
  value: new RegExp(`^(?:${rule.value})$`, rule.ignoreCase ? 'i' : '')
}))

// The service words of the named rules, one pass over a name finds which apply.
const SERVICE_WORDS = new RegExp(
  [...new Set(NAMED_RULES.flatMap((rule) => rule.names))]
    .map((word) => word.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&'))
    .join('|'),
  'gi'
)

/** The parts of a name: `AWS_SECRET_ACCESS_KEY`, `apiKey`, `x-api-key`, `db.password` -> words. */
function nameParts(name: string): string[] {
  return (name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? []).map((part) => part.toLowerCase())
}

type NameClass = 'password' | 'secret' | null

// Parts that may follow the secret word at the end of a name (`privateKeyPem`, `API_KEY_PROD`,
// `token2`): the name still says the value is the secret.
const SUFFIXES = new Set([
  'value',
  'str',
  'string',
  'b64',
  'base64',
  'pem',
  'hex',
  'raw',
  'plain',
  'text',
  'data',
  'env',
  'prod',
  'production',
  'dev',
  'staging',
  'test',
  'live',
  'local',
  's'
])
// Names that hold a secret word but never a secret: the shell's working directories, public keys.
const NOT_SECRET = /^(?:old)?pwd$|(?:^|[^a-z])pub(?:lic)?(?:[_.-]?key)?(?:[^a-z]|$)|public/i

/**
 * Whether the name says its value is secret, and whether it says password: a secret word is the
 * name's last part (but a suffix such as `_PROD` or `Pem`), so that `apiKey` and `DB_PASSWORD` count
 * and `tokenType`, `keyPrefix`, `passThroughOptions` do not.
 */
function classifyName(name: string): NameClass {
  if (NOT_SECRET.test(name)) return null
  const parts = nameParts(name)
  let end = parts.length - 1
  while (end > 0 && (SUFFIXES.has(parts[end]) || /^\d+$/.test(parts[end]))) end--
  const last = parts[end]
  if (last === undefined) return null
  // `Idempotency-Key`, `nextPageToken`, `cache-key`, `--recv-keys`: a key or token that is public.
  if (isPublicName(parts, end)) return null
  if (PASSWORD_NAME_WORDS.has(last) || /passw(?:or)?d$|passphrase$/.test(last)) return 'password'
  if (SECRET_NAME_WORDS.has(last)) return 'secret'
  // `apikey`, `accesstoken`, `clientsecret`, `SECRETKEY` written as one word.
  if (/(?:key|token|secret|credentials?)$/.test(last) && last.length <= 24) return 'secret'
  return null
}

/** The kind of a credential found by its name: a named rule's, or by the name's class. */
function judge(name: string, value: string): string | null {
  SERVICE_WORDS.lastIndex = 0
  const lower = name.toLowerCase()
  if (SERVICE_WORDS.test(lower)) {
    for (const { rule, value: shape } of COMPILED_NAMED) {
      if (rule.names.some((word) => lower.includes(word)) && shape.test(value) && !isPlaceholder(value)) {
        return rule.kind
      }
    }
  }
  const nameClass = classifyName(name)
  if (!nameClass) return null
  if (!looksSecret(value, nameClass === 'password')) return null
  if (nameClass === 'secret' && isKeyOfWordsAndDigest(value)) return null
  return nameClass === 'password' ? 'password' : 'secret value'
}

// `name <op> value`: the name bare or quoted, an optional type (`var fooToken string =`, `fooToken:
// String =`), the operators of shells, Make, INI, YAML, JSON, code, PHP, Ruby hashes and Logstash, a
// comma after a quoted name (`setProperty("FOO_TOKEN", "...")`), and the value quoted or bare.
const ASSIGNMENT = new RegExp(
  [
    String.raw`(?<![\w.$@-])(["'\x60]?)([A-Za-z_$@][\w.$@-]{0,79})\1`,
    String.raw`(?:[ \t]*:?[ \t]*([A-Za-z_$][\w.<>\[\]$]{0,40})(?=[ \t]*=))?`,
    String.raw`[ \t]{0,3}(?::{1,3}=|\?=|\.=|\+=|\|\|=|=>|==?|:(?![:/])|(?<=["'\x60][ \t]{0,3}),)[ \t]{0,5}`,
    String.raw`(?:"((?:[^"\\\n]|\\[^n])*)"|'([^'\n]*)'|\x60([^\x60\n]*)\x60|([^\s'"\x60,;&<>(){}\[\]|\\]+))`
  ].join(''),
  'g'
)

// `<fooToken>value</fooToken>`, the value on its own line or not; and `key="ApiKey" value="..."`.
const XML_ELEMENT = /<([A-Za-z_][\w.:-]{0,80})>(?:\s*\n[+\- ]?)?[ \t]*([^<\s]{6,500})[ \t]*(?:\n[+\- ]?[ \t]*)?<\/\1>/g
const XML_ATTRIBUTES = /\b(?:name|key)\s*=\s*\\?"([\w.:-]{1,80})\\?"\s+value\s*=\s*\\?"([^"\\\n]{1,500})\\?"/g

// A command-line flag: `--password=...`, `--api-key "..."`.
const FLAG = /(?<![\w-])--([A-Za-z][\w-]{1,40})(?:=|[ \t]+)(?:"([^"\n]*)"|'([^'\n]*)'|([^\s'"]+))/g

// `curl -u user:password`, `--user 'user:password'`.
const USER_FLAG =
  /(?<![\w-])(?:-u|--user)(?:=|[ \t]+)(?:"([^"\n]*)"|'([^'\n]*)'|((?:"[^"\n]*"|'[^'\n]*'|[^\s'"\x60])+))/g

// `Authorization: Bearer ...`, `"Authorization": "Basic ..."`, in headers, code and curl -H.
const AUTHORIZATION =
  /\b(?:Proxy-)?Authorization["']?[ \t]*[:=][ \t]*["'\x60]?(?:(?:Basic|Bearer|Token|Api-Token|Digest|Negotiate|OAuth|Bot|SSWS|GenieKey|Splunk|Key)[ \t]+)?([^\s'"\x60,;]{8,})/gi

// The password of a URL: `scheme://user:password@host`, the user possibly empty (`redis://:pw@`).
const URL_PASSWORD = /\b[a-z][a-z0-9+.-]{1,30}:\/\/([^\s:/@'"\x60]{0,200}):([^\s/@'"\x60]{1,200})@/gi

// The words one of which a secret's name holds (SECRET_NAME_WORDS, the parts classifyName accepts,
// and the named rules' vendors), as a quick test of a line.
const NAME_HINT = new RegExp(
  [
    'key|token|secret|passw|pwd|pass|auth|cred|bearer|session|cookie|private|sign|hmac|salt|sas|jwt|dsn|otp|pin',
    ...new Set(NAMED_RULES.flatMap((rule) => rule.names))
  ]
    .map((word) => word.replace(/[.*+?^${}()[\]\\-]/g, '\\$&'))
    .join('|'),
  'gi'
)

/** Hits from values assigned to secret-sounding names, and from the other shapes above. */
export function assignmentHits(text: string): Hit[] {
  const hits: Hit[] = []
  // Only lines with a word a secret's name holds are searched for assignments: one pass finds them,
  // and each such line is searched once, on its own (a search run on the whole text would go on past
  // the line's end to the next assignment, however far: many such lines would cost text × lines).
  NAME_HINT.lastIndex = 0
  for (let hint = NAME_HINT.exec(text); hint; hint = NAME_HINT.exec(text)) {
    const lineStart = text.lastIndexOf('\n', hint.index) + 1
    let lineEnd = text.indexOf('\n', hint.index)
    if (lineEnd < 0) lineEnd = text.length
    assignmentsInLine(text.slice(lineStart, lineEnd), lineStart, hits)
    NAME_HINT.lastIndex = lineEnd + 1
  }
  otherHits(text, hits)
  return hits
}

// How many assignments the search takes inside one value (a command's header, a connection string's
// `Server=...;Database=...;User Id=...;Password=...;`) before it goes on after the value: each costs
// up to the value's length, so a value made of assignments (`a=a=a=...`) would cost its length squared.
const MOST_INSIDE_ONE_VALUE = 32

/** Hits of `name <op> value` in one line, which starts at `offset` in the text. */
function assignmentsInLine(line: string, offset: number, hits: Hit[]): void {
  ASSIGNMENT.lastIndex = 0
  let valueEnd = 0
  let inside = 0
  for (let m = ASSIGNMENT.exec(line); m; m = ASSIGNMENT.exec(line)) {
    const index = m[4] !== undefined ? 4 : m[5] !== undefined ? 5 : m[6] !== undefined ? 6 : 7
    const value = m[index]
    if (m.index < valueEnd) {
      if (++inside > MOST_INSIDE_ONE_VALUE) {
        ASSIGNMENT.lastIndex = valueEnd
        continue
      }
    } else {
      inside = 0
      valueEnd = m.index + m[0].length
    }
    // A value may hold assignments of its own (`"run": "curl -H 'X-Api-Key: ...'"`, a JDBC URL's
    // `password=`, a connection string's `Password=...;`): the search goes on inside it.
    ASSIGNMENT.lastIndex = m.index + m[0].length - (value?.length ?? 0) - (index === 7 ? 0 : 1)
    if (ASSIGNMENT.lastIndex <= m.index) ASSIGNMENT.lastIndex = m.index + 1
    if (!value || value.length < 6) continue
    // A badge's token in a README (`badge.svg?token=...`) is public by design.
    if (
      /[?&]$/.test(line.slice(Math.max(0, m.index - 1), m.index)) &&
      /badge/i.test(line.slice(Math.max(0, m.index - 200), m.index))
    )
      continue
    // `const fooToken = ...`: the word before the operator is the name; `var fooToken string =`: the first.
    const kind = judge(m[2], value) ?? (m[3] ? judge(m[3], value) : null)
    if (!kind) continue
    const start = offset + valueStart(m, index)
    hits.push({ start, end: start + value.length, kind })
  }
}

/** Hits of the settings other than `name <op> value`: XML, flags, curl, headers, URLs, Kubernetes. */
function otherHits(text: string, hits: Hit[]): void {
  for (const m of text.matchAll(XML_ELEMENT)) {
    const kind = judge(m[1], m[2])
    if (kind) {
      const start = m.index + m[0].indexOf(m[2], m[1].length + 2)
      hits.push({ start, end: start + m[2].length, kind })
    }
  }
  for (const m of text.matchAll(XML_ATTRIBUTES)) {
    const kind = judge(m[1], m[2]) ?? (/password/i.test(m[1]) && looksSecret(m[2], true) ? 'password' : null)
    if (kind) {
      const start = m.index + m[0].lastIndexOf(m[2])
      hits.push({ start, end: start + m[2].length, kind })
    }
  }
  for (const m of text.matchAll(FLAG)) {
    const index = m[2] !== undefined ? 2 : m[3] !== undefined ? 3 : 4
    const value = m[index]
    const kind = value ? judge(m[1], value) : null
    if (kind) {
      const start = m.index + m[0].length - value.length - (index === 4 ? 0 : 1)
      hits.push({ start, end: start + value.length, kind })
    }
  }
  for (const m of text.matchAll(USER_FLAG)) {
    const value = m[1] ?? m[2] ?? m[3]
    if (value && userPasswordIsSecret(value)) {
      const start = m.index + m[0].length - value.length - (m[3] !== undefined ? 0 : 1)
      hits.push({ start, end: start + value.length, kind: 'user and password' })
    }
  }
  for (const m of text.matchAll(AUTHORIZATION)) {
    const value = m[1]
    if (isReference(value) || isPlaceholder(value) || isOrdinaryWords(value)) continue
    const start = m.index + m[0].length - value.length
    hits.push({ start, end: start + value.length, kind: 'authorization header' })
  }
  for (const m of text.matchAll(URL_PASSWORD)) {
    const [, user, password] = m
    // `user:pass@`, `postgres:postgres@`: the words of an example, not a password.
    if (isReference(password) || isPlaceholder(password) || password === user || !looksSecret(password, true)) continue
    const start = m.index + m[0].length - 1 - password.length
    hits.push({ start, end: start + password.length, kind: 'password in a URL' })
  }
  kubernetesSecretHits(text, hits)
}

/** Where the value of capture `index` starts (the match's last capture ends the match, but for a quote). */
function valueStart(m: RegExpExecArray, index: number): number {
  const value = m[index]
  const quoted = index !== 7
  return (m.index ?? 0) + m[0].length - value.length - (quoted ? 1 : 0)
}

/** `user:password` of curl -u: the password (or, with no password, the user: an API key) looks secret. */
function userPasswordIsSecret(raw: string): boolean {
  const value = raw.replace(/["']/g, '')
  const colon = value.indexOf(':')
  if (colon < 0) return false
  const user = value.slice(0, colon)
  const password = value.slice(colon + 1)
  if (isReference(user) || isReference(password) || /\$/.test(value)) return false
  if (!password) return looksSecret(user, true)
  if (/^(?:pass(?:word)?|pwd|test|token|secret|changeme|changeit|\*+|x+|y+)$/i.test(password)) return false
  if (isPlaceholder(password)) return false
  return looksSecret(password, true) || looksSecret(user, false)
}

// A Kubernetes Secret: `kind: Secret`, and in the same YAML document `data:` or `stringData:` whose
// entries are the secret values (base64 under data). Every entry's value is blanked but a template
// slot or an empty one. Lines may carry a diff's prefix.
const SECRET_KIND = /^[+\- ]?[ \t]*kind:[ \t]*["']?Secret["']?[ \t]*$/gm
const DOCUMENT_START = /^[+\- ]?---/gm
const DATA_LINE = /^[+\- ]?([ \t]*)(?:data|stringData):[ \t]*$/
const ENTRY_LINE = /^[+\- ]?([ \t]+)([\w.-]+):[ \t]*(.*)$/

function kubernetesSecretHits(text: string, hits: Hit[]): void {
  let doneUntil = 0
  for (const kind of text.matchAll(SECRET_KIND)) {
    if (kind.index < doneUntil) continue
    const [from, to] = documentAround(text, kind.index)
    doneUntil = to
    let offset = from
    let dataIndent = -1
    let blockIndent = -1
    for (const line of text.slice(from, to).split('\n')) {
      const lineStart = offset
      offset += line.length + 1
      if (blockIndent >= 0) {
        const indent = /^[+\- ]?([ \t]*)/.exec(line)?.[1].length ?? 0
        if (line.trim() && indent > blockIndent) {
          const body = line.replace(/^[+\- ]?[ \t]*/, '')
          const start = lineStart + line.length - body.length
          hits.push({ start, end: start + body.length, kind: 'Kubernetes Secret value' })
          continue
        }
        blockIndent = -1
      }
      const data = DATA_LINE.exec(line)
      if (data) {
        dataIndent = data[1].length
        continue
      }
      if (dataIndent < 0) continue
      const entry = ENTRY_LINE.exec(line)
      if (!entry || entry[1].length <= dataIndent) {
        if (line.trim()) dataIndent = -1
        continue
      }
      const value = entry[3].trim()
      if (/^[|>][-+]?$/.test(value)) {
        blockIndent = entry[1].length
        continue
      }
      const bare = value.replace(/^["']|["']$/g, '')
      if (!bare || /\{\{|\$\{/.test(bare) || bare.length < 4) continue
      const start = lineStart + line.indexOf(bare, line.length - entry[3].length)
      hits.push({ start, end: start + bare.length, kind: 'Kubernetes Secret value' })
    }
  }
}

/** The YAML document holding position `at`: between `---` lines, at most 20,000 characters each way. */
function documentAround(text: string, at: number): [number, number] {
  let from = Math.max(0, at - 20000)
  DOCUMENT_START.lastIndex = from
  for (let m = DOCUMENT_START.exec(text); m && m.index < at; m = DOCUMENT_START.exec(text)) from = m.index
  DOCUMENT_START.lastIndex = at
  const next = DOCUMENT_START.exec(text)
  const to = Math.min(text.length, next ? next.index : text.length, at + 20000)
  return [from, to]
}
