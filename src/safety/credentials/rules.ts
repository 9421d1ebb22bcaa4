// The credential formats the scan knows, as data a reader can audit: one row per format, with the
// family it belongs to, the words its marker says, its shape, the literal keywords one of which a
// text must contain before the shape is tried (so ordinary text costs one keyword pass), and a
// minimum Shannon entropy where a shape alone could match ordinary text. Each shape is written from
// the vendor's public description of its tokens (the `doc` of the family); gitleaks' public rule
// list served as an index of which formats exist. docs/security.md lists what is covered, measured.
// It is long because it is one table: a format is added as a row, never as code.
//
// Three kinds of rows:
// - TOKEN_RULES: formats that name themselves (a fixed prefix or structure): found anywhere.
// - NAMED_RULES: formats with no prefix, found as the value assigned to a name that says whose it is
//   (`asana_token = ...`, `HEROKU_API_KEY: ...`); the value must have the format's exact shape.
// - The keyword-and-entropy rule (assignments.ts) for the long tail: any value assigned to a name
//   that says it is secret, when it looks random enough (entropy.ts), with no table row.

/** A format that names itself: a fixed prefix or structure, found anywhere in the text. */
export interface TokenRule {
  id: string
  /** The vendor or kind, for the benchmark's recall per family and the docs. */
  family: string
  /** What the marker says: `[redacted: <kind>]`. */
  kind: string
  /** The token's shape, a regular expression (with its own boundaries). */
  pattern: string
  ignoreCase?: boolean
  /** Literal, lower-case; the text must contain one of them before the pattern is tried (none: always tried). */
  keywords: string[]
  /** The capture group that holds the secret, when the pattern also matches its setting. */
  group?: number
  /** Minimum Shannon entropy (bits per character) of the match, where the shape alone is loose. */
  entropy?: number
  /** A check of the match beyond its shape (a base64 wrapping decoded, say). */
  verify?: (match: string) => boolean
}

/** A format with no prefix: the value of a name that says whose credential it is. */
export interface NamedRule {
  id: string
  family: string
  kind: string
  /** Lower-case words, one of which the assigned name must contain (`asana` in `asanaToken`). */
  names: string[]
  /** The value's whole shape. */
  value: string
  ignoreCase?: boolean
}

// Boundaries: not inside a longer run of word characters.
import { isOrdinaryWords, isReference } from './entropy.js'

const B = '(?<![A-Za-z0-9_])'
const E = '(?![A-Za-z0-9_])'
const HEX = '[a-fA-F0-9]'
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}'

/** Whether a base64 text decodes to a JSON web token (a JWT wrapped once more, as in a k8s Secret). */
function decodesToJwt(text: string): boolean {
  const decoded = Buffer.from(text, 'base64').toString('latin1')
  return /^eyJ[\w-]{4,}\.eyJ[\w-]{4,}\.[\w-]*/.test(decoded)
}

