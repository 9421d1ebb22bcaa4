// Who the action writes as on GitHub, so that a comment found by its marker is taken for the action's
// only when the action wrote it: the token's own account when it is a person's (`GET /user` names it),
// or, for an installation's token (GitHub answers `GET /user` with 403: it is no user), an app's bot
// account, which nobody can comment as without installing an app on the repository.
import { asObject, login, text } from './json-shape.js'

export type Author = { login: string } | 'an app'

/**
 * The author `getUser` (one `GET /user`, through whichever client the caller holds) names; an answer
 * that names no one, or a failure, is an installation's token. A cancelled run's read still throws.
 */
export async function readAuthor(getUser: () => Promise<unknown>, signal?: AbortSignal): Promise<Author> {
  try {
    const name = login(asObject(await getUser()).login)
    return name ? { login: name } : 'an app'
  } catch (error) {
    if (signal?.aborted) throw error
    return 'an app'
  }
}

/** Whether a comment's `user` is `author`. */
export function isWrittenBy(author: Author, user: unknown): boolean {
  const { login: name, type } = asObject(user)
  if (author === 'an app') return text(type) === 'Bot'
  return login(name).toLowerCase() === author.login.toLowerCase()
}
