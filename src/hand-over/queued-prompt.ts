// A queued create's prompt, kept in the index until a reporting run sends it (hand-over/hand-over.ts,
// hand-over/report-queued.ts). A record is one hidden line of at most MAX_ENCODED characters, and GitHub
// takes a comment of at most 65,536: a prompt that fits is kept in the record itself; a longer one is
// compressed (brotli) and spread over comments of its own, at most MAX_PROMPT_PARTS, each a signed
// line bound to the comment that holds it (signPromptPart), in the order the record lists them, the
// whole checked by its digest. One longer still cannot be kept, and is not queued: the run says so.
import { createHash } from 'node:crypto'
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib'
import { MAX_ENCODED } from '../github/signed-record.js'

/** The most characters of a compressed prompt one comment's line holds. */
export const PART_CHARS = MAX_ENCODED
/**
 * The most comments one queued prompt takes: 600,000 characters compressed, which holds the longest
 * prompt the default inputs make (a 65,536-character comment, a 64 KiB promptFile and a 20,000-character
 * context) in any script, and a context of a million characters of code.
 */
export const MAX_PROMPT_PARTS = 10
/** The prompt's share of a record line kept in the record: the rest is room for the record's other fields. */
const INLINE_CHARS = MAX_ENCODED - 4_000
/** Quality 9 of 11: a megabyte in a fraction of a second, where 11 takes seconds for a few per cent less. */
const QUALITY = 9
/** The most a kept prompt is read back as: what MAX_PROMPT_PARTS can hold, many times over. */
const MAX_UNPACKED_BYTES = 64 * 1024 * 1024

/** How a prompt is kept: in the record itself, in parts, or not at all (its compressed length, in parts). */
export type PackedPrompt =
  { inline: string } | { parts: string[]; digest: string } | { tooLong: { compressedChars: number; parts: number } }

/** How `prompt` is kept (see the file's opening comment). */
export function packPrompt(prompt: string): PackedPrompt {
  // The record's payload is JSON, base64url-encoded: four characters for every three bytes.
  if (Math.ceil(Buffer.byteLength(JSON.stringify(prompt)) / 3) * 4 <= INLINE_CHARS) return { inline: prompt }
  const packed = brotliCompressSync(prompt, {
    params: { [constants.BROTLI_PARAM_QUALITY]: QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: prompt.length }
  }).toString('base64url')
  const count = Math.ceil(packed.length / PART_CHARS)
  if (count > MAX_PROMPT_PARTS) return { tooLong: { compressedChars: packed.length, parts: count } }
  const parts = Array.from({ length: count }, (_, n) => packed.slice(n * PART_CHARS, (n + 1) * PART_CHARS))
  return { parts, digest: digestOf(parts) }
}

/** The prompt the parts hold, read back; null when they do not add up to the digest or do not decompress. */
export function unpackPrompt(parts: string[], digest: string): string | null {
  if (!parts.length || digestOf(parts) !== digest) return null
  try {
    return brotliDecompressSync(Buffer.from(parts.join(''), 'base64url'), {
      maxOutputLength: MAX_UNPACKED_BYTES
    }).toString('utf8')
  } catch {
    return null
  }
}

function digestOf(parts: string[]): string {
  return createHash('sha256').update(parts.join('')).digest('base64url')
}
