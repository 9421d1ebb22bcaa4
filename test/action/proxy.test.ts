// The bundled action behind a forward proxy, as on a runner whose network only lets traffic out
// through one: HTTP_PROXY / http_proxy are used, NO_PROXY is honoured, and a proxy that is down
// or refuses is a clear sentence, not a stack trace or a "may or may not have been created".
import net from 'node:net'
import { expectCleanOutput } from '../support/expect-clean-output.js'
import { afterEach, describe, expect, it } from 'vitest'
import { startProxy, type Proxy } from '../support/proxy.js'
import { inputsFor, runAction } from '../support/run-action.js'
import { startStandInService, type StandInService } from '../support/stand-in-service.js'

let service: StandInService
let proxy: Proxy | undefined
afterEach(async () => {
  await proxy?.close()
  proxy = undefined
  await service?.close()
})

function inputs(extra: Record<string, string> = {}): Record<string, string> {
  return inputsFor(service, { prompt: 'Document the proxy settings', timeout: '5s', ...extra })
}

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe('through a forward proxy', () => {
  it.each(['HTTP_PROXY', 'http_proxy'])('reaches the service through the proxy named in %s', async (variable) => {
    service = await startStandInService({ plan: { activeMs: 150 } })
    proxy = await startProxy()
    const run = await runAction({ inputs: inputs(), env: { [variable]: proxy.url } })

    expect(run.code).toBe(0)
    expect(run.outputs.status).toBe('completed')
    expect(service.requestsOf('POST')).toHaveLength(1)
    expect(service.requestsOf('GET').length).toBeGreaterThan(0)
    // Everything went through the proxy, to the service's address and nowhere else.
    expect(proxy.seen.length).toBeGreaterThan(0)
    expect(new Set(proxy.seen.map((r) => r.target))).toEqual(new Set([`127.0.0.1:${service.port}`]))
    // A tunnel's CONNECT is all a proxy reads in the clear: the key is not in it.
    for (const r of proxy.seen.filter((r) => r.method === 'CONNECT')) {
      expect(JSON.stringify(r.headers)).not.toContain(service.apiKey)
    }
    expectCleanOutput(run, service.apiKey)
  })

  it('sends the credentials in the proxy URL to the proxy, and only to it', async () => {
    service = await startStandInService({ plan: { activeMs: 100 } })
    proxy = await startProxy()
    const run = await runAction({
      inputs: inputs(),
      env: { HTTP_PROXY: `http://runner:pr0xy-pass@127.0.0.1:${proxy.port}` }
    })

    expect(run.code).toBe(0)
    const basic = `Basic ${Buffer.from('runner:pr0xy-pass').toString('base64')}`
    expect(proxy.seen.length).toBeGreaterThan(0)
    expect(proxy.seen.every((r) => r.headers['proxy-authorization'] === basic)).toBe(true)
    expect(service.requests.every((r) => r.headers['proxy-authorization'] === undefined)).toBe(true)
    expectCleanOutput(run, service.apiKey)
  })

  it('goes direct to a host listed in NO_PROXY', async () => {
    service = await startStandInService({ plan: { activeMs: 150 } })
    proxy = await startProxy()
    const run = await runAction({ inputs: inputs(), env: { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' } })

    expect(run.code).toBe(0)
    expect(service.requestsOf('POST')).toHaveLength(1)
    expect(service.requestsOf('GET').length).toBeGreaterThan(0)
    expect(proxy.seen).toEqual([])
    expectCleanOutput(run, service.apiKey)
  })

  it('says it could not reach the service when the proxy is down, and creates nothing', async () => {
    service = await startStandInService()
    // A timeout shorter than the create's shortest backoff (1 s): the wait after the first try reaches
    // it, so the run ends on that try's failure, however slow the machine (with 2 s, a second try
    // could be cut short while connecting, which ends in other words).
    const run = await runAction({
      inputs: inputs({ timeout: '1s' }),
      env: { HTTP_PROXY: `http://127.0.0.1:${await closedPort()}` }
    })

    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(
      /::error::Could not reach the service at http:\/\/127\.0\.0\.1:\d+: the connection was refused\. No job was created; check baseUrl, and the proxy settings/
    )
    expect(run.stdout).not.toMatch(/may or may not/)
    expect(service.requests).toHaveLength(0)
    expect(run.outputs.jobId).toBeUndefined()
    expectCleanOutput(run, service.apiKey)
  })

  it('says the proxy refused, not that a job may have been made, when it will not open the tunnel', async () => {
    service = await startStandInService()
    proxy = await startProxy({ refuseConnect: 407 })
    // As above: one try, then a backoff longer than the time left.
    const run = await runAction({ inputs: inputs({ timeout: '1s' }), env: { HTTP_PROXY: proxy.url } })

    expect(run.code).toBe(1)
    expect(proxy.seen.length).toBeGreaterThan(0)
    expect(run.stdout).toMatch(
      /::error::Could not reach the service at http:\/\/127\.0\.0\.1:\d+: the proxy refused to connect to it \(HTTP 407\)\. No job was created/
    )
    expect(run.stdout).not.toMatch(/may or may not|UND_ERR/)
    expect(service.requests).toHaveLength(0)
    expectCleanOutput(run, service.apiKey)
  })
})
