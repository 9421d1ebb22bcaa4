// Files that hold credentials by convention: the context names them with their line counts and never
// sends their diff, and a review comment on one is sent without its diff hunk, whatever is in it. A file counts by every name it had: a renamed file is a secret file
// when its old name or its new one is on this list (`.env` renamed to `config/app.ini` keeps its diff
// home). The list: environment files, private keys and keystores, the credential files of package
// managers, clouds and tools, Terraform state and variable files, Kubernetes Secret manifests.

// Whole file names (lower case).
const NAMES = new Set([
  '.npmrc',
  '.yarnrc.yml',
  '.pypirc',
  '.netrc',
  '_netrc',
  '.git-credentials',
  '.gitcookies',
  '.htpasswd',
  '.pgpass',
  '.my.cnf',
  '.dockercfg',
  '.envrc',
  '.vault-token',
  '.s3cfg',
  '.boto',
  '.terraformrc',
  'terraform.rc',
  '.gem-credentials',
  'credentials.json',
  'credentials.toml',
  'client_secret.json',
  'service-account.json',
  'application_default_credentials.json',
  'secrets.json',
  'secrets.yml',
  'secrets.yaml',
  'secrets.toml',
  'secret.yml',
  'secret.yaml',
  'credentials.yml.enc',
  'master.key',
  'secring.gpg',
  'kubeconfig',
  'terraform.tfvars',
  'terraform.tfvars.json'
])

// Name shapes: `.env` and its variants, ssh keys (`id_rsa`, `id_ed25519_sk`), key and keystore
// files, Terraform state and auto-loaded variables, Kubernetes Secret manifests by their usual names.
const PATTERNS =
  /^(?:\.env|\.env\..+|.+\.env|id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?(?:\..*)?|.+\.(?:pem|key|p12|pfx|jks|keystore|ppk|kdbx|tfstate|tfstate\.backup)|.+\.auto\.tfvars(?:\.json)?|.+[-_.]secrets?\.ya?ml)$/

// Paths: cloud and tool credential files in their home directories.
const PATHS =
  /(^|\/)(?:\.aws\/credentials|\.docker\/config\.json|\.kube\/config|\.ssh\/[^/]+|\.gem\/credentials|\.cargo\/credentials(?:\.toml)?|\.m2\/settings(?:-security)?\.xml|\.config\/gh\/hosts\.yml|\.config\/gcloud\/[^/]*credentials[^/]*|\.azure\/[^/]*tokens?[^/]*)$/

/** Whether the file at `path` holds credentials by convention, by its name or where it sits. */
export function isSecretFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase()
  return NAMES.has(name) || PATTERNS.test(name) || PATHS.test(path.toLowerCase())
}

/** Whether a changed file holds credentials by any name it had (its new name, or the old one of a rename). */
export function isSecretChange(file: { path: string; previousPath?: string }): boolean {
  return isSecretFile(file.path) || (file.previousPath !== undefined && isSecretFile(file.previousPath))
}
