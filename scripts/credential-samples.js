// @ts-check
// Real-shape credential samples for `npm run bench:credentials`, generated afresh at each run from
// each format's public shape with a seeded generator (the same seed gives the same corpus; nothing
// here is a real credential, and no sample is stored in the repository). One entry per rule of
// gitleaks' public rule list (its ids name the formats, so the recall is comparable), plus
// connection strings with a password in them (Redis, JDBC, .NET and MongoDB). Each value is embedded four ways: a diff line,
// an environment assignment, a JSON value and a commit message.

// The soak's seeded generator (mulberry32): the same seed gives the same corpus on every run.
import { mulberry32 } from '../test/support/soak.js'

/** @type {Record<string, string>} */
const CLASSES = {
  a: 'abcdefghijklmnopqrstuvwxyz0123456789',
  A: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  U: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  h: '0123456789abcdef',
  H: '0123456789ABCDEF',
  d: '0123456789',
  w: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-',
  b: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
  l: 'abcdefghijklmnopqrstuvwxyz',
  L: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  B: 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L',
  p: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#%*+-._~@'
}

/**
 * A value from a template: `{A36}` is 36 characters of class A, `{h8-12}` 8 to 12 hex, `{uuid}` a
 * UUID; the rest is literal.
 * @param {string} template
 * @param {() => number} rng
 * @returns {string}
 */
export function fill(template, rng) {
  return template.replace(
    /\{(uuid|[aAUhHdwblLBp])(\d+)?(?:-(\d+))?\}/g,
    (/** @type {string} */ _, /** @type {string} */ cls, /** @type {string} */ min, /** @type {string} */ max) => {
      if (cls === 'uuid') return [8, 4, 4, 4, 12].map((n) => pick('h', n, rng)).join('-')
      const lo = Number(min)
      const n = max ? lo + Math.floor(rng() * (Number(max) - lo + 1)) : lo
      return pick(cls, n, rng)
    }
  )
}

/**
 * @param {string} cls
 * @param {number} n
 * @param {() => number} rng
 */
function pick(cls, n, rng) {
  const chars = CLASSES[cls]
  let out = ''
  for (let i = 0; i < n; i++) out += chars[Math.floor(rng() * chars.length)]
  return out
}

const b64 = (/** @type {string} */ text) => Buffer.from(text).toString('base64')
const b64url = (/** @type {string} */ text) => Buffer.from(text).toString('base64url')

/** @param {() => number} rng */
function jwt(rng) {
  const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))
  const payload = b64url(
    JSON.stringify({ sub: fill('{d10}', rng), name: fill('{l6}', rng), iat: 1700000000 + Math.floor(rng() * 1e7) })
  )
  return `${header}.${payload}.${fill('{w43}', rng)}`
}

/** @typedef {string | ((rng: () => number) => string)} Template */
/** @typedef {{ where: string, text: string, secrets: string[] }} Setting */

/**
 * Self-naming formats: [gitleaks rule id, family, template, the secret in the value if not all of it].
 * @type {([string, string, Template] | [string, string, Template, (value: string) => string])[]}
 */
