import assert from 'node:assert/strict';
import { it } from 'node:test';
import Stripe from 'stripe';
import { consoleOf, openSocket } from './support/console-socket.ts';
import { signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { fetchMetrics, METRICS_TOKEN, sample, scrape } from './support/metrics.ts';
import { waitForStatus } from './support/servers.ts';
import { until, untilValue } from './support/until.ts';

// GET /metrics on the panel's port behind CANOPY_METRICS_TOKEN (ADR 0045), and the metrics moving with what the
// api does. The separate listener and the gateway's counters: metrics-port.test.ts.

const STRIPE_SECRET = 'whsec_metrics_test_secret';
const read = (api: TestApi) => scrape(api.url, METRICS_TOKEN);

describeEachDatabase(
  'GET /metrics with a token',
  (api) => {
    it('answers 401 with a JSON error without the token or with a wrong one, and the exposition with it', async () => {
      const attempts: Record<string, string>[] = [
        {},
        { authorization: 'Bearer wrong-token-0123456789' },
        { authorization: METRICS_TOKEN },
      ];
      for (const headers of attempts) {
        const res = await fetch(`${api().url}/metrics`, { headers });
        assert.equal(res.status, 401, JSON.stringify(headers));
        assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer\b/);
        const body = await res.json();
        assert.equal(body.code, 'metrics_unauthorized');
        assert.match(body.error, /CANOPY_METRICS_TOKEN/);
      }
      const ok = await fetchMetrics(api().url, METRICS_TOKEN);
      assert.equal(ok.status, 200);
      assert.equal(ok.challenge, null);
      assert.match(ok.type, /^text\/plain; version=0\.0\.4/);
      assert.match(ok.text, /^# TYPE canopy_http_request_duration_seconds histogram$/m);
      // The process's own, from prom-client's default collectors.
      assert.match(ok.text, /^nodejs_eventloop_lag_p99_seconds \d/m);
      assert.match(ok.text, /^process_cpu_seconds_total \d/m);
    });

    it("times a request under its route's pattern and status class, never its URL", async () => {
      const labels = { method: 'GET', route: '/users/:id/profile', status_class: '4xx' };
      const before = sample(await read(api()), 'canopy_http_request_duration_seconds_count', labels);
      const id = '123456789012345678';
      assert.equal((await api().request('GET', `/users/${id}/profile`)).status, 401);
      const text = await read(api());
      assert.equal(sample(text, 'canopy_http_request_duration_seconds_count', labels), before + 1);
      assert.ok(!text.includes(id), 'no raw URL or id in a label');
    });

    it('counts an engine start, shows the server ONLINE, delivers console lines and counts open sockets', async () => {
      const owner = await signInRegistered(api());
      const name = `met${process.pid % 10000}${api().dialect[0]}`;
      const token = owner.sessionToken;
      assert.equal(
        (await api().request('POST', `/users/${owner.user.id}/server`, { token, body: { serverName: name } })).status,
        201,
      );
      const before = await read(api());
      assert.equal(sample(before, 'canopy_websockets_open'), 0);
      await api().request('POST', `/users/${owner.user.id}/server/${name}/start`, { token });
      await waitForStatus(api(), name, 'ONLINE');
      const started = await read(api());
      assert.equal(sample(started, 'canopy_engine_starts_total'), sample(before, 'canopy_engine_starts_total') + 1);
      assert.equal(
        sample(started, 'canopy_servers', { status: 'ONLINE' }),
        sample(before, 'canopy_servers', { status: 'ONLINE' }) + 1,
      );
      assert.equal(
        sample(started, 'canopy_servers', { status: 'OFFLINE' }),
        sample(before, 'canopy_servers', { status: 'OFFLINE' }) - 1,
      );

      const c = await consoleOf(api(), owner.user.id, token);
      const other = await openSocket(api(), owner.user.id, token);
      // Counted once signed in, which the client's open does not wait for.
      await untilValue(
        async () => (sample(await read(api()), 'canopy_websockets_open') === 2 ? true : undefined),
        'two sockets counted',
      );
      const delivered = sample(await read(api()), 'canopy_console_lines_delivered_total');
      c.send('say counted');
      await until(() => c.lines().some((l) => /\[SERVER\] counted/.test(l)), 'the say');
      // At least the echoed command and the engine's line, each to this one subscriber.
      assert.ok(sample(await read(api()), 'canopy_console_lines_delivered_total') >= delivered + 2);
      c.ws.close();
      other.ws.close();
      await untilValue(
        async () => (sample(await read(api()), 'canopy_websockets_open') === 0 ? true : undefined),
        'the sockets closed',
      );

      // A backup of the running server records how long it took.
      const count = (text: string) => sample(text, 'canopy_backup_duration_seconds_count', { action: 'create' });
      const beforeBackup = count(await read(api()));
      const created = await api().request('POST', `/users/${owner.user.id}/server/backup`, { token });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const afterBackup = await read(api());
      assert.equal(count(afterBackup), beforeBackup + 1);
      assert.ok(sample(afterBackup, 'canopy_backup_duration_seconds_sum', { action: 'create' }) > 0);
      // A refusal (a second backup) is not a failure.
      assert.equal((await api().request('POST', `/users/${owner.user.id}/server/backup`, { token })).status, 409);
      assert.equal(sample(await read(api()), 'canopy_backup_failures_total', { action: 'create' }), 0);
    });

    it('counts payment webhook outcomes', async () => {
      const outcome = async (o: string) => sample(await read(api()), 'canopy_payment_webhooks_total', { outcome: o });
      const [badBefore, ignoredBefore] = [await outcome('bad_signature'), await outcome('ignored')];
      const payload = JSON.stringify({ id: 'evt_metrics_1', object: 'event', type: 'customer.created', data: {} });
      const post = (signature: string) =>
        fetch(`${api().url}/payments/stripe/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': signature },
          body: payload,
        });
      assert.equal((await post('t=1,v1=forged')).status, 400);
      const signed = Stripe.webhooks.generateTestHeaderString({
        payload,
        secret: STRIPE_SECRET,
        timestamp: Math.floor(api().clock.now / 1000),
      });
      assert.equal((await post(signed)).status, 200);
      assert.equal(await outcome('bad_signature'), badBefore + 1);
      assert.equal(await outcome('ignored'), ignoredBefore + 1);
    });

    it('counts scheduler runs by task', async () => {
      // The scheduler's first pass runs at start; its jobs are counted as they finish.
      const runs = await untilValue(async () => {
        const n = sample(await read(api()), 'canopy_scheduler_runs_total', { task: 'storage', outcome: 'ok' });
        return n >= 1 ? n : undefined;
      }, 'a storage run');
      const text = await read(api());
      assert.ok(sample(text, 'canopy_scheduler_runs_total', { task: 'server_time', outcome: 'ok' }) >= runs);
      assert.ok(sample(text, 'canopy_scheduler_run_duration_seconds_count', { task: 'storage' }) >= runs);
    });
  },
  { CANOPY_METRICS_TOKEN: METRICS_TOKEN, STRIPE_WEBHOOK_SECRET: STRIPE_SECRET },
);
