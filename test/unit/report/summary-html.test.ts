// Outside text in the job summary: one line of escaped HTML, cut in UTF-8 bytes on whole characters.
import { describe, expect, it } from 'vitest'
import { oneLineHtml, oneLineHtmlWithin } from '../../../src/report/summary-html.js'

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