const TOKENS = [
  ['1password-secret-key', '1Password', 'A3-{U6}-{U11}-{U5}-{U5}-{U5}'],
  [
    '1password-service-account-token',
    '1Password',
    () =>
      `ops_${b64(JSON.stringify({ signInAddress: 'my.1password.com', userAuth: { method: 'SRPg-4096' }, email: 'x@y.z', srpX: 'a'.repeat(64) })).replace(/=+$/, '')}{b200}`
  ],
  ['adobe-client-secret', 'Adobe', 'p8e-{A32}'],
  ['age-secret-key', 'Private key', 'AGE-SECRET-KEY-1{B58}'],
  ['airtable-personnal-access-token', 'Airtable', 'pat{A14}.{h64}'],
  ['alibaba-access-key-id', 'Alibaba Cloud', 'LTAI{A20}'],
  ['anthropic-admin-api-key', 'Anthropic', 'sk-ant-admin01-{w93}AA'],
  ['anthropic-api-key', 'Anthropic', 'sk-ant-api03-{w93}AA'],
  ['artifactory-api-key', 'JFrog', 'AKCp{A69}'],
  ['artifactory-reference-token', 'JFrog', 'cmVmd{A59}'],
  ['atlassian-api-token', 'Atlassian', 'ATATT3{w186}'],
  ['authress-service-client-access-key', 'Authress', 'sc_{a12}.{a5}.acc_{a20}.{w60}'],
  ['aws-access-token', 'AWS', 'AKIA{U16}'],
  ['aws-access-token', 'AWS', 'A3T{U1}{U16}'],
  ['aws-access-token', 'AWS', 'ASIA{U16}'],
  ['aws-amazon-bedrock-api-key-long-lived', 'AWS', 'ABSK{b140}'],
  [
    'aws-amazon-bedrock-api-key-short-lived',
    'AWS',
    () =>
      `bedrock-api-key-${b64('bedrock.amazonaws.com/?Action=CallWithBearerToken&X-Amz-Date=20250101T000000Z')}{b120}`
  ],
  ['azure-ad-client-secret', 'Azure', '{A3}{d1}Q~{w34}'],
  ['clickhouse-cloud-api-secret-key', 'ClickHouse', '4b1d{A38}'],
  ['clojars-api-token', 'Clojars', 'CLOJARS_{a60}'],
  ['cloudflare-origin-ca-key', 'Cloudflare', 'v1.0-{h24}-{h146}'],
  ['databricks-api-token', 'Databricks', 'dapi{h32}'],
  ['defined-networking-api-token', 'Defined Networking', 'dnkey-{a26}-{a52}'],
  ['digitalocean-access-token', 'DigitalOcean', 'doo_v1_{h64}'],
  ['digitalocean-pat', 'DigitalOcean', 'dop_v1_{h64}'],
  ['digitalocean-refresh-token', 'DigitalOcean', 'dor_v1_{h64}'],
  ['doppler-api-token', 'Doppler', 'dp.pt.{A43}'],
  ['duffel-api-token', 'Duffel', 'duffel_test_{w43}'],
  ['dynatrace-api-token', 'Dynatrace', 'dt0c01.{U24}.{A64}'],
  ['easypost-api-token', 'EasyPost', 'EZAK{A54}'],
  ['easypost-test-api-token', 'EasyPost', 'EZTK{A54}'],
  ['facebook-access-token', 'Facebook', '{d15}|{w32}'],
  ['facebook-page-access-token', 'Facebook', 'EAAM{A120}'],
  ['flutterwave-encryption-key', 'Flutterwave', 'FLWSECK_TEST-{h12}'],
  ['flutterwave-public-key', 'Flutterwave', 'FLWPUBK_TEST-{h32}-X'],
  ['flutterwave-secret-key', 'Flutterwave', 'FLWSECK_TEST-{h32}-X'],
  ['flyio-access-token', 'Fly.io', 'fo1_{w43}'],
  ['flyio-access-token', 'Fly.io', 'fm2_{b140}'],
  ['frameio-api-token', 'Frame.io', 'fio-u-{w64}'],
  ['gcp-api-key', 'Google', 'AIza{w35}'],
  ['github-app-token', 'GitHub', 'ghs_{A36}'],
  ['github-app-token', 'GitHub', 'ghu_{A36}'],
  ['github-fine-grained-pat', 'GitHub', 'github_pat_{A22}_{A59}'],
  ['github-oauth', 'GitHub', 'gho_{A36}'],
  ['github-pat', 'GitHub', 'ghp_{A36}'],
  ['github-refresh-token', 'GitHub', 'ghr_{A36}'],
  ['gitlab-cicd-job-token', 'GitLab', 'glcbt-{A3}_{w20}'],
  ['gitlab-deploy-token', 'GitLab', 'gldt-{w20}'],
  ['gitlab-feature-flag-client-token', 'GitLab', 'glffct-{w20}'],
  ['gitlab-feed-token', 'GitLab', 'glft-{w20}'],
  ['gitlab-incoming-mail-token', 'GitLab', 'glimt-{w25}'],
  ['gitlab-kubernetes-agent-token', 'GitLab', 'glagent-{w50}'],
  ['gitlab-oauth-app-secret', 'GitLab', 'gloas-{w64}'],
  ['gitlab-pat', 'GitLab', 'glpat-{w20}'],
  ['gitlab-pat-routable', 'GitLab', 'glpat-{A27}.01{a7}'],
  ['gitlab-ptt', 'GitLab', 'glptt-{h40}'],
  ['gitlab-rrt', 'GitLab', 'GR1348941{w20}'],
  ['gitlab-runner-authentication-token', 'GitLab', 'glrt-{w20}'],
  ['gitlab-runner-authentication-token-routable', 'GitLab', 'glrt-t1_{A27}.01{a7}'],
  ['gitlab-scim-token', 'GitLab', 'glsoat-{w20}'],
  [
    'gitlab-session-cookie',
    'GitLab',
    '_gitlab_session={a32}',
    (/** @type {string} */ v) => v.slice('_gitlab_session='.length)
  ],
  ['grafana-api-key', 'Grafana', 'eyJrIjoi{A80}'],
  ['grafana-cloud-api-token', 'Grafana', 'glc_{A40}'],
  ['grafana-service-account-token', 'Grafana', 'glsa_{A32}_{h8}'],
  ['harness-api-key', 'Harness', 'pat.{w22}.{A24}.{A20}'],
  ['hashicorp-tf-api-token', 'HashiCorp', '{a14}.atlasv1.{w64}'],
  ['heroku-api-key-v2', 'Heroku', 'HRKU-AA{w58}'],
  ['huggingface-access-token', 'Hugging Face', 'hf_{L34}'],
  ['huggingface-organization-api-token', 'Hugging Face', 'api_org_{L34}'],
  ['infracost-api-token', 'Infracost', 'ico-{A32}'],
  ['intra42-client-secret', '42 Intra', 's-s4t2ud-{h64}'],
  ['jwt', 'JSON web token', jwt],
  ['jwt-base64', 'JSON web token', (rng) => b64(jwt(rng))],
  ['linear-api-key', 'Linear', 'lin_api_{A40}'],
  ['maxmind-license-key', 'MaxMind', '{A6}_{A29}_mmk'],
  [
    'microsoft-teams-webhook',
    'Microsoft Teams',
    'https://{a8}.webhook.office.com/webhookb2/{uuid}@{uuid}/IncomingWebhook/{h32}/{uuid}'
  ],
  ['notion-api-token', 'Notion', 'ntn_{d11}{A35}'],
  ['npm-access-token', 'npm', 'npm_{A36}'],
  ['octopus-deploy-api-key', 'Octopus Deploy', 'API-{U26}'],
  ['openai-api-key', 'OpenAI', 'sk-proj-{w74}T3BlbkFJ{w74}'],
  ['openai-api-key', 'OpenAI', 'sk-{A20}T3BlbkFJ{A20}'],
  ['openshift-user-token', 'OpenShift', 'sha256~{w43}'],
  ['perplexity-api-key', 'Perplexity', 'pplx-{A48}'],
  ['planetscale-api-token', 'PlanetScale', 'pscale_tkn_{w43}'],
  ['planetscale-oauth-token', 'PlanetScale', 'pscale_oauth_{w43}'],
  ['planetscale-password', 'PlanetScale', 'pscale_pw_{w43}'],
  ['postman-api-token', 'Postman', 'PMAK-{h24}-{h34}'],
  ['prefect-api-token', 'Prefect', 'pnu_{A36}'],
  ['pulumi-api-token', 'Pulumi', 'pul-{h40}'],
  ['pypi-upload-token', 'PyPI', 'pypi-AgEIcHlwaS5vcmc{w70}'],
  ['readme-api-token', 'ReadMe', 'rdme_{a70}'],
  ['rubygems-api-token', 'RubyGems', 'rubygems_{h48}'],
  ['scalingo-api-token', 'Scalingo', 'tk-us-{w48}'],
  ['sendgrid-api-token', 'SendGrid', 'SG.{w22}.{w43}'],
  ['sendgrid-api-token', 'SendGrid', 'SG.{w16-32}.{w32-60}'],
  ['sendgrid-api-token', 'SendGrid', 'SG.{w66}'],
  ['sendinblue-api-token', 'Brevo (Sendinblue)', 'xkeysib-{h64}-{A16}'],
  [
    'sentry-org-token',
    'Sentry',
    () =>
      `sntrys_${b64(JSON.stringify({ iat: 1700000000, url: 'https://sentry.io', region_url: 'https://us.sentry.io', org: 'acme' })).replace(/=+$/, '')}_{b43}`
  ],
  ['sentry-user-token', 'Sentry', 'sntryu_{h64}'],
  ['settlemint-application-access-token', 'SettleMint', 'sm_aat_{A16}'],
  ['settlemint-personal-access-token', 'SettleMint', 'sm_pat_{A16}'],
  ['settlemint-service-access-token', 'SettleMint', 'sm_sat_{A16}'],
  ['shippo-api-token', 'Shippo', 'shippo_live_{h40}'],
  ['shopify-access-token', 'Shopify', 'shpat_{h32}'],
  ['shopify-custom-access-token', 'Shopify', 'shpca_{h32}'],
  ['shopify-private-app-access-token', 'Shopify', 'shppa_{h32}'],
  ['shopify-shared-secret', 'Shopify', 'shpss_{h32}'],
  [
    'sidekiq-sensitive-url',
    'Sidekiq',
    'https://{h8}:{h8}@gems.contribsys.com/',
    (/** @type {string} */ v) => v.slice(8, 25)
  ],
  ['slack-app-token', 'Slack', 'xapp-1-{U11}-{d13}-{h64}'],
  ['slack-bot-token', 'Slack', 'xoxb-{d12}-{d13}-{A24}'],
  ['slack-config-access-token', 'Slack', 'xoxe.xoxp-1-{U165}'],
  ['slack-config-refresh-token', 'Slack', 'xoxe-1-{U146}'],
  ['slack-legacy-bot-token', 'Slack', 'xoxb-{d10}-{A24}'],
  ['slack-legacy-token', 'Slack', 'xoxs-{d10}-{d10}-{d10}-{h64}'],
  ['slack-legacy-workspace-token', 'Slack', 'xoxa-2-{A40}'],
  ['slack-user-token', 'Slack', 'xoxp-{d12}-{d12}-{d12}-{h32}'],
  ['slack-webhook-url', 'Slack', 'https://hooks.slack.com/services/T{U8}/B{U8}/{A24}'],
  ['slack-webhook-url', 'Slack', 'http://hooks.slack.com/services/T{U10}/B{U10}/{A24}'],
  ['slack-webhook-url', 'Slack', 'https://hooks.slack.com/workflows/T{U10}/A{U10}/{d18}/{A24}'],
  ['sourcegraph-access-token', 'Sourcegraph', 'sgp_{h16}_{h40}'],
  ['sourcegraph-access-token', 'Sourcegraph', 'sgp_{h40}'],
  ['square-access-token', 'Square', 'EAAA{w60}'],
  ['square-access-token', 'Square', 'sq0atp-{w22}'],
  ['stripe-access-token', 'Stripe', 'sk_live_{A24}'],
  ['stripe-access-token', 'Stripe', 'sk_prod_{A32}'],
  ['stripe-access-token', 'Stripe', 'rk_prod_{A32}'],
  ['stripe-access-token', 'Stripe', 'rk_test_{A99}'],
  ['twilio-api-key', 'Twilio', 'SK{h32}'],
  ['vault-batch-token', 'HashiCorp', 'hvb.{w138}'],
  ['vault-service-token', 'HashiCorp', 'hvs.{w90}'],
  ['vault-service-token', 'HashiCorp', 's.{A24}']
]

