// Outside text in the job summary: one line of escaped HTML, cut in UTF-8 bytes on whole characters.
import { describe, expect, it } from 'vitest'
import {
  oneLineHtml,
  oneLineHtmlWithin,
  quotedLinesHtml,
  renderedWithin,
  wrapLongLines
} from '../../../src/ending/summary-html.js'

describe('oneLineHtml', () => {
  it('escapes what could open a tag or an entity and writes line breaks as asked: never a newline', () => {
    expect(oneLineHtml('a <b> & "c"\n\n|d|', '&#10;')).toBe('a &#60;b&#62; &#38; &#34;c&#34;&#10;&#10;&#124;d&#124;')
    expect(oneLineHtml('x\ny', '<br>')).toBe('x<br>y')
  })
})

describe('oneLineHtmlWithin', () => {
  it('keeps the whole text when it fits, and says so', () => {
    expect(oneLineHtmlWithin('a\nb', '<br>', 6)).toEqual({ html: 'a<br>b', shown: 3, total: 3 })
  })

  it('cuts on whole escapes and whole characters, within the bytes given', () => {
    const text = '"名前" & 😀\n'.repeat(50)
    for (let max = 0; max < 300; max++) {
      const cut = oneLineHtmlWithin(text, '&#10;', max)
      expect(Buffer.byteLength(cut.html)).toBeLessThanOrEqual(max)
      expect(cut.html).toBe(oneLineHtml(text.slice(0, cut.shown), '&#10;'))
      expect(cut.html).not.toMatch(/&#?\d*$|\uFFFD/)
      expect(cut.total).toBe(text.length)
    }
  })
})

describe('wrapLongLines: a block of the summary a person reads without scrolling sideways', () => {
  const columns = (line: string) => [...line].reduce((n, c) => n + (/[\u3000-\u9fff]/.test(c) ? 2 : 1), 0)
  const words = (text: string) => text.split(/\s+/).filter(Boolean)
  it('breaks a long line at its spaces, the pieces indented as the line and two more; short lines stay', () => {
    const line = `    ${'word '.repeat(76).trim()}`
    const wrapped = wrapLongLines(`short\n${line}`)
    const lines = wrapped.split('\n')
    expect(lines[0]).toBe('short')
    expect(lines.length).toBeGreaterThan(3)
    expect(lines.every((l) => columns(l) <= 100)).toBe(true)
    expect(lines.slice(2).every((l) => l.startsWith('      word'))).toBe(true)
    expect(words(wrapped)).toEqual(words(`short\n${line}`))
  })
  it('cuts a word longer than half the block (a link), and counts a CJK character as two columns', () => {
    const link = `https://example.com/${'a'.repeat(370)}`
    expect(
      wrapLongLines(link)
        .split('\n')
        .every((l) => columns(l) <= 100)
    ).toBe(true)
    expect(wrapLongLines(link).replace(/\n {2}/g, '')).toBe(link)
    const japanese = '説明'.repeat(100)
    const lines = wrapLongLines(japanese).split('\n')
    expect(lines.every((l) => columns(l) <= 100)).toBe(true)
    expect(lines.join('').replace(/ /g, '')).toBe(japanese)
  })
  it("wraps a fenced block's lines in the quote, and the rendering is cut to fit, saying how much it shows", () => {
    const text = `ask\n\`\`\`\n${'x '.repeat(150)}\n\`\`\``
    const html = quotedLinesHtml(text, wrapLongLines)
    const pre = /<pre>(.*)<\/pre>/.exec(html)?.[1] ?? ''
    expect(pre.split('&#10;').every((l) => l.length <= 100)).toBe(true)
    const cut = renderedWithin('y '.repeat(2000), 1000, (t) => oneLineHtml(wrapLongLines(t), '&#10;'))
    expect(Buffer.byteLength(cut.html)).toBeLessThanOrEqual(1000)
    expect(cut.shown).toBeLessThan(cut.total)
    expect(cut.shown).toBeGreaterThan(800)
  })
})
