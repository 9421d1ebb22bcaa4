// Where one index is, and whose it is: the repository the index issue is in, this GitHub's host (which
// each signature covers), the project and the key its records are signed for, the clients that read
// and write it, and the account the action writes as (read once, at the first need). The index's
// issue (index-issue.ts), its records (index-records.ts) and its body (index-body.ts) share one site.
import { isWrittenBy, readAuthor, type Author } from '../github/author.js'
import type { Octokit } from '../github/octokit.js'
import { repositoryPath } from '../github/pull-request-ref.js'
import type { GitHubReader } from '../github/reader.js'
import type { RecordKey, RecordPlace } from '../github/signed-record.js'
import type { IndexAddress } from './index-marker.js'

/**
 * The index's reads: one listing of the labelled issues, then its comments, at most `maxPages` pages of
 * 100 (the open records; told ones leave), each request and all of them bounded.
 */
export const INDEX_READS = { maxPages: 100, requestMs: 10_000, totalMs: 60_000 } as const

/** What an index is opened with. */
export interface IndexSiteOptions {
  octokit: Octokit
  reader: GitHubReader
  key: RecordKey
  /** This GitHub's host, which each record's signature covers. */
  host: string
  /** `owner/name` of the repository the index issue is in. */
  repository: string
  projectId: string
  /** This GitHub's address, for the dashboard's links. */
  serverUrl?: string
}

/** The index's repository, clients, key and author, for the modules that read and write it. */
export class IndexSite {
  readonly owner: string
  readonly repo: string
  readonly octokit: Octokit
  readonly reader: GitHubReader
  readonly key: RecordKey
  readonly host: string
  readonly projectId: string
  readonly repositoryUrl: string
  private author: Promise<Author> | null = null

  constructor(index: IndexSiteOptions) {
    ;({ octokit: this.octokit, reader: this.reader, key: this.key, host: this.host, projectId: this.projectId } = index)
    ;[this.owner, this.repo] = index.repository.split('/')
    this.repositoryUrl = `${(index.serverUrl ?? `https://${index.host}`).replace(/\/+$/, '')}/${index.repository}`
  }

  /** Whether `user` is the account the action writes as (one GET /user, at the first need). */
  async isOurs(user: unknown): Promise<boolean> {
    this.author ??= readAuthor(() => this.reader.get('/user', "the token's account", 'metadata: read'))
    return isWrittenBy(await this.author, user)
  }

  /** What the index's marker in the body of `issue` is signed for. */
  address(issue: number): IndexAddress {
    return {
      key: this.key,
      host: this.host,
      repository: `${this.owner}/${this.repo}`,
      issue,
      projectId: this.projectId
    }
  }

  /** What a record in the comments of `issue` is signed for (with its comment's id). */
  place(issue: number): RecordPlace {
    return { host: this.host, thread: { owner: this.owner, repo: this.repo, number: issue }, projectId: this.projectId }
  }

  /** The repository's path in GitHub's API. */
  repoPath(): string {
    return repositoryPath({ owner: this.owner, repo: this.repo })
  }
}