/** Formats without a prefix, found by the name they are assigned to: [rule id, family, name word, template]. @type {[string, string, string, string][]} */
const NAMED = [
  ['adafruit-api-key', 'Adafruit', 'adafruit', '{w32}'],
  ['adobe-client-id', 'Adobe', 'adobe', '{h32}'],
  ['airtable-api-key', 'Airtable', 'airtable', '{a17}'],
  ['algolia-api-key', 'Algolia', 'algolia', '{a32}'],
  ['alibaba-secret-key', 'Alibaba Cloud', 'alibaba', '{a30}'],
  ['asana-client-id', 'Asana', 'asana', '{d16}'],
  ['asana-client-secret', 'Asana', 'asana', '{a32}'],
  ['atlassian-api-token', 'Atlassian', 'atlassian', '{a20}{h4}'],
  ['atlassian-api-token', 'Atlassian', 'jira', '{a20}{h4}'],
  ['beamer-api-token', 'Beamer', 'beamer', 'b_{w44}'],
  ['bitbucket-client-id', 'Bitbucket', 'bitbucket', '{a32}'],
  ['bitbucket-client-secret', 'Bitbucket', 'bitbucket', '{w64}'],
  ['bittrex-access-key', 'Bittrex', 'bittrex', '{a32}'],
  ['bittrex-secret-key', 'Bittrex', 'bittrex', '{a32}'],
  ['cisco-meraki-api-key', 'Cisco Meraki', 'meraki', '{h40}'],
  ['cloudflare-api-key', 'Cloudflare', 'cloudflare', '{w40}'],
  ['cloudflare-global-api-key', 'Cloudflare', 'cloudflare', '{h37}'],
  ['codecov-access-token', 'Codecov', 'codecov', '{a32}'],
  ['cohere-api-token', 'Cohere', 'cohere', '{A40}'],
  ['coinbase-access-token', 'Coinbase', 'coinbase', '{w64}'],
  ['confluent-access-token', 'Confluent', 'confluent', '{a16}'],
  ['confluent-secret-key', 'Confluent', 'confluent', '{a64}'],
  ['contentful-delivery-api-token', 'Contentful', 'contentful', '{w43}'],
  ['datadog-access-token', 'Datadog', 'datadog', '{a40}'],
  ['discord-api-token', 'Discord', 'discord', '{h64}'],
  ['discord-client-id', 'Discord', 'discord', '{d18}'],
  ['discord-client-secret', 'Discord', 'discord', '{w32}'],
  ['droneci-access-token', 'Drone CI', 'droneci', '{a32}'],
  ['dropbox-api-token', 'Dropbox', 'dropbox', '{a15}'],
  ['dropbox-long-lived-api-token', 'Dropbox', 'dropbox', '{a11}AAAAAAAAAA{w43}'],
  ['dropbox-short-lived-api-token', 'Dropbox', 'dropbox', 'sl.{w135}'],
  ['etsy-access-token', 'Etsy', 'etsy', '{a24}'],
  ['facebook-secret', 'Facebook', 'facebook', '{h32}'],
  ['fastly-api-token', 'Fastly', 'fastly', '{w32}'],
  ['finicity-api-token', 'Finicity', 'finicity', '{h32}'],
  ['finicity-client-secret', 'Finicity', 'finicity', '{a20}'],
  ['finnhub-access-token', 'Finnhub', 'finnhub', '{a20}'],
  ['flickr-access-token', 'Flickr', 'flickr', '{a32}'],
  ['freemius-secret-key', 'Freemius', 'secret_key', 'sk_{A29}'],
  ['freshbooks-access-token', 'FreshBooks', 'freshbooks', '{a64}'],
  ['gitter-access-token', 'Gitter', 'gitter', '{w40}'],
  ['gocardless-api-token', 'GoCardless', 'gocardless', 'live_{w40}'],
  ['hashicorp-tf-password', 'HashiCorp', 'administrator_login_password', '{a8-20}'],
  ['heroku-api-key', 'Heroku', 'heroku', '{uuid}'],
  ['hubspot-api-key', 'HubSpot', 'hubspot', '{uuid}'],
  ['intercom-api-key', 'Intercom', 'intercom', '{w60}'],
  ['jfrog-api-key', 'JFrog', 'jfrog', '{a73}'],
  ['jfrog-identity-token', 'JFrog', 'artifactory', '{a64}'],
  ['kraken-access-token', 'Kraken', 'kraken', '{b84}'],
  ['kucoin-access-token', 'KuCoin', 'kucoin', '{h24}'],
  ['kucoin-secret-key', 'KuCoin', 'kucoin', '{uuid}'],
  ['launchdarkly-access-token', 'LaunchDarkly', 'launchdarkly', '{w40}'],
  ['linear-client-secret', 'Linear', 'linear', '{h32}'],
  ['linkedin-client-id', 'LinkedIn', 'linkedin', '{a14}'],
  ['linkedin-client-secret', 'LinkedIn', 'linkedin', '{a16}'],
  ['lob-api-key', 'Lob', 'lob', 'live_{h35}'],
  ['lob-pub-api-key', 'Lob', 'lob', 'test_pub_{h31}'],
  ['looker-client-id', 'Looker', 'looker', '{a20}'],
  ['looker-client-secret', 'Looker', 'looker', '{a24}'],
  ['mailchimp-api-key', 'Mailchimp', 'mailchimp', '{h32}-us{d2}'],
  ['mailgun-private-api-token', 'Mailgun', 'mailgun', 'key-{h32}'],
  ['mailgun-pub-key', 'Mailgun', 'mailgun', 'pubkey-{h32}'],
  ['mailgun-signing-key', 'Mailgun', 'mailgun', '{h32}-{h8}-{h8}'],
  ['mapbox-api-token', 'Mapbox', 'mapbox', 'pk.{a60}.{a22}'],
  ['mattermost-access-token', 'Mattermost', 'mattermost', '{a26}'],
  ['messagebird-api-token', 'MessageBird', 'messagebird', '{a25}'],
  ['messagebird-client-id', 'MessageBird', 'message_bird', '{uuid}'],
  ['netlify-access-token', 'Netlify', 'netlify', '{w43}'],
  ['new-relic-browser-api-token', 'New Relic', 'newrelic', 'NRJS-{h19}'],
  ['new-relic-insert-key', 'New Relic', 'new_relic', 'NRII-{w32}'],
  ['new-relic-user-api-id', 'New Relic', 'newrelic', '{a64}'],
  ['new-relic-user-api-key', 'New Relic', 'newrelic', 'NRAK-{U27}'],
  ['nytimes-access-token', 'New York Times', 'nytimes', '{w32}'],
  ['okta-access-token', 'Okta', 'okta', '00{w40}'],
  ['plaid-api-token', 'Plaid', 'plaid', 'access-sandbox-{uuid}'],
  ['plaid-client-id', 'Plaid', 'plaid', '{a24}'],
  ['plaid-secret-key', 'Plaid', 'plaid', '{a30}'],
  ['privateai-api-token', 'Private AI', 'private_ai', '{a32}'],
  ['rapidapi-access-token', 'RapidAPI', 'rapidapi', '{w50}'],
  ['sendbird-access-id', 'Sendbird', 'sendbird', '{uuid}'],
  ['sendbird-access-token', 'Sendbird', 'sendbird', '{h40}'],
  ['sentry-access-token', 'Sentry', 'sentry', '{h64}'],
  ['sidekiq-secret', 'Sidekiq', 'BUNDLE_ENTERPRISE__CONTRIBSYS__COM', '{h8}:{h8}'],
  ['snyk-api-token', 'Snyk', 'snyk_api', '{uuid}'],
  ['sonar-api-token', 'SonarQube', 'sonar', '{w40}'],
  ['sonar-api-token', 'SonarQube', 'sonar', 'squ_{h40}'],
  ['squarespace-access-token', 'Squarespace', 'squarespace', '{uuid}'],
  ['sumologic-access-id', 'Sumo Logic', 'Sumo', 'su{A12}'],
  ['sumologic-access-token', 'Sumo Logic', 'Sumo', '{a64}'],
  ['telegram-bot-api-token', 'Telegram', 'telegram', '{d9}:A{w34}'],
  ['travisci-access-token', 'Travis CI', 'travis', '{a22}'],
  ['twitch-api-token', 'Twitch', 'twitch', '{a30}'],
  ['twitter-access-secret', 'Twitter', 'twitter', '{a45}'],
  ['twitter-access-token', 'Twitter', 'twitter', '{d18}-{A40}'],
  ['twitter-api-key', 'Twitter', 'twitter', '{a25}'],
  ['twitter-api-secret', 'Twitter', 'twitter', '{a50}'],
  ['twitter-bearer-token', 'Twitter', 'twitter', 'AAAAAAAAAAAAAAAAAAAAA{A1}{A90}'],
  ['typeform-api-token', 'Typeform', 'typeform', 'tfp_{w59}'],
  ['yandex-access-token', 'Yandex', 'yandex', 't1.{w40}.{w86}'],
  ['yandex-api-key', 'Yandex', 'yandex', 'AQVN{w36}'],
  ['yandex-aws-access-token', 'Yandex', 'yandex', 'YC{w38}'],
  ['zendesk-secret-key', 'Zendesk', 'zendesk', '{a40}']
]

