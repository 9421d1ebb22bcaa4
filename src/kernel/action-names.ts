// The names workflows depend on live here, once, so action.yml and the code cannot drift apart
// silently (test/action-yml.test.ts checks that both list the same names).

export const Input = {
  projectId: 'projectId',
  prompt: 'prompt',
  apiKey: 'apiKey',
  baseUrl: 'baseUrl',
  wait: 'wait',
  timeout: 'timeout',
  pollInterval: 'pollInterval',
  jobId: 'jobId',
  requirePr: 'requirePr',
  trigger: 'trigger',
  allowedAssociations: 'allowedAssociations',
  githubToken: 'githubToken',
  context: 'context',
  contextLimit: 'contextLimit',
  promptFile: 'promptFile',
  dryRun: 'dryRun',
  group: 'group',
  docsRepository: 'docsRepository',
  report: 'report'
} as const

export const Output = {
  jobId: 'jobId',
  status: 'status',
  prLink: 'prLink',
  prNumber: 'prNumber',
  model: 'model',
  sourceRepository: 'sourceRepository',
  sourceRef: 'sourceRef',
  createdAt: 'createdAt',
  jobCreated: 'jobCreated',
  reported: 'reported',
  working: 'working'
} as const
