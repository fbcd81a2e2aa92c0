import assert from 'node:assert/strict';
import { it } from 'node:test';
import { adminLogsPageSchema, adminStatsSchema, messages, storageAnalyticsSchema } from '@canopy/contract';
import { accessCallers } from './support/admin-servers.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { sql } from './support/servers.ts';

const MB = 1024 * 1024;

/** Accounts made with SQL, so that every figure below is known. */
async function account(api: TestApi, id: string, usedBytes: number, opts: { limitMB?: number; registered?: boolean }) {
  const growId = opts.registered === false ? null : `G${id}`;
  await sql(
    api,
    `INSERT INTO users (id, username, grow_id, grow_id_key, created_at, storage_used_bytes, storage_limit_mb)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [id, `name-${id}`, growId, growId?.toLowerCase() ?? null, api.clock.now, usedBytes, opts.limitMB ?? 256],
  );
}

describeEachDatabase('admin dashboard figures', (api) => {
  const get = (token: string | undefined, path: string) => api().request('GET', path, { token });

  it('decides access to stats, storage analytics and logs', async () => {
    for (const [path, permission] of [
      ['/admin/stats', 'dashboard:view'],
      ['/admin/storage-analytics', 'dashboard:view'],
      ['/admin/logs', 'logs:view'],
    ] as const) {
      const c = await accessCallers(api(), permission);
      assert.equal((await get(c.signedOut, path)).status, 401, path);
      assert.equal((await get(c.plainUser, path)).body.error, messages.adminOnly, path);
      const without = await get(c.adminWithout, path);
      assert.equal(without.status, 403, path);
      assert.equal(without.body.error, messages.missingPermission);
      assert.equal((await get(c.withPermission, path)).status, 200, path);
      assert.equal((await get(c.superAdmin, path)).status, 200, path);
    }
  });

  it('counts users and servers and sums storage over registered accounts, with the four buckets and the top 10', async () => {
    // Every account so far was made by the access test: admins and plain users, none registered.
    const before = Number((await api().ctx.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM users'))?.n);
    await account(api(), 'a-zero', 0, {});
    await account(api(), 'a-100', 100 * MB, {}); // 100 to 256
    await account(api(), 'a-256', 256 * MB, {}); // still 100 to 256
    await account(api(), 'a-256plus', 256 * MB + 1, {}); // above 256
    await account(api(), 'a-512', 512 * MB, {}); // up to 512
    await account(api(), 'a-512plus', 512 * MB + 1, { limitMB: 1024 }); // above 512
    for (let i = 1; i <= 12; i++) await account(api(), `a-small${String(i).padStart(2, '0')}`, i * MB, {});
    await account(api(), 'a-unregistered', 900 * MB, { registered: false });
    // A Paid plan raises the limit to CANOPY_PAID_STORAGE_MB (1024 by default) while it lasts (ADR 0019).
    await sql(api(), "UPDATE users SET account_type = 'Paid', paid_until = ? WHERE id = 'a-512'", [
      api().clock.now + 86_400_000,
    ]);
    await sql(api(), "UPDATE users SET account_type = 'Paid', paid_until = ? WHERE id = 'a-small01'", [
      api().clock.now - 1,
    ]);
    await sql(
      api(),
      `INSERT INTO servers (id, owner_id, name, name_key, game_port, control_secret, created_at)
       VALUES ('srv-big', 'a-512plus', 'BigServer', 'bigserver', 42999, '', 0)`,
    );

    const { body: figures } = await get((await accessCallers(api(), 'dashboard:view')).withPermission, '/admin/stats');
    adminStatsSchema.parse(figures);
    // accessCallers made four more accounts for a view permission: plain user, admin without, with, super.
    assert.deepEqual(figures, { totalUsers: before + 19 + 4, totalServers: 1, onlineServers: 0, activePlayers: 0 });

    const token = (await accessCallers(api(), 'dashboard:view')).superAdmin;
    const res = await get(token, '/admin/storage-analytics');
    assert.equal(res.status, 200);
    const a = storageAnalyticsSchema.parse(res.body);
    // 0 + 100 + 256 + 256 + 512 + 512 + (1 + ... + 12) MB, plus two bytes; 16 limits of 256 (one of them a
    // Paid plan that ended) and two of 1024 (one of them a Paid plan's).
    assert.equal(a.accounts, 18);
    assert.equal(a.totalUsedMB, 1714);
    assert.equal(a.totalCapacityMB, 16 * 256 + 2 * 1024);
    assert.equal(a.averageUsedMB, 95.22);
    assert.equal(a.percentUsed, 27.9);
    assert.deepEqual(a.buckets, { under100: 13, from100to256: 2, from256to512: 2, over512: 1 });
    assert.deepEqual(
      a.topConsumers.map((c) => c.discordId),
      [
        'a-512plus',
        'a-512',
        'a-256plus',
        'a-256',
        'a-100',
        'a-small12',
        'a-small11',
        'a-small10',
        'a-small09',
        'a-small08',
      ],
    );
    assert.deepEqual(a.topConsumers[0], {
      discordId: 'a-512plus',
      discordUsername: 'name-a-512plus',
      growId: 'Ga-512plus',
      serverName: 'BigServer',
      usedMB: 512,
      limitMB: 1024,
    });
    assert.equal(a.topConsumers[1]?.serverName, null);
    assert.equal(a.topConsumers[1]?.limitMB, 1024, "the Paid plan's limit");
    assert.equal(a.topConsumers[2]?.limitMB, 256);
  });

  it('pages the activity log newest first, with details as an object', async () => {
    const token = (await accessCallers(api(), 'logs:view')).withPermission;
    const base = api().clock.now + 1_000_000;
    const total0 = (await get(token, '/admin/logs')).body.total;
    for (let i = 0; i < 23; i++)
      await sql(
        api(),
        'INSERT INTO activity_logs (id, timestamp, action, actor_type, actor_name, details) VALUES (?, ?, ?, ?, ?, ?)',
        [
          `log-${i}`,
          base + i,
          `Action ${i}`,
          i % 3 === 0 ? 'System' : 'Admin',
          `actor${i}`,
          i === 22 ? JSON.stringify({ server: 'x', days: 3 }) : i === 21 ? '{not json' : `text ${i}`,
        ],
      );
    const first = await get(token, '/admin/logs');
    assert.equal(first.status, 200);
    adminLogsPageSchema.parse(first.body);
    assert.equal(first.body.total, total0 + 23);
    assert.deepEqual(
      first.body.items.map((l: { action: string }) => l.action),
      Array.from({ length: 10 }, (_, k) => `Action ${22 - k}`),
    );
    assert.deepEqual(first.body.items[0], {
      timestamp: new Date(base + 22).toISOString(),
      action: 'Action 22',
      actorType: 'Admin',
      actorName: 'actor22',
      details: { server: 'x', days: 3 },
    });
    assert.deepEqual(first.body.items[1].details, { text: '{not json' });
    assert.deepEqual(first.body.items[2].details, { text: 'text 20' });
    const third = await get(token, '/admin/logs?page=3');
    assert.deepEqual(
      third.body.items.slice(0, 3).map((l: { action: string; actorType: string }) => [l.action, l.actorType]),
      [
        ['Action 2', 'Admin'],
        ['Action 1', 'Admin'],
        ['Action 0', 'System'],
      ],
    );
    const bad = await get(token, '/admin/logs?page=abc');
    assert.equal(bad.status, 400);
  });
});