/**
 * The four settings a value appears in.
 * @param {string} value
 * @param {string} name
 */
function inContexts(value, name) {
  const lower = name.toLowerCase()
  const upper = name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')
  const camel = /[A-Z_]/.test(name) ? name : `${lower}Token`
  // A name that says already what it holds (`administrator_login_password`, `secret_key`) is used as it is.
  const whole = /(?:password|key|token|secret|__com)$/i.test(name)
  if (whole) {
    return [
      { where: 'diff line', text: `@@ -1,2 +1,3 @@\n const a = 1\n+${name} = "${value}"\n export default a` },
      { where: 'env assignment', text: `${upper}=${value}` },
      { where: 'JSON value', text: `{\n  "name": "app",\n  "${name}": "${value}",\n  "debug": false\n}` },
      { where: 'commit message', text: `Configure the integration\n\n${name}: ${value}\n` }
    ]
  }
  return [
    { where: 'diff line', text: `@@ -1,2 +1,3 @@\n const a = 1\n+const ${camel} = "${value}"\n export default a` },
    {
      where: 'env assignment',
      text: `${upper.endsWith('_KEY') || upper.endsWith('PASSWORD') || upper.includes('__') ? upper : `${upper}_TOKEN`}=${value}`
    },
    { where: 'JSON value', text: `{\n  "name": "app",\n  "${lower}_api_key": "${value}",\n  "debug": false\n}` },
    { where: 'commit message', text: `Configure the ${lower} integration\n\n${lower}_token: ${value}\n` }
  ]
}

