// The last page of a list, from GitHub's Link header: only its number is taken, never its address.
import { describe, expect, it } from 'vitest'
import { lastPageOf } from '../../../src/github/reader.js'

describe('the last page of a list', () => {
  it.each([
    [
      '<https://api.github.com/repositories/1/issues/12/comments?per_page=100&page=2>; rel="next", <https://api.github.com/repositories/1/issues/12/comments?per_page=100&page=7>; rel="last"',
      7
    ],
    ['<https://api.github.com/x?page=3&per_page=100>; rel="last"', 3],
    [
      '<https://api.github.com/x?per_page=100&page=1>; rel="first", <https://api.github.com/x?page=2>; rel="prev"',
      null
    ],
    ['', null],
    ['<https://api.github.com/x?page=abc>; rel="last"', null],
    ['<https://api.github.com/x?xpage=9>; rel="last"', null]
  ])('reads %s as %s', (link, page) => {
    expect(lastPageOf(link)).toBe(page)
  })
})
