import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import {
  adminServerMessages,
  adminServersPageSchema,
  defaultSettings,
  hostingMessages as m,
  messages,
} from '@canopy/contract';
import type { NoticeEvent } from '../src/events/bus.ts';
import { settingsRepo } from '../src/settings/settings.repo.ts';
import { accessCallers } from './support/admin-servers.ts';
import { addCollaborator, ownerWithServer, signIn, signInAdmin } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { sql, waitForStatus } from './support/servers.ts';

let seq = 0;
const uniqueName = (prefix = 'adm') => `${prefix}${process.pid % 1000}x${++seq}`;

const serverRow = (api: TestApi, name: string) =>
  api.ctx.db.get<{ id: string; desired_state: string; owner_id: string }>(
    'SELECT id, desired_state, owner_id FROM servers WHERE name = ?',
    [name],
  );
const activityCount = async (api: TestApi) =>
  Number((await api.ctx.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM activity_logs'))?.n);

describeEachDatabase('admin servers', (api) => {
  const act = (token: string | undefined, name: string, action: string) =>
    api().request('POST', `/admin/servers/${name}/${action}`, { token });
  const list = (token: string | undefined, query = '') => api().request('GET', `/admin/all-servers${query}`, { token });
  const remove = (token: string | undefined, name: string) =>
    api().request('DELETE', `/admin/servers/${name}`, { token });

  it('decides access to the servers list before anything else', async () => {
    const c = await accessCallers(api(), 'servers:view');
    assert.equal((await list(c.signedOut)).status, 401);
    const plain = await list(c.plainUser);
    assert.equal(plain.status, 403);
    assert.equal(plain.body.error, messages.adminOnly);
    const without = await list(c.adminWithout);
    assert.equal(without.status, 403);
    assert.equal(without.body.error, messages.missingPermission);
    for (const token of [c.withPermission, c.superAdmin]) {
      const res = await list(token);
      assert.equal(res.status, 200);
      adminServersPageSchema.parse(res.body);
    }
  });

  it('refuses power actions and deletes to callers without the permission, changing nothing', async () => {
    const owner = await ownerWithServer(api(), uniqueName());
    const name = (
      await api().ctx.db.get<{ name: string }>('SELECT name FROM servers WHERE owner_id = ?', [owner.user.id])
    )?.name as string;
    const manage = await accessCallers(api(), 'servers:manage');
    const del = await accessCallers(api(), 'servers:delete');
    const before = await activityCount(api());
    for (const action of ['start', 'stop', 'restart']) {
      assert.equal((await act(manage.signedOut, name, action)).status, 401);
      for (const token of [manage.plainUser, manage.adminWithout, manage.viewOnly, del.withPermission])
        assert.equal((await act(token, name, action)).status, 403, `${action} refused`);
    }
    assert.equal((await remove(del.signedOut, name)).status, 401);
    for (const token of [del.plainUser, del.adminWithout, del.viewOnly, manage.withPermission])
      assert.equal((await remove(token, name)).status, 403);
    const row = await serverRow(api(), name);
    assert.equal(row?.desired_state, 'stopped', 'no action went ahead');
    assert.equal((await waitForStatus(api(), name, 'OFFLINE')).status, 'OFFLINE');
    assert.equal(await activityCount(api()), before, 'nothing was logged');

    // Allowed callers get past the permission check: an unknown server is what stops them.
    for (const token of [manage.withPermission, manage.superAdmin]) {
      const res = await act(token, 'nosuchserver', 'start');
      assert.equal(res.status, 404);
      assert.equal(res.body.error, m.serverNotFound);
    }
    for (const token of [del.withPermission, del.superAdmin]) {
      const res = await remove(token, 'nosuchserver');
      assert.equal(res.status, 404);
      assert.equal(res.body.error, m.serverNotFound);
    }
    const unknown = await act(manage.superAdmin, name, 'explode');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error, adminServerMessages.unknownAction('explode'));
  });

  it('searches by server name or owner GrowID in any case, pages by 10, and escapes wildcards', async () => {
    const admin = await signInAdmin(api(), ['servers:view']);
    const prefix = `pg${process.pid % 1000}q${++seq}`;
    const owners: { id: string; growId: string; name: string }[] = [];
    for (let i = 0; i < 12; i++) {
      const id = `${prefix}owner${i}`;
      const growId = `Grower${prefix}${i}`;
      const name = `${prefix}_s${String(i).padStart(2, '0')}`;
      await sql(api(), 'INSERT INTO users (id, username, grow_id, grow_id_key, created_at) VALUES (?, ?, ?, ?, ?)', [
        id,
        `u${i}`,
        growId,
        growId.toLowerCase(),
        api().clock.now,
      ]);
      await sql(
        api(),
        'INSERT INTO servers (id, owner_id, name, name_key, game_port, control_secret, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [`${prefix}id${i}`, id, name, name.toLowerCase(), 41000 + (process.pid % 100) * 20 + i, '', 1000 + i],
      );
      owners.push({ id, growId, name });
    }
    const first = await list(admin.sessionToken, `?search=${prefix.toUpperCase()}_S`);
    assert.equal(first.status, 200);
    assert.equal(first.body.total, 12);
    assert.equal(first.body.pageSize, 10);
    assert.deepEqual(
      first.body.items.map((s: { name: string }) => s.name),
      owners.slice(0, 10).map((o) => o.name),
    );
    assert.deepEqual(first.body.items[0], {
      name: owners[0]?.name,
      ownerId: owners[0]?.id,
      ownerGrowId: owners[0]?.growId,
      status: 'OFFLINE',
      players: 0,
      createdAt: new Date(1000).toISOString(),
    });
    const second = await list(admin.sessionToken, `?search=${prefix}_s&page=2`);
    assert.equal(second.body.page, 2);
    assert.equal(second.body.total, 12);
    assert.deepEqual(
      second.body.items.map((s: { name: string }) => s.name),
      owners.slice(10).map((o) => o.name),
    );
    const byOwner = await list(admin.sessionToken, `?search=${owners[7]?.growId.toLowerCase()}`);
    assert.deepEqual(
      byOwner.body.items.map((s: { name: string }) => s.name),
      [owners[7]?.name],
    );
    assert.equal(byOwner.body.total, 1);
    // LIKE's own wildcards are text: '%' matches no name, '_' only names that contain one.
    assert.equal((await list(admin.sessionToken, '?search=%25')).body.total, 0);
    assert.equal((await list(admin.sessionToken, `?search=${prefix}%25s`)).body.total, 0);
    assert.equal((await list(admin.sessionToken, `?search=${prefix}_`)).body.total, 12);
    assert.equal((await list(admin.sessionToken, `?search=${prefix}xs`)).body.total, 0);
    const past = await list(admin.sessionToken, `?search=${prefix}&page=3`);
    assert.deepEqual([past.body.items, past.body.total], [[], 12]);
    const bad = await list(admin.sessionToken, '?page=0');
    assert.equal(bad.status, 400);
    assert.match(bad.body.error, /page must be 1 or more/);
    const all = await list(admin.sessionToken);
    assert.ok(all.body.total >= 12);
    assert.equal(all.body.items.length, 10);
  });

  it('starts, restarts and stops a real engine as its owner would, with live status and Admin entries', async () => {
    const owner = await ownerWithServer(api(), uniqueName());
    const name = (
      await api().ctx.db.get<{ name: string }>('SELECT name FROM servers WHERE owner_id = ?', [owner.user.id])
    )?.name as string;
    const admin = await signInAdmin(api(), ['servers:view', 'servers:manage', 'dashboard:view']);
    const adminName = (
      await api().ctx.db.get<{ username: string }>('SELECT username FROM users WHERE id = ?', [admin.user.id])
    )?.username;
    const stats0 = (await api().request('GET', '/admin/stats', { token: admin.sessionToken })).body;
    // Admins bypass the feature switch, as everywhere else.
    await settingsRepo.save(api().ctx.db, { ...defaultSettings, disableServerActions: true });
    const start = await act(admin.sessionToken, name, 'start');
    assert.equal(start.status, 202);
    assert.deepEqual(start.body, { message: m.actionSucceeded('start') });
    const during = await act(admin.sessionToken, name, 'stop');
    assert.equal(during.status, 409, 'the same power lock as the owner');
    assert.equal(during.body.error, m.actionInProgress);
    await waitForStatus(api(), name, 'ONLINE');
    const owned = await act(admin.sessionToken, name, 'start');
    assert.equal(owned.status, 409);
    assert.equal(owned.body.error, m.alreadyRunning);

    const row = (await list(admin.sessionToken, `?search=${name}`)).body.items[0];
    assert.equal(row.status, 'ONLINE');
    assert.equal(row.players, 0);
    const stats1 = (await api().request('GET', '/admin/stats', { token: admin.sessionToken })).body;
    assert.equal(stats1.onlineServers, stats0.onlineServers + 1);
    assert.equal(stats1.activePlayers, 0);

    assert.equal((await act(admin.sessionToken, name, 'restart')).status, 202);
    await waitForStatus(api(), name, 'ONLINE');
    // A banned owner's server is not brought back up by an admin; stopping it is how a ban is enforced.
    await sql(api(), "UPDATE users SET is_banned = 1, ban_reason = 'x' WHERE id = ?", [owner.user.id]);
    const refused = await act(admin.sessionToken, name, 'restart');
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, adminServerMessages.ownerBanned);
    assert.equal((await act(admin.sessionToken, name, 'stop')).status, 202);
    await waitForStatus(api(), name, 'OFFLINE');
    assert.equal((await serverRow(api(), name))?.desired_state, 'stopped');
    assert.equal((await act(admin.sessionToken, name, 'start')).body.error, adminServerMessages.ownerBanned);
    await sql(api(), 'UPDATE users SET is_banned = 0 WHERE id = ?', [owner.user.id]);
    await settingsRepo.save(api().ctx.db, defaultSettings);

    // The owner's storage and server time rules hold for an admin too.
    await sql(api(), 'UPDATE users SET storage_limit_mb = 0 WHERE id = ?', [owner.user.id]);
    const full = await act(admin.sessionToken, name, 'start');
    assert.equal(full.status, 409);
    assert.equal(full.body.error, m.storageFull);
    await sql(api(), 'UPDATE users SET storage_limit_mb = 256, server_expires_at = ? WHERE id = ?', [
      api().clock.now - 1000,
      owner.user.id,
    ]);
    const expired = await act(admin.sessionToken, name, 'start');
    assert.equal(expired.status, 403);
    assert.equal(expired.body.error, m.serverTimeExpired);
    assert.equal((await waitForStatus(api(), name, 'OFFLINE')).status, 'OFFLINE');

    const logs = await api().ctx.db.all<{ action: string; actor_type: string; actor_name: string }>(
      'SELECT action, actor_type, actor_name FROM activity_logs WHERE details = ? ORDER BY timestamp',
      [name],
    );
    assert.deepEqual(
      logs.filter((l) => l.actor_type === 'Admin').map((l) => [l.action, l.actor_name]),
      [
        ['Server start', adminName],
        ['Server restart', adminName],
        ['Server stop', adminName],
      ],
    );
  });

  it('deletes any server as the owner would, gives the slot back and tells owner and collaborators', async () => {
    const name = uniqueName();
    const owner = await ownerWithServer(api(), name);
    const helper = await signIn(api());
    await addCollaborator(api(), owner.user.id, helper.user.id, ['server:actions']);
    const id = (await serverRow(api(), name))?.id as string;
    const admin = await signInAdmin(api(), ['servers:delete']);
    const notices: NoticeEvent[] = [];
    const onNotice = (n: NoticeEvent) => notices.push(n);
    api().ctx.bus.on('notice', onNotice);
    try {
      const res = await remove(admin.sessionToken, name.toUpperCase());
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { message: adminServerMessages.deleted(name) });
    } finally {
      api().ctx.bus.off('notice', onNotice);
    }
    assert.deepEqual(notices, [{ name, kind: 'deleted', audience: [owner.user.id, helper.user.id] }]);
    assert.equal(await serverRow(api(), name), undefined);
    assert.ok(!existsSync(join(api().ctx.config.dataDir, 'servers', id)));
    const feed = await api().request('GET', '/status');
    assert.equal(
      feed.body.hostedServers.some((h: { name: string }) => h.name === name),
      false,
    );
    const profile = await api().request('GET', `/users/${owner.user.id}/profile`, { token: owner.sessionToken });
    assert.equal(profile.body.profile.availableSlot, 1, 'the slot came back');
    assert.equal(profile.body.profile.serverOwned, 'No Server');
    const logged = await api().ctx.db.get<{ actor_type: string }>(
      "SELECT actor_type FROM activity_logs WHERE action = 'Server deleted' AND details = ?",
      [name],
    );
    assert.equal(logged?.actor_type, 'Admin');
    const again = await remove(admin.sessionToken, name);
    assert.equal(again.status, 404);
    assert.equal(again.body.error, m.serverNotFound);
  });
});
