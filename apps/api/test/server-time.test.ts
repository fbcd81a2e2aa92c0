import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { hostingMessages } from '@canopy/contract';
import { enforceServerTime } from '../src/scheduler/server-time.ts';
import { signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { waitForStatus } from './support/servers.ts';

const DAY = 24 * 3600 * 1000;

/** A session token valid at the test clock's current time (sessions last 15 minutes). */
const tokenNow = (api: TestApi, userId: string) => api.ctx.signer.sign(userId, 'clock-moved', api.clock.now);

describeEachDatabase(
  'server time, grace period and deletion',
  (api) => {
    it('gives new accounts the configured starting grant, which runs from the first server', async () => {
      const s = await signInRegistered(api());
      const before = await api().request('GET', `/users/${s.user.id}/profile`, { token: s.sessionToken });
      assert.equal(before.body.profile.availableSlot, 2);
      assert.equal(before.body.profile.estimatedExpiry, '');
      await api().request('POST', `/users/${s.user.id}/server`, {
        token: s.sessionToken,
        body: { serverName: `grant${process.pid % 1000}${api().dialect[0]}` },
      });
      const after = await api().request('GET', `/users/${s.user.id}/profile`, { token: s.sessionToken });
      assert.equal(Date.parse(after.body.profile.estimatedExpiry), api().clock.now + 3 * DAY);
    });

    it('stops the server when time runs out, then deletes it when the grace period ends', async () => {
      const s = await signInRegistered(api());
      const name = `exp${process.pid % 1000}${api().dialect[0]}`;
      await api().request('POST', `/users/${s.user.id}/server`, { token: s.sessionToken, body: { serverName: name } });
      await api().request('POST', `/users/${s.user.id}/server/${name}/start`, { token: s.sessionToken });
      await waitForStatus(api(), name, 'ONLINE');
      const server = await api().ctx.db.get<{ id: string }>('SELECT id FROM servers WHERE name = ?', [name]);
      const dataDir = join(api().ctx.config.dataDir, 'servers', server?.id ?? '');

      const t0 = api().clock.now;
      try {
        api().clock.now = t0 + 3 * DAY + 1000; // the 3 days of starting time are over
        await enforceServerTime(api().ctx);
        await waitForStatus(api(), name, 'OFFLINE');
        const profile = await api().request('GET', `/users/${s.user.id}/profile`, {
          token: tokenNow(api(), s.user.id),
        });
        assert.match(profile.body.profile.estimatedExpiry, /^Grace period ends \d{2}\/\d{2}\/\d{4}$/);
        const start = await api().request('POST', `/users/${s.user.id}/server/${name}/start`, {
          token: tokenNow(api(), s.user.id),
        });
        assert.equal(start.status, 403);
        assert.equal(start.body.error, hostingMessages.serverTimeExpired);

        api().clock.now = t0 + 5 * DAY; // inside the grace period: nothing more happens
        await enforceServerTime(api().ctx);
        assert.ok(existsSync(dataDir));

        api().clock.now = t0 + 6 * DAY + 2000; // grace over
        await enforceServerTime(api().ctx);
        assert.ok(!existsSync(dataDir), 'server data deleted');
        const gone = await api().request('GET', `/users/${s.user.id}/profile`, { token: tokenNow(api(), s.user.id) });
        assert.equal(gone.body.profile.serverOwned, 'No Server');
        // A new server would be deleted at the next round: refused, and nothing is taken.
        const again = await api().request('POST', `/users/${s.user.id}/server`, {
          token: tokenNow(api(), s.user.id),
          body: { serverName: `${name}b` },
        });
        assert.equal(again.status, 403);
        assert.equal(again.body.error, hostingMessages.serverTimeOverCreate);
        const slots = (await api().request('GET', `/users/${s.user.id}/profile`, { token: tokenNow(api(), s.user.id) }))
          .body.profile.availableSlot;
        assert.equal(slots, gone.body.profile.availableSlot);
        const logs = await api().ctx.db.all<{ action: string; actor_type: string }>(
          'SELECT action, actor_type FROM activity_logs WHERE details LIKE ? ORDER BY timestamp',
          [`${name}:%`],
        );
        assert.deepEqual(
          logs.map((l) => [l.action, l.actor_type]),
          [
            ['Server stopped (server time expired)', 'System'],
            ['Server deleted (grace period over)', 'System'],
          ],
        );
      } finally {
        api().clock.now = t0;
      }
    });

    it('leaves permanent accounts alone', async () => {
      const s = await signInRegistered(api());
      const name = `perm${process.pid % 1000}${api().dialect[0]}`;
      await api().request('POST', `/users/${s.user.id}/server`, { token: s.sessionToken, body: { serverName: name } });
      await api().ctx.db.run('UPDATE users SET server_permanent = 1 WHERE id = ?', [s.user.id]);
      const t0 = api().clock.now;
      try {
        api().clock.now = t0 + 30 * DAY;
        await enforceServerTime(api().ctx);
        const p = await api().request('GET', `/users/${s.user.id}/profile`, { token: tokenNow(api(), s.user.id) });
        assert.equal(p.body.profile.serverOwned, name);
        assert.equal(p.body.profile.estimatedExpiry, 'permanent');
      } finally {
        api().clock.now = t0;
      }
    });
  },
  { CANOPY_START_SLOTS: '2', CANOPY_START_SERVER_DAYS: '3', CANOPY_SCHEDULER_INTERVAL_MS: '3600000' },
);
