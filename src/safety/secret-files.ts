// Files that hold credentials by convention (.env, a private key, .npmrc...): the context names them
// with their line counts and never sends their diff, and a review comment on one is sent without
// its diff hunk, whatever is in it.

// Names that hold credentials by convention: environment files, private keys and keystores, and the
// credential files of package managers, clouds and tools.
const SECRET_NAMES = new Set([
  '.npmrc',
  '.yarnrc.yml',
  '.pypirc',
  '.netrc',
  '_netrc',
  '.git-credentials',
  '.htpasswd',
  '.pgpass',
  '.dockercfg',
  'credentials.json',
  'client_secret.json',
  'service-account.json',
  'secrets.json',
  'secrets.yml',
  'secrets.yaml',
  'secrets.toml',
  'credentials.yml.enc',
  'master.key',
  'terraform.tfvars'
])
const SECRET_PATTERNS =
  /^(\.env|\.env\..+|.+\.env|id_(rsa|dsa|ecdsa|ed25519)(_sk)?(\..*)?|.+\.(pem|key|p12|pfx|jks|keystore|ppk|kdbx))$/
const SECRET_DIRS = /(^|\/)(\.aws\/credentials|\.docker\/config\.json|\.kube\/config|\.ssh\/[^/]+)$/

/** Whether the file at `path` holds credentials by convention, by its name or where it sits. */
export function isSecretFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase()
  return SECRET_NAMES.has(name) || SECRET_PATTERNS.test(name) || SECRET_DIRS.test(path.toLowerCase())
}
