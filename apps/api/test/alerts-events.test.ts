import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { warnExpiry } from '../src/alerts/expiry-alerts.ts';
import { ServerEventAlerts } from '../src/alerts/server-events.ts';
import { enforceServerTime } from '../src/scheduler/server-time.ts';
import { ownerWithServer } from './support/factories.ts';
import { FakeDiscordWebhooks } from './support/fake-discord-webhooks.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { sql, waitForStatus } from './support/servers.ts';
import { until, untilValue } from './support/until.ts';

const HOUR = 3600_000;
const hooks = await new FakeDiscordWebhooks().start();
after(() => hooks.stop());

type Session = Awaited<ReturnType<typeof ownerWithServer>>;
const server = (api: TestApi, s: Session, method: string, path = '', body?: unknown) =>
  api.request(method, `/users/${s.user.id}/server${path}`, { token: s.sessionToken, body });

/** The embed titles the webhook at `url` received, in order. */
const titlesAt = (url: string) => hooks.postsTo(url).map((p) => p.body.embeds[0].title as string);

let nextId = 5000;
async function ownerWithHook(api: TestApi, tag: string, events: string[]) {
  const name = `ev${tag}${api.dialect[0]}${process.pid % 1000}`;
  const owner = await ownerWithServer(api, name);
  const url = hooks.webhook(`${process.pid}${nextId++}`);
  assert.equal((await server(api, owner, 'PUT', '/alerts', { url, events })).status, 200);
  return { owner, url, name };
}