export const TOKEN_RULES: TokenRule[] = [
  // Private keys: PEM (PKCS#1, PKCS#8, EC, DSA, OpenSSH, PGP blocks), whole or cut short at the end of the text.
  {
    id: 'private-key',
    family: 'Private key',
    kind: 'private key',
    pattern:
      // The body stops at the next BEGIN line too, so that each BEGIN's search ends where the next starts.
      '-----BEGIN[A-Z0-9 _-]{0,40} PRIVATE KEY(?: BLOCK)?-----[\\s\\S]*?(?:-----END[A-Z0-9 _-]{0,40} PRIVATE KEY(?: BLOCK)?-----|(?=-----BEGIN)|$(?![\\s\\S]))',
    keywords: ['-----begin']
  },
  {
    id: 'putty-private-key',
    family: 'Private key',
    kind: 'private key',
    // The file's lines up to its MAC, never past the next file's first line (each header's search ends there).
    pattern: 'PuTTY-User-Key-File-\\d: (?:(?!PuTTY-User-Key-File-)[\\s\\S])*?Private-MAC: [a-f0-9]{40,64}',
    keywords: ['putty-user-key-file']
  },
  {
    id: 'age-secret-key',
    family: 'Private key',
    kind: 'age secret key',
    pattern: 'AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}',
    keywords: ['age-secret-key-1']
  },
  // AWS: key ids by their four-letter prefix (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html)
  {
    id: 'aws-access-key-id',
    family: 'AWS',
    kind: 'AWS access key',
    pattern: `${B}(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA)[A-Z0-9]{16}${E}`,
    keywords: ['a3t', 'akia', 'asia', 'abia', 'acca', 'agpa', 'aida', 'aipa', 'anpa', 'anva', 'aroa', 'apka'],
    entropy: 3
  },
  {
    id: 'aws-secret-key',
    family: 'AWS',
    kind: 'AWS secret key',
    pattern: `aws.{0,20}?(?:secret|key).{0,20}?['"=:\\s]([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])`,
    group: 1,
    ignoreCase: true,
    keywords: ['aws'],
    entropy: 3.5
  },
  {
    id: 'aws-bedrock-long-lived',
    family: 'AWS',
    kind: 'AWS Bedrock API key',
    pattern: `${B}ABSK[A-Za-z0-9+/]{100,300}={0,2}`,
    keywords: ['absk'],
    entropy: 3
  },
  {
    id: 'aws-bedrock-short-lived',
    family: 'AWS',
    kind: 'AWS Bedrock API key',
    pattern: 'bedrock-api-key-[A-Za-z0-9+/=%]{20,}',
    keywords: ['bedrock-api-key-']
  },
  // Google: API keys (AIza + 35), OAuth client secrets (GOCSPX-), OAuth refresh tokens (1//).
  {
    id: 'gcp-api-key',
    family: 'Google',
    kind: 'Google API key',
    pattern: `${B}AIza[\\w-]{35}${E}`,
    keywords: ['aiza']
  },
  {
    id: 'google-oauth-client-secret',
    family: 'Google',
    kind: 'Google OAuth client secret',
    pattern: `${B}GOCSPX-[\\w-]{28}${E}`,
    keywords: ['gocspx-']
  },
  {
    id: 'google-oauth-access-token',
    family: 'Google',
    kind: 'Google OAuth token',
    pattern: `${B}ya29\\.[\\w-]{30,}`,
    keywords: ['ya29.'],
    entropy: 3.5
  },
  // Azure: AD (Entra) client secrets carry `Q~` after three characters and a digit; storage keys in connection strings.
  {
    id: 'azure-ad-client-secret',
    family: 'Azure',
    kind: 'Azure AD client secret',
    pattern: '(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])',
    keywords: ['q~'],
    entropy: 3
  },
  {
    id: 'azure-storage-key',
    family: 'Azure',
    kind: 'Azure storage key',
    pattern: '(?:AccountKey|SharedAccessKey)=([A-Za-z0-9+/]{40,100}={0,2})',
    group: 1,
    ignoreCase: true,
    keywords: ['accountkey=', 'sharedaccesskey=']
  },
  {
    id: 'azure-sas-signature',
    family: 'Azure',
    kind: 'Azure SAS signature',
    pattern: '[?&]sig=([A-Za-z0-9%+/=]{30,})',
    group: 1,
    keywords: ['sig=']
  },
  // GitHub (https://github.blog/2021-04-05-behind-githubs-new-authentication-token-formats/)
  {
    id: 'github-token',
    family: 'GitHub',
    kind: 'GitHub token',
    pattern: `${B}gh[pousr]_[A-Za-z0-9]{30,255}${E}`,
    keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_']
  },
  {
    id: 'github-fine-grained-pat',
    family: 'GitHub',
    kind: 'GitHub token',
    pattern: `${B}github_pat_\\w{40,255}`,
    keywords: ['github_pat_']
  },
  // GitLab (https://docs.gitlab.com/security/tokens/#token-prefixes)
  {
    id: 'gitlab-token',
    family: 'GitLab',
    kind: 'GitLab token',
    pattern: `${B}gl(?:pat|ptt|rt|dt|ft|imt|agent|oas|soat|ffct|cbt|wt|oat)-[\\w.-]{20,300}`,
    keywords: [
      'glpat-',
      'glptt-',
      'glrt-',
      'gldt-',
      'glft-',
      'glimt-',
      'glagent-',
      'gloas-',
      'glsoat-',
      'glffct-',
      'glcbt-',
      'glwt-',
      'gloat-'
    ],
    entropy: 3
  },
  {
    id: 'gitlab-runner-registration',
    family: 'GitLab',
    kind: 'GitLab token',
    pattern: `${B}GR1348941[\\w-]{20,}`,
    keywords: ['gr1348941']
  },
  {
    id: 'gitlab-session-cookie',
    family: 'GitLab',
    kind: 'GitLab session cookie',
    pattern: '_gitlab_session=([0-9a-z]{32})',
    group: 1,
    keywords: ['_gitlab_session=']
  },
  // Slack (https://api.slack.com/authentication/token-types)
  {
    id: 'slack-token',
    family: 'Slack',
    kind: 'Slack token',
    pattern: `${B}xox(?:[abposerc]|e\\.xox[bp])-[A-Za-z0-9-]{10,250}`,
    keywords: ['xox']
  },
  {
    id: 'slack-app-token',
    family: 'Slack',
    kind: 'Slack token',
    pattern: `${B}xapp-\\d-[A-Za-z0-9]+-\\d+-[a-z0-9]+`,
    ignoreCase: true,
    keywords: ['xapp-']
  },
  {
    id: 'slack-webhook',
    family: 'Slack',
    kind: 'Slack webhook',
    pattern: '(?:https?://)?hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,}',
    keywords: ['hooks.slack.com']
  },
  // Microsoft Teams incoming webhooks (old office.com and workflow URLs).
  {
    id: 'teams-webhook',
    family: 'Microsoft Teams',
    kind: 'Microsoft Teams webhook',
    pattern: 'https://[\\w.-]+\\.webhook\\.office\\.com/webhookb2/[^\\s\'"`<>]{40,}',
    keywords: ['webhook.office.com']
  },
  {
    id: 'teams-workflow-webhook',
    family: 'Microsoft Teams',
    kind: 'Microsoft Teams webhook',
    // The address's path never runs into the next address (each address's search ends there).
    pattern: 'https://[\\w.-]+\\.logic\\.azure\\.com(?:(?!https?://)[^\\s\'"`<>])*?[?&]sig=[A-Za-z0-9%_-]{20,}',
    keywords: ['logic.azure.com']
  },
  // Discord bot tokens: base64 user id, timestamp, HMAC; webhooks.
  {
    id: 'discord-bot-token',
    family: 'Discord',
    kind: 'Discord bot token',
    pattern: `${B}[MNO][A-Za-z0-9_-]{23,27}\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,40}${E}`,
    keywords: [],
    entropy: 4
  },
  {
    id: 'discord-webhook',
    family: 'Discord',
    kind: 'Discord webhook',
    pattern: 'https://(?:\\w+\\.)?discord(?:app)?\\.com/api/webhooks/\\d+/[\\w-]{40,}',
    keywords: ['discord']
  },
  // Telegram bot tokens: the bot's numeric id, a colon, 35 characters starting with A.
  {
    id: 'telegram-bot-token',
    family: 'Telegram',
    kind: 'Telegram bot token',
    pattern: `${B}\\d{5,16}:A[\\w-]{34}${E}`,
    keywords: [],
    entropy: 3
  },
  // Stripe (https://docs.stripe.com/keys): secret and restricted keys; webhook signing secrets.
  {
    id: 'stripe-key',
    family: 'Stripe',
    kind: 'Stripe key',
    pattern: `${B}(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,247}`,
    keywords: ['sk_live_', 'sk_test_', 'sk_prod_', 'rk_live_', 'rk_test_', 'rk_prod_']
  },
  {
    id: 'stripe-webhook-secret',
    family: 'Stripe',
    kind: 'Stripe webhook secret',
    pattern: `${B}whsec_[A-Za-z0-9]{20,}`,
    keywords: ['whsec_']
  },
  // Twilio API key sids (SK + 32 hex).
  {
    id: 'twilio-api-key',
    family: 'Twilio',
    kind: 'Twilio API key',
    pattern: `${B}SK${HEX}{32}${E}`,
    keywords: [],
    entropy: 3
  },
  // Mailgun: private keys `key-`, public validation keys `pubkey-` (and webhook signing keys by name, below).
  {
    id: 'mailgun-key',
    family: 'Mailgun',
    kind: 'Mailgun key',
    pattern: `${B}(?:pub)?key-[a-f0-9]{32}${E}`,
    keywords: ['key-']
  },
  // Mailchimp: 32 hex and the data centre.
  {
    id: 'mailchimp-key',
    family: 'Mailchimp',
    kind: 'Mailchimp API key',
    pattern: `${B}[a-f0-9]{32}-us\\d{1,2}${E}`,
    keywords: ['-us']
  },
  // SendGrid: `SG.` + 22 + `.` + 43 in its documentation, other lengths in the wild.
  {
    id: 'sendgrid-key',
    family: 'SendGrid',
    kind: 'SendGrid API key',
    pattern: `${B}SG\\.[\\w-]{16,32}\\.[\\w-]{16,64}${E}|${B}SG\\.[\\w=.-]{60,100}`,
    keywords: ['sg.'],
    entropy: 3
  },
  {
    id: 'sendinblue-key',
    family: 'Brevo (Sendinblue)',
    kind: 'Brevo API key',
    pattern: `${B}x(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}`,
    keywords: ['xkeysib-', 'xsmtpsib-']
  },
  // OpenAI and Anthropic
  {
    id: 'openai-key',
    family: 'OpenAI',
    kind: 'OpenAI API key',
    pattern: `${B}sk-(?:(?:proj|svcacct|admin)-)?[\\w-]{20,80}T3BlbkFJ[\\w-]{20,80}|${B}sk-(?:proj|svcacct|admin)-[\\w-]{100,200}`,
    keywords: ['t3blbkfj', 'sk-proj-', 'sk-svcacct-', 'sk-admin-']
  },
  {
    id: 'anthropic-key',
    family: 'Anthropic',
    kind: 'Anthropic API key',
    pattern: `${B}sk-ant-(?:api|admin|oat|ort|sid)\\d{2}-[\\w-]{80,120}`,
    keywords: ['sk-ant-']
  },
  {
    id: 'perplexity-key',
    family: 'Perplexity',
    kind: 'Perplexity API key',
    pattern: `${B}pplx-[A-Za-z0-9]{48}`,
    keywords: ['pplx-']
  },
  {
    id: 'huggingface-token',
    family: 'Hugging Face',
    kind: 'Hugging Face token',
    pattern: `${B}(?:hf|api_org)_[A-Za-z]{34}${E}`,
    keywords: ['hf_', 'api_org_'],
    entropy: 3
  },
  // 1Password: account secret keys (A3-…) and service account tokens (ops_ + a base64 JSON).
  {
    id: '1password-secret-key',
    family: '1Password',
    kind: '1Password secret key',
    pattern: `${B}A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}${E}`,
    keywords: ['a3-'],
    entropy: 3
  },
  {
    id: '1password-service-account',
    family: '1Password',
    kind: '1Password service account token',
    pattern: `${B}ops_eyJ[A-Za-z0-9+/]{100,}={0,3}`,
    keywords: ['ops_eyj']
  },
  // Package registries
  { id: 'npm-token', family: 'npm', kind: 'npm token', pattern: `${B}npm_[A-Za-z0-9]{36}${E}`, keywords: ['npm_'] },
  {
    id: 'pypi-token',
    family: 'PyPI',
    kind: 'PyPI token',
    pattern: 'pypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)[\\w-]{40,1000}',
    keywords: ['pypi-age']
  },
  {
    id: 'rubygems-key',
    family: 'RubyGems',
    kind: 'RubyGems API key',
    pattern: `${B}rubygems_[a-f0-9]{48}${E}`,
    keywords: ['rubygems_']
  },
  {
    id: 'clojars-token',
    family: 'Clojars',
    kind: 'Clojars token',
    pattern: `${B}CLOJARS_[A-Za-z0-9]{60}`,
    ignoreCase: true,
    keywords: ['clojars_']
  },
  {
    id: 'nuget-config-password',
    family: 'NuGet',
    kind: 'NuGet feed password',
    pattern: '<add key=\\\\?"(?:ClearText)?Password\\\\?"\\s*value=\\\\?"([^"\\\\]{4,})\\\\?"\\s*/>',
    group: 1,
    ignoreCase: true,
    keywords: ['<add key='],
    // `value="${pass}"` in a template is a slot, not a password.
    verify: (match) => !isReference(match)
  },
  {
    id: 'artifactory-key',
    family: 'JFrog',
    kind: 'JFrog Artifactory key',
    pattern: `${B}(?:AKCp[A-Za-z0-9]{69}|cmVmd[A-Za-z0-9]{59})${E}`,
    keywords: ['akcp', 'cmvmd'],
    entropy: 4
  },
  // Infrastructure and cloud platforms
  {
    id: 'digitalocean-token',
    family: 'DigitalOcean',
    kind: 'DigitalOcean token',
    pattern: `${B}do[opr]_v1_[a-f0-9]{64}${E}`,
    keywords: ['doo_v1_', 'dop_v1_', 'dor_v1_']
  },
  {
    id: 'heroku-key-v2',
    family: 'Heroku',
    kind: 'Heroku API key',
    pattern: `${B}HRKU-AA[\\w-]{58}${E}`,
    keywords: ['hrku-']
  },
  {
    id: 'cloudflare-origin-ca-key',
    family: 'Cloudflare',
    kind: 'Cloudflare key',
    pattern: `${B}v1\\.0-[a-f0-9]{24}-[a-f0-9]{146}${E}`,
    keywords: ['v1.0-']
  },
  {
    id: 'terraform-cloud-token',
    family: 'HashiCorp',
    kind: 'Terraform Cloud token',
    pattern: `${B}[A-Za-z0-9]{14}\\.atlasv1\\.[\\w=-]{60,70}`,
    keywords: ['.atlasv1.']
  },
  {
    id: 'vault-token',
    family: 'HashiCorp',
    kind: 'Vault token',
    pattern: `${B}hv[sbr]\\.[\\w-]{90,300}`,
    keywords: ['hvs.', 'hvb.', 'hvr.']
  },
  {
    id: 'vault-legacy-token',
    family: 'HashiCorp',
    kind: 'Vault token',
    pattern: `${B}[sb]\\.(?=[A-Za-z0-9]{0,23}[A-Z])(?=[A-Za-z0-9]{0,23}[a-z])[A-Za-z0-9]{24}${E}`,
    keywords: [],
    entropy: 3.5,
    verify: (match) => !isOrdinaryWords(match.slice(2))
  },
  {
    id: 'doppler-token',
    family: 'Doppler',
    kind: 'Doppler token',
    pattern: `${B}dp\\.(?:pt|st|sa|ct|scim|audit)\\.[A-Za-z0-9_.-]{40,44}`,
    keywords: ['dp.pt.', 'dp.st.', 'dp.sa.', 'dp.ct.', 'dp.scim.', 'dp.audit.']
  },
  {
    id: 'pulumi-token',
    family: 'Pulumi',
    kind: 'Pulumi token',
    pattern: `${B}pul-[a-f0-9]{40}${E}`,
    keywords: ['pul-']
  },
  {
    id: 'flyio-token',
    family: 'Fly.io',
    kind: 'Fly.io token',
    pattern: `${B}(?:fo1_[\\w-]{43}|fm[12][ar]?_[A-Za-z0-9+/]{100,}={0,3})`,
    keywords: ['fo1_', 'fm1', 'fm2_'],
    entropy: 4
  },
  {
    id: 'planetscale-token',
    family: 'PlanetScale',
    kind: 'PlanetScale token',
    pattern: `${B}pscale_(?:tkn|oauth|pw)_[\\w=.-]{32,64}`,
    keywords: ['pscale_']
  },
  {
    id: 'databricks-token',
    family: 'Databricks',
    kind: 'Databricks token',
    pattern: `${B}dapi[a-f0-9]{32}(?:-\\d)?${E}`,
    keywords: ['dapi'],
    entropy: 3
  },
  {
    id: 'clickhouse-key',
    family: 'ClickHouse',
    kind: 'ClickHouse Cloud key',
    pattern: `${B}4b1d[A-Za-z0-9]{38}${E}`,
    keywords: ['4b1d'],
    entropy: 3
  },
  {
    id: 'alibaba-access-key',
    family: 'Alibaba Cloud',
    kind: 'Alibaba Cloud access key',
    pattern: `${B}LTAI[A-Za-z0-9]{20}${E}`,
    keywords: ['ltai'],
    entropy: 3
  },
  {
    id: 'openshift-token',
    family: 'OpenShift',
    kind: 'OpenShift token',
    pattern: `${B}sha256~[\\w-]{43}(?![\\w-])`,
    keywords: ['sha256~']
  },
  {
    id: 'scalingo-token',
    family: 'Scalingo',
    kind: 'Scalingo token',
    pattern: `${B}tk-us-[\\w-]{48}`,
    keywords: ['tk-us-']
  },
  {
    id: 'harness-key',
    family: 'Harness',
    kind: 'Harness API key',
    pattern: `${B}(?:pat|sat)\\.[\\w-]{22}\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{20}`,
    keywords: []
  },
  {
    id: 'infracost-token',
    family: 'Infracost',
    kind: 'Infracost token',
    pattern: `${B}ico-[A-Za-z0-9]{32}${E}`,
    keywords: ['ico-'],
    entropy: 3
  },
  {
    id: 'defined-networking-token',
    family: 'Defined Networking',
    kind: 'Defined Networking token',
    pattern: `${B}dnkey-[\\w=-]{26}-[\\w=-]{52}`,
    keywords: ['dnkey-']
  },
  {
    id: 'prefect-token',
    family: 'Prefect',
    kind: 'Prefect token',
    pattern: `${B}pnu_[A-Za-z0-9]{36}${E}`,
    keywords: ['pnu_']
  },
  {
    id: 'octopus-deploy-key',
    family: 'Octopus Deploy',
    kind: 'Octopus Deploy API key',
    pattern: `${B}API-[A-Z0-9]{26}${E}`,
    keywords: ['api-'],
    entropy: 3
  },
  {
    id: 'authress-key',
    family: 'Authress',
    kind: 'Authress access key',
    pattern: `${B}(?:sc|ext|scauth|authress)_[A-Za-z0-9]{5,30}\\.[A-Za-z0-9]{4,6}\\.acc[_-][A-Za-z0-9-]{10,32}\\.[A-Za-z0-9+/_=-]{30,120}`,
    keywords: ['.acc_', '.acc-']
  },
  // Observability, errors and analytics
  {
    id: 'sentry-token',
    family: 'Sentry',
    kind: 'Sentry token',
    pattern: `${B}(?:sntryu_[a-f0-9]{64}${E}|sntrys_eyJ[A-Za-z0-9+/=_]{50,})`,
    keywords: ['sntryu_', 'sntrys_']
  },
  {
    id: 'sentry-dsn',
    family: 'Sentry',
    kind: 'Sentry DSN key',
    pattern: 'https?://([a-f0-9]{32}(?::[a-f0-9]{32})?)@[\\w.-]*sentry',
    group: 1,
    keywords: ['sentry']
  },
  {
    id: 'new-relic-key',
    family: 'New Relic',
    kind: 'New Relic key',
    pattern: `${B}NR(?:AK-[A-Z0-9]{27}|II-[\\w-]{32}|JS-[a-f0-9]{19}|AA-[a-f0-9]{27})${E}`,
    ignoreCase: true,
    keywords: ['nrak-', 'nrii-', 'nrjs-', 'nraa-']
  },
  {
    id: 'grafana-token',
    family: 'Grafana',
    kind: 'Grafana token',
    pattern: `${B}(?:eyJrIjoi[A-Za-z0-9]{70,400}={0,3}|glc_[A-Za-z0-9+/]{32,400}={0,3}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})`,
    keywords: ['eyjrijoi', 'glc_', 'glsa_']
  },
  {
    id: 'dynatrace-token',
    family: 'Dynatrace',
    kind: 'Dynatrace token',
    pattern: `${B}dt0[a-z]\\d{2}\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{64}`,
    keywords: ['dt0']
  },
  // Productivity, payments, commerce
  {
    id: 'atlassian-token',
    family: 'Atlassian',
    kind: 'Atlassian API token',
    pattern: `${B}ATA(?:TT|CT)3[A-Za-z0-9_=-]{150,250}`,
    keywords: ['atatt3', 'atact3']
  },
  {
    id: 'linear-key',
    family: 'Linear',
    kind: 'Linear API key',
    pattern: `${B}lin_(?:api|oauth)_[A-Za-z0-9]{40}`,
    keywords: ['lin_api_', 'lin_oauth_']
  },
  {
    id: 'notion-token',
    family: 'Notion',
    kind: 'Notion token',
    pattern: `${B}(?:ntn_[0-9]{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43})${E}`,
    keywords: ['ntn_', 'secret_'],
    entropy: 3.5
  },
  {
    id: 'airtable-pat',
    family: 'Airtable',
    kind: 'Airtable token',
    pattern: `${B}pat[A-Za-z0-9]{14}\\.[a-f0-9]{64}${E}`,
    keywords: ['pat']
  },
  {
    id: 'postman-key',
    family: 'Postman',
    kind: 'Postman API key',
    pattern: `${B}PMAK-[a-f0-9]{24}-[a-f0-9]{34}${E}`,
    ignoreCase: true,
    keywords: ['pmak-']
  },
  {
    id: 'readme-key',
    family: 'ReadMe',
    kind: 'ReadMe API key',
    pattern: `${B}rdme_[a-z0-9]{70}${E}`,
    keywords: ['rdme_']
  },
  {
    id: 'typeform-token',
    family: 'Typeform',
    kind: 'Typeform token',
    pattern: `${B}tfp_[\\w.=-]{59}`,
    keywords: ['tfp_']
  },
  {
    id: 'frameio-token',
    family: 'Frame.io',
    kind: 'Frame.io token',
    pattern: `${B}fio-u-[\\w=-]{64}`,
    keywords: ['fio-u-']
  },
  {
    id: 'shopify-token',
    family: 'Shopify',
    kind: 'Shopify token',
    pattern: `${B}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}${E}`,
    keywords: ['shpat_', 'shpca_', 'shppa_', 'shpss_']
  },
  {
    id: 'shippo-token',
    family: 'Shippo',
    kind: 'Shippo token',
    pattern: `${B}shippo_(?:live|test)_[a-fA-F0-9]{40}${E}`,
    keywords: ['shippo_']
  },
  {
    id: 'square-token',
    family: 'Square',
    kind: 'Square token',
    pattern: `${B}(?:EAAA[\\w-]{22,60}|sq0(?:atp|csp)-[\\w-]{22,60})`,
    keywords: ['eaaa', 'sq0atp-', 'sq0csp-'],
    entropy: 3
  },
  {
    id: 'duffel-token',
    family: 'Duffel',
    kind: 'Duffel token',
    pattern: `${B}duffel_(?:test|live)_[\\w=-]{43}`,
    keywords: ['duffel_']
  },
  {
    id: 'easypost-key',
    family: 'EasyPost',
    kind: 'EasyPost API key',
    pattern: `${B}EZ[AT]K[A-Za-z0-9]{54}${E}`,
    keywords: ['ezak', 'eztk']
  },
  {
    id: 'flutterwave-key',
    family: 'Flutterwave',
    kind: 'Flutterwave key',
    pattern: `${B}FLW(?:SECK|PUBK)(?:_TEST)?-[a-hA-H0-9]{12,32}(?:-X)?`,
    keywords: ['flwseck', 'flwpubk']
  },
  {
    id: 'adobe-client-secret',
    family: 'Adobe',
    kind: 'Adobe client secret',
    pattern: `${B}p8e-[A-Za-z0-9]{32}${E}`,
    keywords: ['p8e-']
  },
  {
    id: 'facebook-page-token',
    family: 'Facebook',
    kind: 'Facebook token',
    pattern: `${B}EAA[MC][A-Za-z0-9]{100,}`,
    keywords: ['eaam', 'eaac'],
    entropy: 4
  },
  {
    id: 'facebook-app-token',
    family: 'Facebook',
    kind: 'Facebook token',
    pattern: `${B}\\d{15,16}(?:\\||%7[Cc])[\\w-]{27,40}${E}`,
    keywords: [],
    entropy: 3
  },
  {
    id: 'twitter-bearer-token',
    family: 'Twitter',
    kind: 'Twitter bearer token',
    pattern: `${B}A{22}[A-Za-z0-9%]{80,100}`,
    keywords: ['aaaaaaaaaaaaaaaaaaaaaa']
  },
  {
    id: 'maxmind-key',
    family: 'MaxMind',
    kind: 'MaxMind license key',
    pattern: `${B}[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk${E}`,
    keywords: ['_mmk']
  },
  {
    id: 'intra42-secret',
    family: '42 Intra',
    kind: '42 Intra client secret',
    pattern: `${B}s-s4t2(?:ud|af)-[a-fA-F0-9]{64}${E}`,
    keywords: ['s-s4t2']
  },
  {
    id: 'settlemint-token',
    family: 'SettleMint',
    kind: 'SettleMint token',
    pattern: `${B}sm_(?:aat|pat|sat)_[A-Za-z0-9]{16}${E}`,
    keywords: ['sm_aat_', 'sm_pat_', 'sm_sat_']
  },
  {
    id: 'sourcegraph-token',
    family: 'Sourcegraph',
    kind: 'Sourcegraph token',
    pattern: `${B}sgp_(?:(?:[a-fA-F0-9]{16}|local)_)?[a-fA-F0-9]{40}${E}`,
    keywords: ['sgp_']
  },
  {
    id: 'sonar-token',
    family: 'SonarQube',
    kind: 'SonarQube token',
    pattern: `${B}sq[pua]_[a-f0-9]{40}${E}`,
    keywords: ['sqp_', 'squ_', 'sqa_']
  },
  {
    id: 'contribsys-credentials',
    family: 'Sidekiq',
    kind: 'Sidekiq Enterprise credentials',
    pattern: 'https?://([a-f0-9]{8}:[a-f0-9]{8})@(?:gems|enterprise)\\.contribsys\\.com',
    group: 1,
    ignoreCase: true,
    keywords: ['contribsys.com']
  },
  {
    id: 'yandex-token',
    family: 'Yandex',
    kind: 'Yandex token',
    pattern: `${B}(?:t1\\.[\\w-]+={0,2}\\.[\\w-]{86}={0,2}|AQVN[\\w-]{35,38}${E})`,
    keywords: []
  },
  // JSON web tokens, bare or wrapped once more in base64 (as a Kubernetes Secret holds them).
  {
    id: 'jwt',
    family: 'JSON web token',
    kind: 'JSON web token',
    // Its start is not inside a run of its own characters (`-eyJ-eyJ…` would start a search at each).
    pattern: `(?<![\\w-])eyJ[\\w-]{8,}\\.eyJ[\\w/\\\\-]{8,}\\.[\\w/\\\\-]*={0,2}`,
    keywords: ['eyj']
  },
  {
    id: 'jwt-base64',
    family: 'JSON web token',
    kind: 'JSON web token',
    pattern: `${B}ZXlK[A-Za-z0-9+/]{40,}={0,2}`,
    keywords: ['zxlk'],
    verify: decodesToJwt
  },
  // This service's own API keys: svc_ and any printable ASCII (inputs.ts), to a blank, quote or bracket.
  {
    id: 'docs-agent-key',
    family: 'Docs agent',
    kind: 'docs agent API key',
    pattern: '\\bsvc_[^\\s\'"`<>()[\\]{},;]{8,}',
    keywords: ['svc_'],
    // `svc_\.\.\.` in a regular expression, `svc_........` in prose: not a key.
    verify: (match) => (match.slice(4).match(/[A-Za-z0-9]/g) ?? []).length >= 6
  }
]

