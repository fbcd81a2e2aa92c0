import assert from 'node:assert/strict';
import { before, beforeEach, it } from 'node:test';
import {
  adminBanMessages as b,
  defaultSettings,
  adminUserMessages as m,
  messages,
  redeemMessages,
  type Settings,
} from '@canopy/contract';
import { makeAdmin, signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { sql } from './support/servers.ts';

// Issue 21, item 14: every admin settings write is in the Activity Log, a change that changes nothing writes
// no entry, a removal says what it removed, and a redeem code of an unknown type gets a precise refusal.

type Session = Awaited<ReturnType<typeof signInRegistered>>;
const DAY = 86_400_000;

const logCount = async (api: TestApi) =>
  Number((await api.ctx.db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM activity_logs'))?.n);

/** The entries written at or after `since`, by action. */
const entriesSince = async (api: TestApi, since: number) =>
  (
    await api.ctx.db.all<{ action: string; actor_name: string; details: string }>(
      'SELECT action, actor_name, details FROM activity_logs WHERE timestamp >= ? ORDER BY action',
      [since],
    )
  ).map((e) => ({ ...e }));

describeEachDatabase('admin writes and the activity log', (api) => {
  let sup: Session;
  let other: Session;

  before(async () => {
    sup = await signInRegistered(api());
    await makeAdmin(api(), sup, 'super');
    other = await signInRegistered(api());
    await makeAdmin(api(), other, ['settings:manage', 'settings:view']);
  });

  // Each test starts from the default settings (none stored), whatever an earlier one left.
  beforeEach(() => sql(api(), 'DELETE FROM settings'));

  const post = (s: Session, path: string, body?: unknown) =>
    api().request('POST', path, { token: s.sessionToken, body });
  /** Moves the clock so that this test's entries are told apart from earlier ones by their timestamp. */
  const tick = () => {
    api().clock.now += 60_000;
    return api().clock.now;
  };

  it('logs each switch a settings save changes, in the admin’s name; a save changing nothing logs nothing', async () => {
    const since = tick();
    const on: Settings = { ...defaultSettings, maintenance: true, disableShop: true };
    const saved = await post(sup, '/admin/settings', on);
    assert.deepEqual([saved.status, saved.body.message], [200, messages.settingsSaved]);
    assert.deepEqual(await entriesSince(api(), since), [
      { action: 'Maintenance mode turned on', actor_name: sup.growId, details: 'maintenance: false → true' },
      { action: 'Shop disabled', actor_name: sup.growId, details: 'disableShop: false → true' },
    ]);
    const count = await logCount(api());
    assert.equal((await post(sup, '/admin/settings', on)).status, 200);
    assert.equal(await logCount(api()), count, 'the same settings again');

    const later = tick();
    assert.equal((await post(other, '/admin/settings', defaultSettings)).status, 200);
    assert.deepEqual(
      (await entriesSince(api(), later)).map((e) => [e.action, e.actor_name]),
      [
        ['Maintenance mode turned off', other.growId],
        ['Shop enabled', other.growId],
      ],
    );
  });

  it('logs a switch once when two admins save the same change at the same moment', async () => {
    for (let round = 0; round < 3; round++) {
      const since = tick();
      const on = { ...defaultSettings, maintenance: true };
      const answers = await Promise.all([post(sup, '/admin/settings', on), post(other, '/admin/settings', on)]);
      assert.deepEqual(
        answers.map((r) => r.status),
        [200, 200],
      );
      assert.deepEqual(
        (await entriesSince(api(), since)).map((e) => e.action),
        ['Maintenance mode turned on'],
      );
      assert.equal((await post(sup, '/admin/settings', defaultSettings)).status, 200);
    }
  });

  it('refuses a settings body that is not the settings object, logging nothing', async () => {
    const count = await logCount(api());
    const res = await post(sup, '/admin/settings', { ...defaultSettings, maintenance: 'yes' });
    assert.equal(res.status, 400);
    assert.equal(await logCount(api()), count);
  });

  it('writes no entry for a user change that changes nothing, and says so', async () => {
    const user = await signInRegistered(api());
    const id = user.user.id;
    const path = (s: string) => `/admin/users/${id}/${s}`;
    const noOps: [string, unknown, string][] = [
      ['set-free', undefined, m.freeAlready(user.growId)],
      ['slot', { action: 'add', amount: 0 }, m.nothingChanged(user.growId)],
      ['expiry', { action: 'remove', amount: 0 }, m.nothingChanged(user.growId)],
    ];
    await sql(api(), 'UPDATE users SET available_slot = 4, storage_limit_mb = 300 WHERE id = ?', [id]);
    noOps.push(['slot', { action: 'set', amount: 4 }, m.slotsAlready(4, user.growId)]);
    noOps.push(['set-storage', { limitMB: 300 }, m.storageAlready(300, user.growId)]);
    for (const [route, body, message] of noOps) {
      const count = await logCount(api());
      const res = await post(sup, path(route), body);
      assert.deepEqual([res.status, res.body.message], [200, message], route);
      assert.equal(await logCount(api()), count, `${route} ${JSON.stringify(body)} logged`);
    }

    // Paid with no end, twice; the same permanent ban, twice: the second changes nothing.
    assert.equal((await post(sup, path('set-paid'), { duration: 'perm' })).status, 200);
    let count = await logCount(api());
    const again = await post(sup, path('set-paid'), { duration: 'perm' });
    assert.deepEqual([again.status, again.body.message], [200, m.paidAlready(user.growId)]);
    assert.equal(await logCount(api()), count);

    assert.equal((await post(sup, path('ban'), { reason: 'raid', duration: 'perm' })).status, 200);
    count = await logCount(api());
    const banLogs = async () =>
      Number(
        (await api().ctx.db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM ban_logs WHERE user_id = ?', [id]))
          ?.n,
      );
    const logsBefore = await banLogs();
    const reban = await post(sup, path('ban'), { reason: 'raid', duration: 'perm' });
    assert.deepEqual([reban.status, reban.body.message], [200, b.alreadyBanned(user.growId, null)]);
    assert.deepEqual([await logCount(api()), await banLogs()], [count, logsBefore]);
    // Another reason is a new ban: it replaces the first and is logged.
    assert.equal((await post(sup, path('ban'), { reason: 'spam', duration: 'perm' })).status, 200);
    assert.equal(await logCount(api()), count + 1);
  });

  it('writes no entry for a feedback status or permissions saved unchanged', async () => {
    const id = `fb-${process.pid}-${api().dialect}`;
    await sql(
      api(),
      `INSERT INTO feedback (id, user_id, type, message, submitted_by_username, submitted_by_grow_id, status, created_at)
       VALUES (?, NULL, 'Suggestion', 'x', 'x', NULL, 'Resolved', ?)`,
      [id, api().clock.now],
    );
    let count = await logCount(api());
    const same = await api().request('PUT', `/admin/feedback/${id}/status`, {
      token: sup.sessionToken,
      body: { status: 'Resolved' },
    });
    assert.equal(same.status, 200);
    assert.equal(await logCount(api()), count);
    const moved = await api().request('PUT', `/admin/feedback/${id}/status`, {
      token: sup.sessionToken,
      body: { status: 'New' },
    });
    assert.equal(moved.status, 200);
    assert.equal(await logCount(api()), count + 1);

    count = await logCount(api());
    const perms = await api().request('PUT', `/admin/admins/${other.user.id}/permissions`, {
      token: sup.sessionToken,
      body: { permissions: ['settings:view', 'settings:manage'] },
    });
    assert.equal(perms.status, 200, JSON.stringify(perms.body));
    assert.equal(await logCount(api()), count);
  });

  it('says how much was removed when less was left than asked, and refuses removing from nothing', async () => {
    const user = await signInRegistered(api());
    const id = user.user.id;
    const who = user.growId;
    await sql(api(), 'UPDATE users SET available_slot = 2 WHERE id = ?', [id]);
    const slots = await post(sup, `/admin/users/${id}/slot`, { action: 'remove', amount: 5 });
    assert.deepEqual([slots.status, slots.body.message], [200, m.slotsRemovedRest(2, 5, who)]);
    const none = await post(sup, `/admin/users/${id}/slot`, { action: 'remove', amount: 1 });
    assert.deepEqual([none.status, none.body.error], [409, m.noSlotsToRemove(who)]);

    const now = api().clock.now;
    await sql(
      api(),
      'UPDATE users SET server_expires_at = ?, pending_server_ms = 0, server_permanent = 0 WHERE id = ?',
      [now + 2 * DAY + 3 * 3_600_000, id],
    );
    const time = await post(sup, `/admin/users/${id}/expiry`, { action: 'remove', amount: 10 });
    assert.deepEqual([time.status, time.body.message], [200, m.timeRemovedRest('2 day(s) and 3 hour(s)', 10, who)]);
    const count = await logCount(api());
    const over = await post(sup, `/admin/users/${id}/expiry`, { action: 'remove', amount: 1 });
    assert.deepEqual([over.status, over.body.error], [409, m.timeAlreadyOver(who)]);
    assert.equal(await logCount(api()), count);
    const whole = await post(sup, `/admin/users/${id}/expiry`, { action: 'set', amount: 5 });
    assert.equal(whole.status, 200);
    const exact = await post(sup, `/admin/users/${id}/expiry`, { action: 'remove', amount: 2 });
    assert.deepEqual([exact.status, exact.body.message], [200, m.timeRemoved(2, who)]);
  });

  it('refuses a redeem code of an unknown type, or with a non-numeric amount or stock, in plain words', async () => {
    const codes = async () =>
      Number((await api().ctx.db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM redeem_codes'))?.n);
    const before = await codes();
    for (const [body, error] of [
      [{ type: 'Foo', amount: 1, stock: 1 }, redeemMessages.typeInvalid],
      [{ amount: 1, stock: 1 }, redeemMessages.typeInvalid],
      [{ type: 'Slot', amount: 'one', stock: 1 }, redeemMessages.amountInvalid],
      [{ type: 'Slot', amount: 1, stock: null }, redeemMessages.stockInvalid],
    ] as const) {
      const res = await post(sup, '/admin/redeem-codes', body);
      assert.deepEqual([res.status, res.body.error], [400, error], JSON.stringify(body));
    }
    assert.equal(await codes(), before);
  });
});
