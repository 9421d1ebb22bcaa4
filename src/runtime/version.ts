// Kept equal to package.json's version by test/version.test.ts; sent in the User-Agent.
export const ACTION_NAME = 'docs-agent-job-action'
export const ACTION_VERSION = '1.0.0'
export const USER_AGENT = `${ACTION_NAME}/${ACTION_VERSION}`