// Formats without a prefix, keyed by whose they are. The value must have the shape whole; the name
// must hold one of `names`. Ids (client ids, account ids) are here when the vendor pairs them with a
// secret and the pair is what grants access.
const named = ({ ignoreCase = true, ...rule }: NamedRule): NamedRule => ({ ...rule, ignoreCase })

export const NAMED_RULES: NamedRule[] = [
  named({
    id: 'adafruit-key',
    family: 'Adafruit',
    kind: 'Adafruit IO key',
    names: ['adafruit'],
    value: '[a-z0-9_-]{32}'
  }),
  named({ id: 'adobe-client-id', family: 'Adobe', kind: 'Adobe client id', names: ['adobe'], value: '[a-f0-9]{32}' }),
  named({
    id: 'airtable-key',
    family: 'Airtable',
    kind: 'Airtable API key',
    names: ['airtable'],
    value: '[a-z0-9]{17}'
  }),
  named({ id: 'algolia-key', family: 'Algolia', kind: 'Algolia API key', names: ['algolia'], value: '[a-z0-9]{32}' }),
  named({
    id: 'alibaba-secret',
    family: 'Alibaba Cloud',
    kind: 'Alibaba Cloud secret',
    names: ['alibaba'],
    value: '[a-z0-9]{30}'
  }),
  named({
    id: 'asana-credential',
    family: 'Asana',
    kind: 'Asana credential',
    names: ['asana'],
    value: '[0-9]{16}|[a-z0-9]{32}'
  }),
  named({
    id: 'atlassian-token',
    family: 'Atlassian',
    kind: 'Atlassian API token',
    names: ['atlassian', 'confluence', 'jira'],
    value: '[a-z0-9]{20}[a-f0-9]{4}'
  }),
  named({ id: 'beamer-token', family: 'Beamer', kind: 'Beamer token', names: ['beamer'], value: 'b_[a-z0-9=_-]{44}' }),
  named({
    id: 'bitbucket-credential',
    family: 'Bitbucket',
    kind: 'Bitbucket credential',
    names: ['bitbucket'],
    value: '[a-z0-9]{32}|[a-z0-9=_-]{64}'
  }),
  named({ id: 'bittrex-key', family: 'Bittrex', kind: 'Bittrex key', names: ['bittrex'], value: '[a-z0-9]{32}' }),
  named({
    id: 'meraki-key',
    family: 'Cisco Meraki',
    kind: 'Cisco Meraki API key',
    names: ['meraki'],
    value: '[0-9a-f]{40}'
  }),
  named({
    id: 'cloudflare-key',
    family: 'Cloudflare',
    kind: 'Cloudflare key',
    names: ['cloudflare'],
    value: '[a-z0-9_-]{40}|[a-f0-9]{37}'
  }),
  named({ id: 'codecov-token', family: 'Codecov', kind: 'Codecov token', names: ['codecov'], value: '[a-z0-9]{32}' }),
  named({
    id: 'cohere-key',
    family: 'Cohere',
    kind: 'Cohere API key',
    names: ['cohere', 'co_api_key'],
    value: '[a-zA-Z0-9]{40}'
  }),
  named({
    id: 'coinbase-token',
    family: 'Coinbase',
    kind: 'Coinbase token',
    names: ['coinbase'],
    value: '[a-z0-9_-]{64}'
  }),
  named({
    id: 'confluent-key',
    family: 'Confluent',
    kind: 'Confluent key',
    names: ['confluent'],
    value: '[a-z0-9]{16}|[a-z0-9]{64}'
  }),
  named({
    id: 'contentful-token',
    family: 'Contentful',
    kind: 'Contentful token',
    names: ['contentful'],
    value: '[a-z0-9=_-]{43}'
  }),
  named({
    id: 'datadog-key',
    family: 'Datadog',
    kind: 'Datadog key',
    names: ['datadog', 'dd_api', 'dd_app', 'dd-api', 'dd-app'],
    value: '[a-z0-9]{32}|[a-z0-9]{40}'
  }),
  named({
    id: 'discord-credential',
    family: 'Discord',
    kind: 'Discord credential',
    names: ['discord'],
    value: '[a-f0-9]{64}|[0-9]{17,19}|[a-z0-9=_-]{32}'
  }),
  named({ id: 'droneci-token', family: 'Drone CI', kind: 'Drone CI token', names: ['drone'], value: '[a-z0-9]{32}' }),
  named({
    id: 'dropbox-token',
    family: 'Dropbox',
    kind: 'Dropbox token',
    names: ['dropbox'],
    value: '[a-z0-9]{15}|[a-z0-9]{11}AAAAAAAAAA[a-z0-9_=-]{43}|sl\\.[a-z0-9_=-]{130,140}'
  }),
  named({ id: 'etsy-token', family: 'Etsy', kind: 'Etsy token', names: ['etsy'], value: '[a-z0-9]{24}' }),
  named({
    id: 'facebook-secret',
    family: 'Facebook',
    kind: 'Facebook app secret',
    names: ['facebook'],
    value: '[a-f0-9]{32}'
  }),
  named({ id: 'fastly-token', family: 'Fastly', kind: 'Fastly token', names: ['fastly'], value: '[a-z0-9=_-]{32}' }),
  named({
    id: 'finicity-credential',
    family: 'Finicity',
    kind: 'Finicity credential',
    names: ['finicity'],
    value: '[a-f0-9]{32}|[a-z0-9]{20}'
  }),
  named({ id: 'finnhub-token', family: 'Finnhub', kind: 'Finnhub token', names: ['finnhub'], value: '[a-z0-9]{20}' }),
  named({ id: 'flickr-token', family: 'Flickr', kind: 'Flickr token', names: ['flickr'], value: '[a-z0-9]{32}' }),
  named({
    id: 'freshbooks-token',
    family: 'FreshBooks',
    kind: 'FreshBooks token',
    names: ['freshbooks'],
    value: '[a-z0-9]{64}'
  }),
  named({ id: 'gitter-token', family: 'Gitter', kind: 'Gitter token', names: ['gitter'], value: '[a-z0-9_-]{40}' }),
  named({
    id: 'gocardless-token',
    family: 'GoCardless',
    kind: 'GoCardless token',
    names: ['gocardless'],
    value: 'live_[a-z0-9_=-]{40}'
  }),
  named({ id: 'heroku-key', family: 'Heroku', kind: 'Heroku API key', names: ['heroku'], value: UUID }),
  named({ id: 'hubspot-key', family: 'HubSpot', kind: 'HubSpot API key', names: ['hubspot'], value: UUID }),
  named({
    id: 'intercom-key',
    family: 'Intercom',
    kind: 'Intercom token',
    names: ['intercom'],
    value: '[a-z0-9=_-]{60}'
  }),
  named({
    id: 'jfrog-key',
    family: 'JFrog',
    kind: 'JFrog key',
    names: ['jfrog', 'artifactory', 'bintray', 'xray'],
    value: '[a-z0-9]{64}|[a-z0-9]{73}'
  }),
  named({
    id: 'kraken-token',
    family: 'Kraken',
    kind: 'Kraken token',
    names: ['kraken'],
    value: '[a-z0-9/=_+-]{80,90}'
  }),
  named({
    id: 'kucoin-credential',
    family: 'KuCoin',
    kind: 'KuCoin credential',
    names: ['kucoin'],
    value: `[a-f0-9]{24}|${UUID}`
  }),
  named({
    id: 'launchdarkly-token',
    family: 'LaunchDarkly',
    kind: 'LaunchDarkly token',
    names: ['launchdarkly'],
    value: '[a-z0-9=_-]{40}'
  }),
  named({
    id: 'linear-secret',
    family: 'Linear',
    kind: 'Linear client secret',
    names: ['linear'],
    value: '[a-f0-9]{32}'
  }),
  named({
    id: 'linkedin-credential',
    family: 'LinkedIn',
    kind: 'LinkedIn credential',
    names: ['linkedin', 'linked_in', 'linked-in'],
    value: '[a-z0-9]{14}|[a-z0-9]{16}'
  }),
  named({
    id: 'lob-key',
    family: 'Lob',
    kind: 'Lob API key',
    names: ['lob'],
    value: '(?:live|test)_(?:pub_)?[a-f0-9]{31,35}'
  }),
  named({
    id: 'looker-credential',
    family: 'Looker',
    kind: 'Looker credential',
    names: ['looker'],
    value: '[a-z0-9]{20}|[a-z0-9]{24}'
  }),
  named({
    id: 'mailgun-signing-key',
    family: 'Mailgun',
    kind: 'Mailgun key',
    names: ['mailgun'],
    value: '[a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8}'
  }),
  named({
    id: 'mapbox-token',
    family: 'Mapbox',
    kind: 'Mapbox token',
    names: ['mapbox'],
    value: '[ps]k\\.[a-z0-9]{60,}\\.[a-z0-9_-]{22}'
  }),
  named({
    id: 'mattermost-token',
    family: 'Mattermost',
    kind: 'Mattermost token',
    names: ['mattermost'],
    value: '[a-z0-9]{26}'
  }),
  named({
    id: 'messagebird-credential',
    family: 'MessageBird',
    kind: 'MessageBird credential',
    names: ['messagebird', 'message_bird', 'message-bird'],
    value: `[a-z0-9]{25}|${UUID}`
  }),
  named({
    id: 'netlify-token',
    family: 'Netlify',
    kind: 'Netlify token',
    names: ['netlify'],
    value: '[a-z0-9=_-]{40,46}'
  }),
  named({
    id: 'new-relic-user-id',
    family: 'New Relic',
    kind: 'New Relic key',
    names: ['newrelic', 'new_relic', 'new-relic'],
    value: '[a-z0-9]{64}'
  }),
  named({
    id: 'nytimes-token',
    family: 'New York Times',
    kind: 'New York Times token',
    names: ['nytimes', 'newyorktimes', 'new-york-times'],
    value: '[a-z0-9=_-]{32}'
  }),
  named({ id: 'okta-token', family: 'Okta', kind: 'Okta token', names: ['okta'], value: '00[\\w=-]{40}' }),
  named({
    id: 'plaid-credential',
    family: 'Plaid',
    kind: 'Plaid credential',
    names: ['plaid'],
    value: `access-(?:sandbox|development|production)-${UUID}|[a-z0-9]{24}|[a-z0-9]{30}`
  }),
  named({
    id: 'privateai-token',
    family: 'Private AI',
    kind: 'Private AI token',
    names: ['privateai', 'private_ai', 'private-ai'],
    value: '[a-z0-9]{32}'
  }),
  named({
    id: 'rapidapi-token',
    family: 'RapidAPI',
    kind: 'RapidAPI key',
    names: ['rapidapi'],
    value: '[a-z0-9_-]{50}'
  }),
  named({
    id: 'sendbird-credential',
    family: 'Sendbird',
    kind: 'Sendbird credential',
    names: ['sendbird'],
    value: `[a-f0-9]{40}|${UUID}`
  }),
  named({ id: 'sentry-token', family: 'Sentry', kind: 'Sentry token', names: ['sentry'], value: '[a-f0-9]{64}' }),
  named({
    id: 'sidekiq-secret',
    family: 'Sidekiq',
    kind: 'Sidekiq Enterprise credentials',
    names: ['contribsys'],
    value: '[a-f0-9]{8}:[a-f0-9]{8}'
  }),
  named({ id: 'snyk-token', family: 'Snyk', kind: 'Snyk token', names: ['snyk'], value: UUID }),
  named({
    id: 'sonar-token',
    family: 'SonarQube',
    kind: 'SonarQube token',
    names: ['sonar'],
    value: '(?:squ_|sqp_|sqa_)?[a-z0-9=_-]{40}'
  }),
  named({
    id: 'squarespace-token',
    family: 'Squarespace',
    kind: 'Squarespace token',
    names: ['squarespace'],
    value: UUID
  }),
  named({
    id: 'sumologic-credential',
    family: 'Sumo Logic',
    kind: 'Sumo Logic credential',
    names: ['sumo'],
    value: 'su[a-zA-Z0-9]{12}|[a-z0-9]{64}'
  }),
  named({
    id: 'telegram-token',
    family: 'Telegram',
    kind: 'Telegram bot token',
    names: ['telegr'],
    value: '[0-9]{5,16}:A[a-z0-9_-]{34}'
  }),
  named({ id: 'travis-token', family: 'Travis CI', kind: 'Travis CI token', names: ['travis'], value: '[a-z0-9]{22}' }),
  named({
    id: 'twilio-auth-token',
    family: 'Twilio',
    kind: 'Twilio auth token',
    names: ['twilio'],
    value: '[a-f0-9]{32}'
  }),
  named({ id: 'twitch-token', family: 'Twitch', kind: 'Twitch token', names: ['twitch'], value: '[a-z0-9]{30}' }),
  named({
    id: 'twitter-credential',
    family: 'Twitter',
    kind: 'Twitter credential',
    names: ['twitter'],
    value: '[a-z0-9]{25}|[a-z0-9]{45}|[a-z0-9]{50}|[0-9]{15,25}-[a-z0-9]{20,40}'
  }),
  named({
    id: 'yandex-credential',
    family: 'Yandex',
    kind: 'Yandex credential',
    names: ['yandex'],
    value: 'YC[a-z0-9_-]{38}'
  }),
  named({ id: 'zendesk-key', family: 'Zendesk', kind: 'Zendesk key', names: ['zendesk'], value: '[a-z0-9]{40}' })
]

/**
 * Words that, as a part of an assigned name (split at `_`, `-`, `.` and camelCase), say its value is
 * secret: the keyword-and-entropy rule's names. `key` alone counts only with a random-looking value.
 */
export const SECRET_NAME_WORDS = new Set([
  'key',
  'keys',
  'apikey',
  'secret',
  'secrets',
  'token',
  'tokens',
  'password',
  'passwords',
  'passwd',
  'pwd',
  'pass',
  'passphrase',
  'passcode',
  'pin',
  'auth',
  'authtoken',
  'authorization',
  'credential',
  'credentials',
  'cred',
  'creds',
  'bearer',
  'session',
  'sessionid',
  'sessiontoken',
  'cookie',
  'private',
  'privatekey',
  'signing',
  'signature',
  'hmac',
  'salt',
  'sas',
  'jwt',
  'dsn',
  'otp',
  'accesskey',
  'secretkey',
  'clientsecret',
  'apisecret'
])

/** Parts of a name that make it a password: a shorter, less random value still counts. */
export const PASSWORD_NAME_WORDS = new Set(['password', 'passwords', 'passwd', 'pwd', 'pass', 'passphrase', 'passcode'])
