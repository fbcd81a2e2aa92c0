import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { creditMessages, DEFAULT_PAID_STORAGE_MB, hostingMessages, adminUserMessages as m } from '@canopy/contract';
import { loadConfig } from '../src/config.ts';
import { endPaidPlans } from '../src/scheduler/server-time.ts';
import { effectiveStorageLimitMB, paidPlanActive } from '../src/users/profile.ts';
import { makeAdmin, ownerWithServer, signIn, signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { waitForStatus } from './support/servers.ts';

const DAY = 86_400_000;

type Session = Awaited<ReturnType<typeof signIn>>;
const MB = 1024 * 1024;

/** What the admin writes may change on an account, to prove that a refusal changed nothing. */
const stateOf = (api: TestApi, id: string) =>
  api.ctx.db.get<Record<string, number | string | null>>(
    `SELECT available_slot, credit, storage_limit_mb, account_type, paid_until, server_expires_at, pending_server_ms,
       server_permanent FROM users WHERE id = ?`,
    [id],
  );

describeEachDatabase('admin users api', (api) => {
  let plain: Session;
  let noPerm: Session;
  let viewer: Session;
  let manager: Session;
  let superAdmin: Session;
  let target: Awaited<ReturnType<typeof ownerWithServer>>;
  let serverName = '';
  const as = (s: Session | null, method: string, path: string, body?: unknown) =>
    api().request(method, path, { token: s?.sessionToken, body });

  before(async () => {
    const a = api();
    serverName = `Au${a.dialect[0]}${process.pid % 10000}`;
    target = await ownerWithServer(a, serverName);
    plain = await signInRegistered(a);
    noPerm = await signIn(a);
    viewer = await signIn(a);
    manager = await signIn(a);
    superAdmin = await signIn(a);
    await makeAdmin(a, noPerm, ['servers:view', 'users:bulk_actions']);
    await makeAdmin(a, viewer, ['users:view']);
    await makeAdmin(a, manager, ['users:view', 'users:manage']);
    await makeAdmin(a, superAdmin, 'super');
  });

  const reads = (): [string, string][] => [
    ['GET', '/admin/all-users'],
    ['GET', `/admin/users/${target.user.id}`],
  ];
  const writes = (): [string, string, unknown][] => [
    ['POST', `/admin/users/${target.user.id}/expiry`, { action: 'add', amount: 0 }],
    ['POST', `/admin/users/${target.user.id}/slot`, { action: 'add', amount: 0 }],
    ['POST', `/admin/users/${target.user.id}/set-storage`, { limitMB: 256 }],
    ['POST', `/admin/users/${target.user.id}/set-paid`, { duration: '30d' }],
    ['POST', `/admin/users/${target.user.id}/set-free`, undefined],
    ['POST', `/admin/users/${target.user.id}/credit`, { amount: 5 }],
  ];

  it('lets only admins holding the permission in, and a refused write changes nothing', async () => {
    const before = await stateOf(api(), target.user.id);
    for (const [method, path, body] of [...reads().map(([m, p]) => [m, p, undefined] as const), ...writes()]) {
      assert.equal((await as(null, method, path, body)).status, 401, `${method} ${path} signed out`);
      assert.equal((await as(plain, method, path, body)).status, 403, `${method} ${path} plain user`);
      assert.equal((await as(noPerm, method, path, body)).status, 403, `${method} ${path} admin without it`);
    }
    for (const [method, path, body] of writes())
      assert.equal((await as(viewer, method, path, body)).status, 403, `${method} ${path} view-only admin`);
    assert.deepEqual(await stateOf(api(), target.user.id), before);
    for (const who of [viewer, manager, superAdmin])
      for (const [method, path] of reads())
        assert.equal((await as(who, method, path)).status, 200, `${method} ${path}`);
    for (const who of [manager, superAdmin])
      for (const [method, path, body] of writes()) {
        const res = await as(who, method, path, body);
        assert.equal(res.status, 200, `${method} ${path}: ${JSON.stringify(res.body)}`);
        assert.equal(typeof res.body.message, 'string');
      }
    const after = await stateOf(api(), target.user.id);
    assert.equal(Number(after?.credit), Number(before?.credit) + 10);
    assert.equal(after?.account_type, 'Free');
  });

  it('answers every validation text with 400 and changes nothing', async () => {
    const id = target.user.id;
    const before = await stateOf(api(), id);
    const expect = async (path: string, body: unknown, status: number, error: string) => {
      const res = await as(manager, 'POST', `/admin/users/${id}/${path}`, body);
      assert.equal(res.status, status, `${path} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error, error, `${path} ${JSON.stringify(body)}`);
    };
    for (const path of ['expiry', 'slot']) {
      for (const amount of [-1, 1.5, 'x', '', null, 1e7])
        await expect(path, { action: 'add', amount }, 400, m.amountInvalid);
      await expect(path, { action: 'set' }, 400, m.amountInvalid);
      await expect(path, { action: 'grow', amount: 1 }, 400, m.actionInvalid);
    }
    for (const limitMB of [0, -5, 1.5, 'abc', 2_000_000, null])
      await expect('set-storage', { limitMB }, 400, m.storageInvalid);
    await expect('set-storage', {}, 400, m.storageInvalid);
    for (const body of [undefined, {}, { duration: '' }, { duration: '  ' }, { duration: 5 }])
      await expect('set-paid', body, 400, m.paidDurationRequired);
    for (const duration of ['soon', '0d', '5y', '30', '99999w'])
      await expect('set-paid', { duration }, 400, m.durationInvalid);
    for (const amount of [0, 1.5, 'many', 2e9]) await expect('credit', { amount }, 400, creditMessages.amountInvalid);
    await expect('credit', { amount: -1e9 }, 409, creditMessages.belowZero);
    await expect('credit', { amount: 1, reason: 'x'.repeat(201) }, 400, m.reasonTooLong);
    assert.deepEqual(await stateOf(api(), id), before);
    const unknown = '1';
    for (const [, path, body] of writes()) {
      const res = await as(manager, 'POST', path.replace(id, unknown), body);
      assert.equal(res.status, 404, path);
      assert.equal(res.body.error, m.userNotFound, path);
    }
    const detail = await as(manager, 'GET', `/admin/users/${unknown}`);
    assert.deepEqual([detail.status, detail.body.error], [404, m.userNotFound]);
  });

  it('searches over Discord username, GrowID, Discord ID and server name, newest first, 10 a page', async () => {
    const a = api();
    const tag = `qz${a.dialect[0]}${process.pid % 10000}`;
    const base = 900000000000000000n + BigInt(process.pid) * 100n;
    for (let i = 0; i < 25; i++)
      await a.ctx.db.run('INSERT INTO users (id, username, grow_id, grow_id_key, created_at) VALUES (?, ?, ?, ?, ?)', [
        String(base + BigInt(i)),
        `${tag}_User${i}`,
        `Grow${tag}${i}`,
        `grow${tag}${i}`.toLowerCase(),
        a.clock.now + i,
      ]);
    const list = (query: string) => as(viewer, 'GET', `/admin/all-users?${query}`);
    const first = await list(`search=${tag.toUpperCase()}_USER`);
    assert.equal(first.status, 200);
    assert.deepEqual(
      [first.body.total, first.body.page, first.body.pageSize, first.body.items.length],
      [25, 1, 10, 10],
    );
    assert.equal(first.body.items[0].DiscordUsername, `${tag}_User24`);
    const third = await list(`search=${tag}_user&page=3`);
    assert.deepEqual(
      third.body.items.map((r: { DiscordUsername: string }) => r.DiscordUsername),
      [4, 3, 2, 1, 0].map((i) => `${tag}_User${i}`),
    );
    assert.deepEqual((await list(`search=${tag}_user&page=4`)).body.items, []);
    // A LIKE wildcard is matched as itself: '_' in the search is not "any character".
    assert.equal((await list(`search=${tag}xuser`)).body.total, 0);
    assert.equal((await list('search=%25')).body.total, 0);
    const byGrowId = await list(`search=grow${tag}17`);
    assert.deepEqual(
      byGrowId.body.items.map((r: { GrowID: string }) => r.GrowID),
      [`Grow${tag}17`],
    );
    const byId = await list(`search=${String(base + 3n).slice(-8)}`);
    assert.ok(byId.body.items.some((r: { DiscordID: string }) => r.DiscordID === String(base + 3n)));
    const byServer = await list(`search=${serverName.toLowerCase()}`);
    assert.equal(byServer.body.total, 1);
    const row = byServer.body.items[0];
    assert.deepEqual(row, {
      DiscordID: target.user.id,
      DiscordUsername: target.user.username,
      GrowID: target.growId,
      ServerName: serverName,
      AccountType: 'Free',
      StorageUsedMB: row.StorageUsedMB,
      StorageLimitMB: 256,
      IsBanned: false,
      isAdmin: false,
      isSuperAdmin: false,
    });
    const all = await list('page=1');
    const count = await a.ctx.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM users');
    assert.equal(all.body.total, Number(count?.n));
    for (const bad of ['page=0', 'page=x', `search=${'a'.repeat(101)}`])
      assert.equal((await list(bad)).status, 400, bad);
  });

  it('shows the manage dialog its figures', async () => {
    const a = api();
    await a.ctx.db.run('UPDATE users SET available_slot = 2, credit = 7 WHERE id = ?', [target.user.id]);
    const res = await as(viewer, 'GET', `/admin/users/${target.user.id}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.DiscordID, target.user.id);
    assert.equal(res.body.ServerName, serverName);
    assert.equal(res.body.Slot, 2);
    assert.equal(res.body.Credit, 7);
    assert.equal(res.body.BanInfo, null);
    assert.equal(res.body.paidUntil, null);
    assert.equal(typeof res.body.ServerTime.estimatedExpiry, 'string');
    assert.equal(typeof res.body.ServerTime.serverTime.permanent, 'boolean');
  });

  it('changes time and slots over HTTP with the functions’ messages', async () => {
    const a = api();
    const now = a.clock.now;
    await a.ctx.db.run('UPDATE users SET server_expires_at = ?, server_permanent = 0 WHERE id = ?', [
      now + DAY,
      target.user.id,
    ]);
    const set = await as(manager, 'POST', `/admin/users/${target.user.id}/expiry`, { action: 'set', amount: '3' });
    assert.deepEqual([set.status, set.body.message], [200, m.timeSet(3, target.growId)]);
    assert.equal(Number((await stateOf(a, target.user.id))?.server_expires_at), now + 3 * DAY);
    const slots = await as(superAdmin, 'POST', `/admin/users/${target.user.id}/slot`, { action: 'set', amount: 5 });
    assert.deepEqual([slots.status, slots.body.message], [200, m.slotsSet(5, target.growId)]);
    assert.equal((await as(viewer, 'GET', `/admin/users/${target.user.id}`)).body.Slot, 5);
  });

  it('sets the storage limit and adjusts credit, never below zero', async () => {
    const a = api();
    const id = target.user.id;
    const storage = await as(manager, 'POST', `/admin/users/${id}/set-storage`, { limitMB: '512' });
    assert.deepEqual([storage.status, storage.body.message], [200, m.storageSet(512, target.growId)]);
    assert.equal((await as(viewer, 'GET', `/admin/users/${id}`)).body.StorageLimitMB, 512);
    await a.ctx.db.run('UPDATE users SET credit = 10 WHERE id = ?', [id]);
    const given = await as(manager, 'POST', `/admin/users/${id}/credit`, { amount: 15, reason: 'refund' });
    assert.deepEqual(given.body, { message: m.creditChanged(15, target.growId, 25), credit: 25 });
    const taken = await as(manager, 'POST', `/admin/users/${id}/credit`, { amount: -25 });
    assert.deepEqual(taken.body, { message: m.creditChanged(-25, target.growId, 0), credit: 0 });
    const refused = await as(manager, 'POST', `/admin/users/${id}/credit`, { amount: -1 });
    assert.deepEqual([refused.status, refused.body.error], [409, creditMessages.belowZero]);
    assert.equal(Number((await stateOf(a, id))?.credit), 0);
    const ledger = await a.ctx.db.all<{ delta: number; actor: string; reason: string }>(
      'SELECT delta, actor, reason FROM credit_ledger WHERE user_id = ? ORDER BY created_at, balance DESC',
      [id],
    );
    const entries = ledger.map((l) => JSON.stringify([Number(l.delta), l.actor, l.reason]));
    for (const expected of [
      [15, manager.user.id, 'admin'],
      [-25, manager.user.id, 'admin'],
    ])
      assert.ok(entries.includes(JSON.stringify(expected)), JSON.stringify(expected));
    await as(manager, 'POST', `/admin/users/${id}/set-storage`, { limitMB: 256 });
  });

  it('a Paid plan raises the storage limit while it lasts, shows on the profile, and ends on its own', async () => {
    const a = api();
    const id = target.user.id;
    const profile = async () => (await as(target, 'GET', `/users/${id}/profile`)).body.profile;
    assert.deepEqual([(await profile()).accountType, (await profile()).storageLimitMB], ['Free', 256]);
    const paid = await as(manager, 'POST', `/admin/users/${id}/set-paid`, { duration: '5m' });
    assert.equal(paid.status, 200);
    // Minutes, not days: the test's sessions (15 minutes) would expire with a clock moved by days.
    const started = a.clock.now;
    const until = started + 5 * 60_000;
    assert.equal(paid.body.message, m.paidSet(target.growId, new Date(until).toISOString()));
    assert.deepEqual(
      [(await profile()).accountType, (await profile()).storageLimitMB, (await profile()).paidUntil],
      ['Paid', DEFAULT_PAID_STORAGE_MB, new Date(until).toISOString()],
    );
    const detail = (await as(viewer, 'GET', `/admin/users/${id}`)).body;
    assert.deepEqual(
      [detail.AccountType, detail.StorageLimitMB, detail.paidUntil],
      ['Paid', 1024, new Date(until).toISOString()],
    );
    // An own limit above the plan's stays.
    await as(manager, 'POST', `/admin/users/${id}/set-storage`, { limitMB: 2048 });
    assert.equal((await profile()).storageLimitMB, 2048);
    await as(manager, 'POST', `/admin/users/${id}/set-storage`, { limitMB: 256 });
    // The plan's end: the profile stops counting it at once, and the scheduler's pass makes it Free.
    a.clock.now = until + 1;
    assert.deepEqual(
      [(await profile()).accountType, (await profile()).storageLimitMB, (await profile()).paidUntil],
      ['Free', 256, null],
    );
    await endPaidPlans(a.ctx);
    const ended = await stateOf(a, id);
    assert.deepEqual([ended?.account_type, ended?.paid_until], ['Free', null]);
    const log = await a.ctx.db.get<{ actor_type: string }>(
      "SELECT actor_type FROM activity_logs WHERE action = 'Paid plan ended' AND details LIKE ?",
      [`%${id}%`],
    );
    assert.equal(log?.actor_type, 'System');
    // 'perm' has no end; set-free ends it.
    await as(manager, 'POST', `/admin/users/${id}/set-paid`, { duration: 'perm' });
    a.clock.now += 60_000;
    await endPaidPlans(a.ctx);
    assert.deepEqual([(await profile()).accountType, (await profile()).paidUntil], ['Paid', null]);
    const free = await as(superAdmin, 'POST', `/admin/users/${id}/set-free`);
    assert.deepEqual([free.status, free.body.message], [200, m.freeSet(target.growId)]);
    assert.equal((await profile()).accountType, 'Free');
    a.clock.now = started;
  });

  it('the start check uses the Paid limit', async () => {
    const a = api();
    const id = target.user.id;
    const now = a.clock.now;
    await a.ctx.db.run('UPDATE users SET server_expires_at = ?, server_permanent = 0 WHERE id = ?', [
      now + 5 * DAY,
      id,
    ]);
    await a.ctx.db.run('INSERT INTO backups (owner_id, created_at, bytes, sha256) VALUES (?, ?, ?, ?)', [
      id,
      now,
      300 * MB,
      'x',
    ]);
    const start = () => as(target, 'POST', `/users/${id}/server/${serverName}/start`);
    const refused = await start();
    assert.deepEqual([refused.status, refused.body.error], [409, hostingMessages.storageFull]);
    await as(manager, 'POST', `/admin/users/${id}/set-paid`, { duration: '1d' });
    const started = await start();
    assert.equal(started.status, 202, JSON.stringify(started.body));
    await waitForStatus(a, serverName, 'ONLINE');
    assert.equal((await as(target, 'POST', `/users/${id}/server/${serverName}/stop`)).status, 202);
    await waitForStatus(a, serverName, 'OFFLINE');
    await as(manager, 'POST', `/admin/users/${id}/set-free`);
    await a.ctx.db.run('DELETE FROM backups WHERE owner_id = ?', [id]);
  });
});

describe('the Paid plan rule', () => {
  const row = (account_type: 'Free' | 'Paid', paid_until: number | null, storage_limit_mb = 256) => ({
    account_type,
    paid_until,
    storage_limit_mb,
  });

  it('raises the limit to the plan size while it lasts, never lowers an own larger limit', () => {
    const now = 1_000_000;
    assert.equal(effectiveStorageLimitMB(row('Free', null), now, 1024), 256);
    assert.equal(effectiveStorageLimitMB(row('Paid', null), now, 1024), 1024);
    assert.equal(effectiveStorageLimitMB(row('Paid', now + 1), now, 1024), 1024);
    assert.equal(effectiveStorageLimitMB(row('Paid', now), now, 1024), 256);
    assert.equal(effectiveStorageLimitMB(row('Paid', null, 4096), now, 1024), 4096);
    assert.equal(paidPlanActive(row('Paid', now - 1), now), false);
  });

  it('reads CANOPY_PAID_STORAGE_MB and refuses a bad one', () => {
    assert.equal(loadConfig({}).paidStorageMB, DEFAULT_PAID_STORAGE_MB);
    assert.equal(loadConfig({ CANOPY_PAID_STORAGE_MB: '2048' }).paidStorageMB, 2048);
    for (const bad of ['0', '-1', '1.5', 'lots', '2000000'])
      assert.throws(() => loadConfig({ CANOPY_PAID_STORAGE_MB: bad }), /CANOPY_PAID_STORAGE_MB/, bad);
  });
});
