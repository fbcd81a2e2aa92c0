import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { defaultSettings, hostingMessages as m } from '@canopy/contract';
import { signIn, signInRegistered } from './support/factories.ts';
import { describeEachDatabase } from './support/harness.ts';
import { sql, waitForStatus } from './support/servers.ts';

const ADMIN = '177777777777777777';
let seq = 0;
const uniqueName = () => `srv${process.pid % 1000}x${++seq}`;

describeEachDatabase(
  'server lifecycle',
  (api) => {
    const create = (s: { sessionToken: string; user: { id: string } }, serverName: unknown) =>
      api().request('POST', `/users/${s.user.id}/server`, { token: s.sessionToken, body: { serverName } });
    const act = (s: { sessionToken: string; user: { id: string } }, server: string, action: string) =>
      api().request('POST', `/users/${s.user.id}/server/${server}/${action}`, { token: s.sessionToken });

    it('validates the server name with the spec messages and changes nothing', async () => {
      const s = await signInRegistered(api());
      for (const [name, message] of [
        ['', m.serverNameRequired],
        ['ab', m.serverNameLength],
        ['x'.repeat(21), m.serverNameLength],
        ['bad name!', m.serverNameChars],
      ] as const) {
        const res = await create(s, name);
        assert.equal(res.status, 400, name);
        assert.equal(res.body.error, message);
      }
      assert.equal((await create(s, undefined)).body.error, m.serverNameRequired);
      const profile = await api().request('GET', `/users/${s.user.id}/profile`, { token: s.sessionToken });
      assert.equal(profile.body.profile.serverOwned, 'No Server');
      assert.equal(profile.body.profile.availableSlot, 1);
    });

    it('creates one server per user from a slot, with unique and allowed names', async () => {
      const s = await signInRegistered(api());
      const name = uniqueName();
      const res = await create(s, name);
      assert.equal(res.status, 201);
      assert.equal(res.body.message, m.created(name));
      const profile = await api().request('GET', `/users/${s.user.id}/profile`, { token: s.sessionToken });
      assert.equal(profile.body.profile.serverOwned, name);
      assert.equal(profile.body.profile.availableSlot, 0);
      assert.notEqual(profile.body.profile.estimatedExpiry, '', 'the starting server time began');

      const second = await create(s, uniqueName());
      assert.equal(second.status, 409);
      assert.equal(second.body.error, m.alreadyOwnsServer);

      const other = await signInRegistered(api());
      const taken = await create(other, name.toUpperCase());
      assert.equal(taken.status, 409);
      assert.equal(taken.body.error, m.serverNameTaken);

      await sql(
        api(),
        "INSERT INTO banned_server_names (name_key, name, created_at) VALUES ('forbidden1', 'Forbidden1', 0)",
      );
      const banned = await create(other, 'FORBIDDEN1');
      assert.equal(banned.status, 400);
      assert.equal(banned.body.error, m.serverNameBanned);

      await sql(api(), 'UPDATE users SET available_slot = 0 WHERE id = ?', [other.user.id]);
      const noSlot = await create(other, uniqueName());
      assert.equal(noSlot.status, 403);
      assert.equal(noSlot.body.error, m.noSlots);
      const feed = await api().request('GET', '/status');
      assert.equal(feed.body.hostedServers.filter((h: { name: string }) => h.name === name).length, 1);
    });

    it("refuses acting for someone else's id", async () => {
      const a = await signInRegistered(api());
      const b = await signInRegistered(api());
      const res = await api().request('POST', `/users/${b.user.id}/server`, {
        token: a.sessionToken,
        body: { serverName: uniqueName() },
      });
      assert.equal(res.status, 403);
      assert.equal(
        (await api().request('DELETE', `/users/${b.user.id}/server`, { token: a.sessionToken })).status,
        403,
      );
      assert.equal(
        (await api().request('POST', `/users/${b.user.id}/server`, { body: { serverName: 'abc' } })).status,
        401,
      );
    });

    it('honours disableServerCreation for users while admins bypass it', async () => {
      const admin = await signInRegistered(api(), { id: ADMIN });
      await api().request('POST', '/admin/settings', {
        token: admin.sessionToken,
        body: { ...defaultSettings, disableServerCreation: true },
      });
      try {
        const user = await signInRegistered(api());
        const res = await create(user, uniqueName());
        assert.equal(res.status, 403);
        assert.equal(res.body.error, m.creationDisabled);
        assert.equal((await create(admin, uniqueName())).status, 201);
      } finally {
        await api().request('POST', '/admin/settings', { token: admin.sessionToken, body: defaultSettings });
      }
    });

    it('starts, refuses a second action while one runs, stops, restarts and deletes a real engine', async () => {
      const s = await signInRegistered(api());
      const name = uniqueName();
      await create(s, name);

      const start = await act(s, name, 'start');
      assert.equal(start.status, 202);
      assert.equal(start.body.message, m.actionSucceeded('start'));
      assert.equal(start.body.server.status, 'STARTING');
      const during = await act(s, name, 'stop');
      assert.equal(during.status, 409);
      assert.equal(during.body.error, m.actionInProgress);

      const online = await waitForStatus(api(), name, 'ONLINE');
      assert.notEqual(online.version, 'N/A');
      const again = await act(s, name, 'start');
      assert.equal(again.status, 409);
      assert.equal(again.body.error, m.alreadyRunning);

      assert.equal((await act(s, name, 'restart')).status, 202);
      await waitForStatus(api(), name, 'ONLINE');

      assert.equal((await act(s, name, 'stop')).status, 202);
      await waitForStatus(api(), name, 'OFFLINE');
      const stopped = await act(s, name, 'stop');
      assert.equal(stopped.status, 409);
      assert.equal(stopped.body.error, m.notRunning);

      const server = await api().ctx.db.get<{ id: string }>('SELECT id FROM servers WHERE name = ?', [name]);
      const dataDir = join(api().ctx.config.dataDir, 'servers', server?.id ?? '');
      assert.ok(existsSync(dataDir), 'the engine wrote its data directory');

      assert.equal((await act(s, name, 'start')).status, 202);
      await waitForStatus(api(), name, 'ONLINE');
      const del = await api().request('DELETE', `/users/${s.user.id}/server`, { token: s.sessionToken });
      assert.equal(del.status, 200);
      assert.equal(del.body.message, m.deleted);
      assert.ok(!existsSync(dataDir), 'the data is gone');
      const feed = await api().request('GET', '/status');
      assert.equal(
        feed.body.hostedServers.some((h: { name: string }) => h.name === name),
        false,
      );
      const profile = await api().request('GET', `/users/${s.user.id}/profile`, { token: s.sessionToken });
      assert.equal(profile.body.profile.availableSlot, 1, 'the slot came back');
      const again404 = await api().request('DELETE', `/users/${s.user.id}/server`, { token: s.sessionToken });
      assert.equal(again404.status, 404);
      assert.equal(again404.body.error, m.noServer);

      const logs = await api().ctx.db.all<{ action: string }>(
        'SELECT action FROM activity_logs WHERE details LIKE ? ORDER BY timestamp',
        [`${name}%`],
      );
      assert.deepEqual(
        logs.map((l) => l.action),
        ['Server created', 'Server start', 'Server restart', 'Server stop', 'Server start', 'Server deleted'],
      );
    });

    it('refuses start when storage is full, server time is over, actions are disabled or the user is banned', async () => {
      const s = await signInRegistered(api());
      const name = uniqueName();
      await create(s, name);

      await sql(api(), 'UPDATE users SET storage_limit_mb = 0 WHERE id = ?', [s.user.id]);
      const full = await act(s, name, 'start');
      assert.equal(full.status, 409);
      assert.equal(full.body.error, m.storageFull);
      await sql(api(), 'UPDATE users SET storage_limit_mb = 256, server_expires_at = ? WHERE id = ?', [
        api().clock.now - 1000,
        s.user.id,
      ]);
      const expired = await act(s, name, 'start');
      assert.equal(expired.status, 403);
      assert.equal(expired.body.error, m.serverTimeExpired);
      await sql(api(), 'UPDATE users SET server_permanent = 1 WHERE id = ?', [s.user.id]);

      const admin = await signIn(api(), { id: ADMIN });
      await api().request('POST', '/admin/settings', {
        token: admin.sessionToken,
        body: { ...defaultSettings, disableServerActions: true },
      });
      const disabled = await act(s, name, 'start');
      await api().request('POST', '/admin/settings', { token: admin.sessionToken, body: defaultSettings });
      assert.equal(disabled.status, 403);
      assert.equal(disabled.body.error, m.actionsDisabled);

      await sql(api(), "UPDATE users SET is_banned = 1, ban_reason = 'griefing' WHERE id = ?", [s.user.id]);
      const banned = await act(s, name, 'start');
      assert.equal(banned.status, 403);
      assert.equal(banned.body.error, m.bannedActions);
      assert.equal((await act(s, 'not-my-server', 'start')).status, 403, 'banned users are refused first');
      await sql(api(), 'UPDATE users SET is_banned = 0 WHERE id = ?', [s.user.id]);
      assert.equal((await act(s, 'not-my-server', 'start')).status, 404);
      assert.equal((await act(s, name, 'explode')).status, 404);
      const feed = await api().request('GET', '/status');
      assert.equal(feed.body.hostedServers.find((h: { name: string }) => h.name === name).status, 'OFFLINE');
    });
  },
  { CANOPY_SUPER_ADMINS: ADMIN },
);
