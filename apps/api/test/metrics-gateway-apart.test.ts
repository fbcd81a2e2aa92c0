// The standalone gateway (`npm run gateway`, apps/api/src/gateway/main.ts) serves its own /metrics on
// CANOPY_METRICS_PORT (ADR 0045): its sign-in counters and the process's own, none of the panel's.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dialects } from './support/databases.ts';
import { GATEWAY_ENV } from './support/gateway.ts';
import { startApi, type TestApi } from './support/harness.ts';
import { postLoginPage } from './support/login-host.ts';
import { families, sample, scrape } from './support/metrics.ts';

const root = new URL('../../../', import.meta.url).pathname;

for (const dialect of dialects) {
  describe(`a standalone gateway's /metrics [${dialect}]`, () => {
    let api: TestApi;
    let gateway: ChildProcess | undefined;
    let output = '';
    let ports = { tls: 0, metrics: 0 };

    before(async () => {
      api = await startApi(dialect, { ...GATEWAY_ENV, CANOPY_GATEWAY: 'off' });
      gateway = spawn(process.execPath, ['apps/api/src/gateway/main.ts'], {
        cwd: root,
        env: {
          ...process.env,
          ...GATEWAY_ENV,
          NODE_ENV: 'test',
          LOG_LEVEL: 'warn',
          HOST: '127.0.0.1',
          CANOPY_METRICS_PORT: '0',
          CANOPY_DATA_DIR: api.ctx.config.dataDir,
          DATABASE_URL: api.ctx.config.databaseUrl ?? '',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      for (const stream of [gateway.stdout, gateway.stderr])
        stream?.on('data', (d) => {
          output += d;
        });
      ports = await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no gateway start line:\n${output}`)), 30_000);
        gateway?.stdout?.on('data', () => {
          const m = /https on port (\d+)[^\n]*metrics on port (\d+)/.exec(output);
          if (!m) return;
          clearTimeout(timer);
          resolve({ tls: Number(m[1]), metrics: Number(m[2]) });
        });
        gateway?.on('exit', (code) => reject(new Error(`the gateway exited (${code}):\n${output}`)));
      });
    });

    after(async () => {
      if (gateway && gateway.exitCode === null) {
        const exited = new Promise((resolve) => gateway?.once('exit', resolve));
        gateway.kill('SIGTERM');
        await exited;
      }
      await api?.close();
    });

    it('counts its refusals there, beside the process metrics and without the panel', async () => {
      const url = `http://127.0.0.1:${ports.metrics}`;
      const before = await scrape(url);
      const names = families(before);
      assert.equal(names.get('canopy_gateway_refusals_total'), 'counter');
      assert.ok(names.has('nodejs_eventloop_lag_p99_seconds'));
      assert.ok(!names.has('canopy_http_request_duration_seconds'), "the panel's metrics are the panel's");

      const ca = readFileSync(join(api.ctx.config.dataDir, 'gateway-tls', 'cert.pem'), 'utf8');
      const page = await postLoginPage(
        `https://localhost:${ports.tls}/player/growid/login/validate`,
        { server: 'nosuchserver', growId: 'Sprout', password: 'secret123' },
        ca,
      );
      assert.equal(page.status, 200);
      const reason = { reason: 'unknown_server' };
      assert.equal(
        sample(await scrape(url), 'canopy_gateway_refusals_total', reason),
        sample(before, 'canopy_gateway_refusals_total', reason) + 1,
      );
    });
  });
}
