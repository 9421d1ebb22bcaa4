// @ts-check
// The README's picture (docs/summary-and-reply.png) is the demo's own output, rendered: the job
// summary its first run writes and the reply its comment run leaves, as GitHub receives them. The
// picture records the SHA-256 of what it was rendered from, in a PNG text chunk, with what changes
// from run to run (job ids, times, hidden markers) set aside, so a test can say whether the picture
// still shows what the demo writes (test/action/demo.test.ts). Node's built-ins only.
import { createHash } from 'node:crypto'
import { crc32 } from 'node:zlib'

/** The files `npm run demo -- --out DIR` writes: the first run's summary, the comment run's reply. */
export const SUMMARY_FILE = 'summary.md'
export const REPLY_FILE = 'reply.md'
/** The picture, and the PNG text chunk's keyword that holds the hash of its source. */
export const PICTURE = 'docs/summary-and-reply.png'
export const SOURCE_KEYWORD = 'docs-agent-source-sha256'

/**
 * The text with what differs between two runs of the demo set aside: job ids, durations, comment ids,
 * 127.0.0.1 ports and HTML comments (a reply's signed marker, which signs the job id).
 * @param {string} text
 */
export function steadyText(text) {
  return text
    .replace(/<!--[\s\S]*?-->/g, '<!-- -->')
    .replace(/job_\d+_[a-z0-9]+/g, 'job_N')
    .replace(/\b(\d+m )?\d+(\.\d+)?m?s\b/g, 'Ns')
    .replace(/issuecomment-\d+/g, 'issuecomment-N')
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:N')
}

/**
 * The hash of a summary and a reply, as the picture records it.
 * @param {string} summary
 * @param {string} reply
 */
export function sourceHash(summary, reply) {
  return createHash('sha256')
    .update(`${steadyText(summary)}\n\u0000\n${steadyText(reply)}`)
    .digest('hex')
}

/**
 * A PNG with a tEXt chunk `keyword`=`text` before its IEND.
 * @param {Buffer} png
 * @param {string} keyword
 * @param {string} text
 */
export function withTextChunk(png, keyword, text) {
  const data = Buffer.concat([Buffer.from(keyword, 'latin1'), Buffer.from([0]), Buffer.from(text, 'latin1')])
  const type = Buffer.from('tEXt', 'latin1')
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([type, data])))
  const end = png.length - 12 // IEND: length, type, crc; no data
  if (png.subarray(end + 4, end + 8).toString('latin1') !== 'IEND') throw new Error('Not a PNG that ends with IEND.')
  return Buffer.concat([png.subarray(0, end), length, type, data, crc, png.subarray(end)])
}

/**
 * The text of the PNG's tEXt chunk `keyword`; null when it has none.
 * @param {Buffer} png
 * @param {string} keyword
 */
export function readTextChunk(png, keyword) {
  for (let at = 8; at + 8 <= png.length;) {
    const length = png.readUInt32BE(at)
    const type = png.subarray(at + 4, at + 8).toString('latin1')
    if (type === 'tEXt') {
      const data = png.subarray(at + 8, at + 8 + length)
      const zero = data.indexOf(0)
      if (data.subarray(0, zero).toString('latin1') === keyword) return data.subarray(zero + 1).toString('latin1')
    }
    at += 12 + length
  }
  return null
}