describeEachDatabase(
  'Discord alerts from events',
  (api) => {
    it('warns once 24 h and once 1 h before the server time ends, then at the grace period and the deletion', async () => {
      const { owner, url, name } = await ownerWithHook(api(), 'x', ['time_24h', 'time_1h', 'grace_started', 'deleted']);
      const setExpiry = (at: number) =>
        sql(api(), 'UPDATE users SET server_permanent = 0, server_expires_at = ? WHERE id = ?', [at, owner.user.id]);
      await setExpiry(api().clock.now + 20 * HOUR);
      await warnExpiry(api().ctx);
      await warnExpiry(api().ctx);
      await until(() => titlesAt(url).length === 1, 'the 24 h warning');
      assert.deepEqual(titlesAt(url), [`Server time ends in 24 hours: ${name}`]);

      await setExpiry(api().clock.now + HOUR / 2);
      await warnExpiry(api().ctx);
      await warnExpiry(api().ctx);
      await until(() => titlesAt(url).length === 2, 'the 1 h warning');
      assert.equal(titlesAt(url)[1], `Server time ends in 1 hour: ${name}`);

      await setExpiry(api().clock.now - 1000);
      await sql(api(), "UPDATE servers SET desired_state = 'running' WHERE owner_id = ?", [owner.user.id]);
      await enforceServerTime(api().ctx);
      await until(() => titlesAt(url).length === 3, 'the grace period alert');
      assert.equal(titlesAt(url)[2], `Grace period started: ${name}`);

      // Deleted: the hook goes with the server, the alert queued in the same transaction still arrives.
      assert.equal((await server(api(), owner, 'DELETE')).status, 200);
      await until(() => titlesAt(url).length === 4, 'the deletion alert');
      assert.equal(titlesAt(url)[3], `Server deleted: ${name}`);
      assert.match(hooks.postsTo(url)[3]?.body.embeds[0].description, /deleted by its owner/);
      assert.equal(
        (await api().ctx.db.all('SELECT * FROM server_alert_hooks WHERE server_id NOT IN (SELECT id FROM servers)'))
          .length,
        0,
      );
    });

    it('turns runtime reports into alerts: a crash with its last lines (no "stopped" after it), a crash loop, player peaks', async () => {
      const { owner, url, name } = await ownerWithHook(api(), 'r', [
        'started',
        'stopped',
        'crashed',
        'crash_loop',
        'player_peak',
      ]);
      const row = await api().ctx.db.get<{ id: string }>('SELECT id FROM servers WHERE owner_id = ?', [owner.user.id]);
      const id = row?.id ?? '';
      // The registry's own instance reacts to real engines; this one is fed the reports a runtime sends.
      const alerts = new ServerEventAlerts({ db: api().ctx.db, now: api().ctx.now });
      alerts.status(id, name, 'ONLINE', 0); // re-adopted after an api restart: not a start
      alerts.status(id, name, 'STARTING', 0);
      alerts.status(id, name, 'ONLINE', 0);
      await until(() => titlesAt(url).length === 1, 'the start');
      alerts.status(id, name, 'ONLINE', 2);
      await until(() => titlesAt(url).length === 2, 'the first peak');
      alerts.status(id, name, 'ONLINE', 1);
      alerts.status(id, name, 'ONLINE', 2); // not above the stored peak
      alerts.crash(id, name, true, 'exit code 1', ['loading worlds', '@everyone boom']);
      alerts.status(id, name, 'OFFLINE', 0);
      alerts.status(id, name, 'RESTARTING', 0);
      await until(() => titlesAt(url).length === 3, 'the crash');
      alerts.crash(id, name, false, 'exit code 1', ['boom again']);
      alerts.status(id, name, 'OFFLINE', 0);
      await until(() => titlesAt(url).length === 4, 'the crash loop');
      // Whatever was queued has gone out: a "stopped" after the crashes would be a fifth.
      await untilValue(
        async () =>
          (await api().ctx.db.all('SELECT id FROM alert_queue WHERE server_id = ?', [id])).length === 0
            ? true
            : undefined,
        'the queue empty',
      );
      assert.deepEqual(titlesAt(url), [
        `Server started: ${name}`,
        `New player peak: ${name}`,
        `Server crashed: ${name}`,
        `Crash loop: left offline: ${name}`,
      ]);
      const crash = hooks.postsTo(url)[2]?.body;
      assert.match(crash.embeds[0].description, /exit code 1[\s\S]*```\nloading worlds\n@everyone boom\n```$/);
      assert.deepEqual(crash.allowed_mentions, { parse: [] }, 'a console line pings nobody');
      assert.match(hooks.postsTo(url)[1]?.body.embeds[0].description, /^2 players online/);
      const stored = await api().ctx.db.get<{ peak_players: number }>(
        'SELECT peak_players FROM server_alert_hooks WHERE server_id = ?',
        [id],
      );
      assert.equal(Number(stored?.peak_players), 2);
    });

    it('tells the webhook a start, a backup and a stop, and nothing it did not ask for', async () => {
      const { owner, url, name } = await ownerWithHook(api(), 'e', ['started', 'stopped', 'backup_done']);
      assert.equal((await server(api(), owner, 'POST', `/${name}/start`)).status, 202);
      await waitForStatus(api(), name, 'ONLINE');
      await until(() => titlesAt(url).length === 1, 'the start alert');
      assert.deepEqual(hooks.postsTo(url)[0]?.body.embeds[0], {
        title: `Server started: ${name}`,
        description: `${name} is online.`,
        color: 0x2ecc71,
        timestamp: hooks.postsTo(url)[0]?.body.embeds[0].timestamp,
      });
      assert.equal((await server(api(), owner, 'POST', '/backup')).status, 200);
      await until(() => titlesAt(url).length === 2, 'the backup alert');
      assert.equal(titlesAt(url)[1], `Backup done: ${name}`);
      assert.equal((await server(api(), owner, 'POST', `/${name}/stop`)).status, 202);
      await waitForStatus(api(), name, 'OFFLINE');
      await until(() => titlesAt(url).length === 3, 'the stop alert');
      assert.equal(titlesAt(url)[2], `Server stopped: ${name}`);
      // Player peaks, crashes: not asked for, so none queued. A sent row leaves the queue just after Discord's
      // answer, so wait for the queue to drain; anything else queued would by then have reached the webhook.
      await untilValue(
        async () => ((await api().ctx.db.all('SELECT id FROM alert_queue')).length === 0 ? true : undefined),
        'the queue to drain',
      );
      assert.equal(titlesAt(url).length, 3, `only what was asked for: ${JSON.stringify(titlesAt(url))}`);
    });
  },
  { CANOPY_ALERT_WEBHOOK_BASE: hooks.base, CANOPY_ALERT_INTERVAL_MS: '20' },
);
