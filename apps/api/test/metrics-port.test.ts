import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../src/config.ts';
import { metricsGate } from '../src/metrics/expose.ts';
import { GATEWAY_ENV, gatewayLogin } from './support/gateway.ts';
import { describeEachDatabase, startApi, type TestApi } from './support/harness.ts';
import { fetchMetrics, METRICS_TOKEN, sample, scrape } from './support/metrics.ts';

// /metrics on a listener of its own (CANOPY_METRICS_PORT, ADR 0045), the gateway's counters, and the token's gate.

const metricsUrl = (api: TestApi) => `http://127.0.0.1:${api.ctx.metrics.listenerPort}`;

describeEachDatabase(
  'GET /metrics on its own port',
  (api) => {
    it('is served there without a token, and is an unknown route on the panel', async () => {
      assert.ok(api().ctx.metrics.listenerPort, 'the listener is up');
      const own = await fetchMetrics(metricsUrl(api()));
      assert.equal(own.status, 200);
      assert.match(own.text, /^# TYPE canopy_servers gauge$/m);
      const panel = await fetch(`${api().url}/metrics`);
      assert.equal(panel.status, 404);
      assert.equal((await panel.json()).code, 'not_found');
    });

    it('serves nothing else', async () => {
      for (const [method, path] of [
        ['GET', '/'],
        ['GET', '/status'],
        ['GET', '/metrics/x'],
        ['POST', '/metrics'],
      ] as const) {
        const res = await fetch(metricsUrl(api()) + path, { method });
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.equal((await res.json()).code, 'not_found');
      }
    });

    it("counts the gateway's refusals by reason", async () => {
      const refusals = async () =>
        sample(await scrape(metricsUrl(api())), 'canopy_gateway_refusals_total', { reason: 'unknown_server' });
      const before = await refusals();
      const res = await gatewayLogin(api(), { server: 'nosuchserver', growId: 'Sprout', password: 'secret123' });
      assert.equal(res.code, 'unknown_server');
      assert.equal(await refusals(), before + 1);
      assert.equal(sample(await scrape(metricsUrl(api())), 'canopy_gateway_logins_total', { kind: 'password' }), 0);
    });
  },
  { ...GATEWAY_ENV, CANOPY_METRICS_PORT: '0', CANOPY_METRICS_HOST: '127.0.0.1' },
);

describe('metrics settings and token', () => {
  it('asks for the token on the separate port too when both are set', async () => {
    const api = await startApi('sqlite', { CANOPY_METRICS_PORT: '0', CANOPY_METRICS_TOKEN: METRICS_TOKEN });
    try {
      const refused = await fetchMetrics(metricsUrl(api));
      assert.equal(refused.status, 401);
      assert.match(refused.challenge ?? '', /^Bearer\b/);
      assert.equal((await fetchMetrics(metricsUrl(api), METRICS_TOKEN)).status, 200);
      assert.equal((await fetch(`${api.url}/metrics`)).status, 404);
    } finally {
      await api.close();
    }
  });

  it('serves no /metrics at all when neither token nor port is set', async () => {
    const api = await startApi('sqlite');
    try {
      assert.equal(api.ctx.config.metrics, undefined);
      assert.equal((await fetchMetrics(api.url, METRICS_TOKEN)).status, 404);
    } finally {
      await api.close();
    }
  });

  it('refuses an address that keeps sending wrong tokens with 429, never the right token', () => {
    const gate = metricsGate(METRICS_TOKEN, () => 0);
    for (let i = 0; i < 20; i++) assert.equal(gate('Bearer wrong-token-000000000', '10.0.0.1')?.status, 401);
    assert.equal(gate('Bearer wrong-token-000000000', '10.0.0.1')?.status, 429);
    assert.equal(gate(`Bearer ${METRICS_TOKEN}`, '10.0.0.1'), null);
    assert.equal(gate('Bearer wrong-token-000000000', '10.0.0.2')?.status, 401);
  });

  it('refuses bad settings with a clear message', () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ CANOPY_METRICS_TOKEN: 'short' }, /CANOPY_METRICS_TOKEN: must be at least 16 characters/],
      [{ CANOPY_METRICS_TOKEN: 'has a space in it 0123' }, /CANOPY_METRICS_TOKEN: must be printable ASCII/],
      [{ CANOPY_METRICS_PORT: '8080' }, /CANOPY_METRICS_PORT: must differ from PORT/],
      [{ CANOPY_METRICS_HOST: '127.0.0.1' }, /CANOPY_METRICS_HOST: needs CANOPY_METRICS_PORT/],
    ];
    for (const [env, message] of bad) assert.throws(() => loadConfig({ NODE_ENV: 'test', ...env }), message);
    const config = loadConfig({ NODE_ENV: 'test', HOST: '10.1.2.3', CANOPY_METRICS_PORT: '9464' });
    assert.deepEqual(config.metrics, { token: undefined, listener: { port: 9464, host: '10.1.2.3' } });
  });
});
