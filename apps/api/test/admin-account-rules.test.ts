import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import {
  adminBanMessages as b,
  bulkActionResponseSchema,
  adminUserMessages as m,
  messages,
  profileResponseSchema,
  publicRedeemCodeListSchema,
} from '@canopy/contract';
import { changeSlots } from '../src/admin/users/user-changes.ts';
import { usersRepo } from '../src/users/users.repo.ts';
import { makeAdmin, signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { sql } from './support/servers.ts';

// Issue 21, items 3 and 4: reading another account needs users:view; an admin never changes their own account
// nor one of an equal or higher role (super admin > admin > user); a bulk action needs users:manage besides
// users:bulk_actions, and refuses user by user the accounts the caller may not change.

type Session = Awaited<ReturnType<typeof signInRegistered>>;

/** Every column an admin change could touch, and how many log rows name the account: a refusal keeps both. */
async function stateOf(api: TestApi, id: string) {
  const row = await api.ctx.db.get(
    `SELECT account_type, paid_until, available_slot, credit, storage_limit_mb, server_expires_at, pending_server_ms,
       server_permanent, is_banned, ban_reason, ban_expires FROM users WHERE id = ?`,
    [id],
  );
  const logs = await api.ctx.db.get<{ n: number | string }>(
    'SELECT COUNT(*) AS n FROM activity_logs WHERE details LIKE ?',
    [`%(${id})%`],
  );
  return JSON.stringify([row, Number(logs?.n)]);
}

/** One valid call of each route that changes an account, as [label, path suffix, body]. */
const changes: [string, string, unknown][] = [
  ['expiry', '/expiry', { action: 'set', amount: 0 }],
  ['slot', '/slot', { action: 'add', amount: 3 }],
  ['set-storage', '/set-storage', { limitMB: 900 }],
  ['set-paid', '/set-paid', { duration: 'perm' }],
  ['set-free', '/set-free', undefined],
  ['credit', '/credit', { amount: 500 }],
  ['ban', '/ban', { reason: 'r', duration: '1d' }],
  ['unban', '/unban', undefined],
];

describeEachDatabase('admin account rules', (api) => {
  let plain: Session;
  let other: Session;
  let viewer: Session;
  let noPerm: Session;
  let manager: Session;
  let bulkOnly: Session;
  let sup: Session;
  let sup2: Session;

  before(async () => {
    const a = api();
    [plain, other, viewer, noPerm, manager, bulkOnly, sup, sup2] = (await Promise.all(
      Array.from({ length: 8 }, () => signInRegistered(a)),
    )) as Session[] as [Session, Session, Session, Session, Session, Session, Session, Session];
    await makeAdmin(a, viewer, ['users:view']);
    await makeAdmin(a, noPerm, []);
    await makeAdmin(a, manager, ['users:manage', 'users:bulk_actions', 'dashboard:view']);
    await makeAdmin(a, bulkOnly, ['users:bulk_actions', 'users:view']);
    await makeAdmin(a, sup, 'super');
    await makeAdmin(a, sup2, 'super');
  });

  const get = (s: Session, path: string) => api().request('GET', path, { token: s.sessionToken });

  it("reads another account's profile and claimed codes with users:view only; anyone reads their own", async () => {
    for (const s of [noPerm, manager, plain]) {
      const profile = await get(s, `/users/${other.user.id}/profile`);
      assert.deepEqual([profile.status, profile.body.error], [403, messages.forbiddenProfile], s.growId);
      const codes = await get(s, `/users/${other.user.id}/public-redeem-codes`);
      assert.deepEqual([codes.status, codes.body.error], [403, messages.missingPermission], s.growId);
      // Their own stays theirs to read.
      assert.equal((await get(s, `/users/${s.user.id}/profile`)).status, 200);
      assert.equal((await get(s, `/users/${s.user.id}/public-redeem-codes`)).status, 200);
    }
    for (const s of [viewer, sup]) {
      const profile = await get(s, `/users/${other.user.id}/profile`);
      assert.equal(profile.status, 200, JSON.stringify(profile.body));
      assert.equal(profileResponseSchema.parse(profile.body).profile.growId, other.growId);
      const codes = await get(s, `/users/${other.user.id}/public-redeem-codes`);
      assert.equal(codes.status, 200, JSON.stringify(codes.body));
      publicRedeemCodeListSchema.parse(codes.body);
    }
  });

  /** Every change route called by `actor` on `target`: each refused with `error`, the account untouched. */
  async function refusedEverywhere(actor: Session, target: Session, error: string) {
    const a = api();
    for (const [label, suffix, body] of changes) {
      const before = await stateOf(a, target.user.id);
      const res = await a.request('POST', `/admin/users/${target.user.id}${suffix}`, {
        token: actor.sessionToken,
        body,
      });
      assert.equal(await stateOf(a, target.user.id), before, `${label}: the refused change changed the account`);
      assert.equal(res.status, 403, `${label}: ${JSON.stringify(res.body)}`);
      // Every target here is an admin: the ban route says first that admins cannot be banned (section 4).
      assert.equal(res.body.error, label === 'ban' ? b.adminCannotBeBanned : error, label);
    }
  }

  it('refuses an admin every change of their own account, before reading the body', async () => {
    for (const s of [manager, sup]) {
      // The case: a users:manage admin granting themselves Paid, credits and slots.
      await refusedEverywhere(s, s, m.cannotChangeSelf);
      const junk = await api().request('POST', `/admin/users/${s.user.id}/slot`, {
        token: s.sessionToken,
        body: { action: 'grow', amount: -1 },
      });
      assert.deepEqual([junk.status, junk.body.error], [403, m.cannotChangeSelf], 'refused before the body');
    }
  });

  it('refuses an admin the accounts of admins and super admins, and a super admin those of super admins', async () => {
    // The case: a users:manage admin setting a super admin's server time to 0.
    await refusedEverywhere(manager, sup, m.superAdminOutranks);
    await refusedEverywhere(manager, noPerm, m.adminOutranks);
    await refusedEverywhere(sup, sup2, m.superAdminOutranks);
  });

  it('lets a super admin change an admin (ban aside), and an admin change a user', async () => {
    const a = api();
    const slots = async (id: string) =>
      Number((await a.ctx.db.get<{ s: number }>('SELECT available_slot AS s FROM users WHERE id = ?', [id]))?.s);
    const before = await slots(noPerm.user.id);
    const res = await a.request('POST', `/admin/users/${noPerm.user.id}/slot`, {
      token: sup.sessionToken,
      body: { action: 'add', amount: 2 },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(await slots(noPerm.user.id), before + 2);
    const ban = await a.request('POST', `/admin/users/${noPerm.user.id}/ban`, {
      token: sup.sessionToken,
      body: { reason: 'r', duration: '1d' },
    });
    assert.deepEqual([ban.status, ban.body.error], [403, b.adminCannotBeBanned]);
    const user = await a.request('POST', `/admin/users/${plain.user.id}/set-storage`, {
      token: manager.sessionToken,
      body: { limitMB: 700 },
    });
    assert.equal(user.status, 200, JSON.stringify(user.body));
  });

  it("decides on the roles as stored under the lock, not on the caller's row read before", async () => {
    const a = api();
    const demoted = await signInRegistered(a);
    await makeAdmin(a, demoted, 'super');
    const stale = await usersRepo.findById(a.ctx.db, demoted.user.id);
    assert.ok(stale);
    // Demoted to admin after their request read their row: the admin they act on is now their equal.
    await sql(a, 'UPDATE users SET is_super_admin = 0 WHERE id = ?', [demoted.user.id]);
    const before = await stateOf(a, noPerm.user.id);
    await assert.rejects(changeSlots(a.ctx, stale, noPerm.user.id, { action: 'add', amount: 1 }), (e: Error) => {
      assert.equal(e.message, m.adminOutranks);
      return true;
    });
    assert.equal(await stateOf(a, noPerm.user.id), before);
  });

  it('refuses a bulk action whole (403, nothing changed) to a caller without users:manage', async () => {
    const a = api();
    const target = await signInRegistered(a);
    const before = await stateOf(a, target.user.id);
    for (const body of [
      { userIds: [target.user.id], action: 'ban', banInfo: { reason: 'r', duration: '7d' } },
      { userIds: [target.user.id], action: 'setSlots', amount: 9 },
    ]) {
      const res = await a.request('POST', '/admin/users/bulk-action', { token: bulkOnly.sessionToken, body });
      assert.deepEqual([res.status, res.body.error], [403, m.bulkNeedsManage], body.action);
    }
    // Refused before the body: an invalid one gets the same answer.
    const junk = await a.request('POST', '/admin/users/bulk-action', {
      token: bulkOnly.sessionToken,
      body: { userIds: [], action: 'explode' },
    });
    assert.deepEqual([junk.status, junk.body.error], [403, m.bulkNeedsManage]);
    assert.equal(await stateOf(a, target.user.id), before);
  });

  it('refuses in errors[] each account the caller may not change, and changes the others', async () => {
    const a = api();
    const [u1, u2] = [await signInRegistered(a), await signInRegistered(a)];
    const refused = [manager, noPerm, sup];
    const before = await Promise.all(refused.map((s) => stateOf(a, s.user.id)));
    const res = await a.request('POST', '/admin/users/bulk-action', {
      token: manager.sessionToken,
      body: {
        userIds: [u1.user.id, manager.user.id, noPerm.user.id, sup.user.id, u2.user.id],
        action: 'setSlots',
        amount: 7,
      },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(bulkActionResponseSchema.parse(res.body), {
      message: b.bulkDone(2, 3),
      applied: 2,
      errors: [
        { userId: manager.user.id, name: manager.growId, error: m.cannotChangeSelf },
        { userId: noPerm.user.id, name: noPerm.growId, error: m.adminOutranks },
        { userId: sup.user.id, name: sup.growId, error: m.superAdminOutranks },
      ],
    });
    for (const u of [u1, u2])
      assert.equal(
        Number(
          (await a.ctx.db.get<{ s: number }>('SELECT available_slot AS s FROM users WHERE id = ?', [u.user.id]))?.s,
        ),
        7,
      );
    assert.deepEqual(await Promise.all(refused.map((s) => stateOf(a, s.user.id))), before);
  });

  it('keeps the rule while the target is promoted at the same moment', async () => {
    const a = api();
    for (let round = 0; round < 4; round++) {
      const target = await signInRegistered(a);
      const [promoted, change] = await Promise.all([
        a.request('POST', '/admin/admins', { token: sup.sessionToken, body: { discordId: target.user.id } }),
        a.request('POST', `/admin/users/${target.user.id}/slot`, {
          token: manager.sessionToken,
          body: { action: 'set', amount: 42 },
        }),
      ]);
      assert.equal(promoted.status, 200, JSON.stringify(promoted.body));
      const slots = Number(
        (await a.ctx.db.get<{ s: number }>('SELECT available_slot AS s FROM users WHERE id = ?', [target.user.id]))?.s,
      );
      // Whichever took the row first decides: a change that went through was made on a user, never on an admin.
      if (change.status === 200) assert.equal(slots, 42);
      else {
        assert.deepEqual([change.status, change.body.error], [403, m.adminOutranks]);
        assert.notEqual(slots, 42);
      }
    }
  });
});