/**
 * A self-naming value in four settings, none of which names it.
 * @param {string} value
 */
function bareContexts(value) {
  return [
    { where: 'diff line', text: `@@ -4,2 +4,3 @@\n   run()\n+  client.login('${value}')\n }` },
    { where: 'env assignment', text: `SETTING=${value}` },
    { where: 'JSON value', text: `{"value": "${value}", "enabled": true}` },
    { where: 'commit message', text: `Use ${value} for the deploy step\n\nIt was missing.` }
  ]
}

/**
 * @param {() => number} rng
 * @param {string} label
 */
function pem(rng, label) {
  const lines = []
  for (let i = 0; i < 6; i++) lines.push(fill('{b64}', rng))
  lines.push(`${fill('{b20}', rng)}==`)
  return { begin: `-----BEGIN ${label}-----`, body: lines, end: `-----END ${label}-----` }
}

/** Samples of formats that need a setting of their own. @type {[string, string, (rng: () => number) => Setting[]][]} */
const SPECIAL = [
  [
    'private-key',
    'Private key',
    (/** @type {() => number} */ rng) => {
      const key = pem(
        rng,
        ['RSA PRIVATE KEY', 'PRIVATE KEY', 'EC PRIVATE KEY', 'OPENSSH PRIVATE KEY'][Math.floor(rng() * 4)]
      )
      const all = [key.begin, ...key.body, key.end]
      return [
        { where: 'diff line', text: `@@ -0,0 +1,9 @@\n${all.map((l) => `+${l}`).join('\n')}`, secrets: key.body },
        { where: 'env assignment', text: `PRIVATE_PEM="${all.join('\n')}"`, secrets: key.body },
        {
          where: 'JSON value',
          text: `{"type": "service_account", "private_key": "${all.join('\\n')}\\n"}`,
          secrets: key.body
        },
        { where: 'commit message', text: `Add the deploy key\n\n${all.join('\n')}\n`, secrets: key.body },
        // A review hunk cut to its last lines: the BEGIN line fell off.
        {
          where: 'cut hunk',
          text: `${key.body
            .slice(2)
            .map((l) => `+${l}`)
            .join('\n')}\n+${key.end}\n+done`,
          secrets: key.body.slice(2)
        }
      ]
    }
  ],
  [
    'curl-auth-user',
    'curl credentials',
    (/** @type {() => number} */ rng) => {
      const user = fill('{l6}', rng)
      const pass = fill('{p12-20}', rng).replace(/^[-~]/, 'k')
      return [
        { where: 'diff line', text: `+curl -u ${user}:${pass} https://api.example.com/v1/items`, secrets: [pass] },
        {
          where: 'env assignment',
          text: `CHECK="curl --user '${user}:${pass}' https://api.example.com"`,
          secrets: [pass]
        },
        {
          where: 'JSON value',
          text: `{"script": "curl -s --user ${user}:${pass} https://api.example.com"}`,
          secrets: [pass]
        },
        {
          where: 'commit message',
          text: `Call the API\n\ncurl -X POST --user "${user}:${pass}" https://api.example.com/hook\n`,
          secrets: [pass]
        }
      ]
    }
  ],
  [
    'curl-auth-header',
    'curl credentials',
    (/** @type {() => number} */ rng) => {
      const token = fill('{w32-48}', rng)
      const basic = b64(`${fill('{l6}', rng)}:${fill('{A16}', rng)}`)
      return [
        {
          where: 'diff line',
          text: `+curl -H "Authorization: Bearer ${token}" https://api.example.com`,
          secrets: [token]
        },
        {
          where: 'env assignment',
          text: `CMD="curl --header 'Authorization: Basic ${basic}' https://x.example.com"`,
          secrets: [basic]
        },
        {
          where: 'JSON value',
          text: `{"run": "curl -H 'X-Api-Key: ${token}' https://api.example.com"}`,
          secrets: [token]
        },
        {
          where: 'commit message',
          text: `Debug\n\ncurl -H "Authorization: Token ${token}" https://api.example.com\n`,
          secrets: [token]
        }
      ]
    }
  ],
  [
    'kubernetes-secret-yaml',
    'Kubernetes Secret',
    (/** @type {() => number} */ rng) => {
      const password = b64(fill('{p16}', rng))
      const url = b64(`https://${fill('{l8}', rng)}.example.com`)
      const manifest = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ntype: Opaque\ndata:\n  password: ${password}\n  api-url: ${url}\n`
      return [
        {
          where: 'diff line',
          text: manifest
            .split('\n')
            .map((l) => `+${l}`)
            .join('\n'),
          secrets: [password, url]
        },
        { where: 'env assignment', text: `MANIFEST=$(cat <<EOF\n${manifest}EOF\n)`, secrets: [password, url] },
        {
          where: 'JSON value',
          text: `data:\n  token: ${password}\n  endpoint: ${url}\nkind: Secret\n`,
          secrets: [password, url]
        },
        { where: 'commit message', text: `Add the secret\n\n${manifest}`, secrets: [password, url] }
      ]
    }
  ],
  [
    'nuget-config-password',
    'NuGet',
    (/** @type {() => number} */ rng) => {
      const pass = fill('{A16}', rng)
      const xml = `<packageSourceCredentials>\n  <feed>\n    <add key="Username" value="builder" />\n    <add key="ClearTextPassword" value="${pass}" />\n  </feed>\n</packageSourceCredentials>`
      return [
        {
          where: 'diff line',
          text: xml
            .split('\n')
            .map((l) => `+${l}`)
            .join('\n'),
          secrets: [pass]
        },
        { where: 'env assignment', text: `NUGET_CONFIG='${xml.replace(/\n/g, ' ')}'`, secrets: [pass] },
        { where: 'JSON value', text: JSON.stringify({ nuget: xml }), secrets: [pass] },
        { where: 'commit message', text: `Feed\n\n${xml}\n`, secrets: [pass] }
      ]
    }
  ],
  [
    'generic-api-key',
    'Generic assignment',
    (/** @type {() => number} */ rng) => {
      const names = [
        'api_key',
        'client_secret',
        'auth_token',
        'secret',
        'access_key',
        'credentials',
        'db_password',
        'x-api-key',
        'signing_key',
        'AppSecret'
      ]
      const name = names[Math.floor(rng() * names.length)]
      const value = fill(['{A24-40}', '{w32}', '{h40}', '{b40}=', '{a20}'][Math.floor(rng() * 5)], rng)
      return inContexts(value, name).map((c) => ({ ...c, secrets: [value] }))
    }
  ],
  [
    'connection-strings',
    'Connection strings',
    (/** @type {() => number} */ rng) => {
      const pw = fill('{p14-20}', rng).replace(/[@:/]/g, 'q')
      return [
        { where: 'diff line', text: `+REDIS_URL=redis://:${pw}@cache.internal:6379/0`, secrets: [pw] },
        {
          where: 'env assignment',
          text: `DATABASE_URL=jdbc:postgresql://db:5432/app?user=app&password=${pw.replace(/[&;]/g, 'z')}&ssl=true`,
          secrets: [pw.replace(/[&;]/g, 'z')]
        },
        {
          where: 'JSON value',
          text: `{"ConnectionStrings": {"Default": "Server=db;Database=app;User Id=app;Password=${pw.replace(/[;"]/g, 'z')};"}}`,
          secrets: [pw.replace(/[;"]/g, 'z')]
        },
        {
          where: 'commit message',
          text: `Point at the new cluster\n\nmongodb+srv://admin:${pw}@cluster0.example.net/app\n`,
          secrets: [pw]
        }
      ]
    }
  ]
]

/**
 * The corpus: for each format, `perFormat` values, each in its settings.
 * @returns {{ rule: string, family: string, where: string, text: string, secrets: string[] }[]}
 */
export function credentialSamples(perFormat = 10, seed = 20) {
  const rng = mulberry32(seed)
  const out = []
  const value = (/** @type {Template} */ template) =>
    typeof template === 'function' ? fill(template(rng), rng) : fill(template, rng)
  for (let i = 0; i < perFormat; i++) {
    for (const [rule, family, template, secret] of TOKENS) {
      const v = value(template)
      for (const c of bareContexts(v)) out.push({ rule, family, ...c, secrets: [secret ? secret(v) : v] })
    }
    for (const [rule, family, name, template] of NAMED) {
      const v = value(template)
      for (const c of inContexts(v, name)) out.push({ rule, family, ...c, secrets: [v] })
    }
    for (const [rule, family, make] of SPECIAL) {
      for (const c of make(rng)) out.push({ rule, family, ...c })
    }
  }
  return out
}

// The escapes a token may follow in the text that is sent: a JSON string's, a URL's (%XX, any),
// and a shell's line continuation, which splits the token itself.
export const ESCAPES = [
  '\\n',
  '\\t',
  '\\r',
  '\\"',
  '\\\\',
  '\\u0020',
  '\\u00e9',
  '%3D',
  '%20',
  '%0A',
  '%2C',
  '%C3%A9',
  'continuation'
]

/**
 * Every self-naming format (one value each) right after each escape, in a diff (a JSON string in an
 * added line) and in a pull request's body (a URL's query, a JSON snippet); a line continuation splits
 * the value in two instead. A value URL-encoded whole (its `/`, `+` and `=` as %XX) is a setting of its
 * own, whose secret is the encoded form.
 * @returns {{ rule: string, family: string, where: string, escape: string, text: string, secrets: string[] }[]}
 */
export function escapedSamples(seed = 26) {
  const rng = mulberry32(seed)
  const out = []
  for (const [, , template, secretOf] of TOKENS) {
    const value = typeof template === 'function' ? fill(template(rng), rng) : fill(template, rng)
    const secret = secretOf ? secretOf(value) : value
    for (const escape of ESCAPES) {
      const url = escape.startsWith('%')
      if (escape === 'continuation') {
        const cut = Math.floor(value.length / 2)
        const [a, b] = [value.slice(0, cut), value.slice(cut)]
        out.push(
          {
            where: 'diff',
            text: `@@ -1,2 +1,3 @@\n run() {\n+  export SETTING="${a}\\\n+${b}"\n }`,
            secrets: [secret]
          },
          {
            where: 'pull request body',
            text: `Run it with:\n\n    SETTING=${a}\\\n${b} ./deploy.sh\n`,
            secrets: [secret]
          }
        )
      } else if (url) {
        out.push(
          {
            where: 'diff',
            text: `@@ -1,2 +1,3 @@\n const a = 1\n+const link = "https://example.com/cb?state=ok${escape}${value}&page=2"\n export default a`,
            secrets: [secret]
          },
          {
            where: 'pull request body',
            text: `The callback failed:\n\nhttps://example.com/cb?state=ok${escape}${value}&page=2\n`,
            secrets: [secret]
          }
        )
      } else {
        out.push(
          {
            where: 'diff',
            text: `@@ -1,2 +1,3 @@\n const a = 1\n+  "message": "Deploy with${escape}${value}",\n export default a`,
            secrets: [secret]
          },
          {
            where: 'pull request body',
            text: `The payload was \`{"note": "use${escape}${value}"}\`.\n`,
            secrets: [secret]
          }
        )
      }
    }
    const encoded = encodeURIComponent(value)
    out.push({
      where: 'pull request body',
      text: `Reproduce with https://example.com/login?next=%2Fhome&token=${encoded}&x=1\n`,
      secrets: [secretOf ? encodeURIComponent(secret) : encoded],
      escape: 'URL-encoded whole'
    })
  }
  return out.map((sample, i) => ({
    rule: TOKENS[Math.floor(i / (ESCAPES.length * 2 + 1))][0],
    family: TOKENS[Math.floor(i / (ESCAPES.length * 2 + 1))][1],
    escape: ESCAPES[Math.floor((i % (ESCAPES.length * 2 + 1)) / 2)] ?? 'URL-encoded whole',
    ...sample
  }))
}

/** The secret files: paths that must be named but whose diff never goes: [rule id or list, path]. */
export const SECRET_FILE_SAMPLES = [
  ['pkcs12-file', 'certs/client.p12'],
  ['pkcs12-file', 'deploy/signing.pfx'],
  ['files', '.envrc'],
  ['files', 'infra/terraform.tfstate'],
  ['files', 'infra/terraform.tfstate.backup'],
  ['files', 'infra/prod.auto.tfvars'],
  ['files', '.vault-token'],
  ['files', '.s3cfg'],
  ['files', 'home/.ssh/id_ed25519'],
  ['files', 'deploy/id_rsa'],
  ['files', 'k8s/secret.yaml'],
  ['files', 'k8s/app-secrets.yml'],
  ['files', '.env.production'],
  ['files', 'config/master.key']
]
