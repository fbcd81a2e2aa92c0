import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { economyMessages, adminUserMessages as m } from '@canopy/contract';
import { changeServerDays, changeSlots } from '../src/admin/users/user-changes.ts';
import { type UserRow, usersRepo } from '../src/users/users.repo.ts';
import { ownerWithServer, signInAdmin, signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';

const DAY = 86_400_000;

interface TimeRow {
  server_expires_at: number | null;
  server_permanent: number;
  pending_server_ms: number;
  available_slot: number;
}
const timeOf = async (api: TestApi, id: string) => {
  const r = await api.ctx.db.get<TimeRow>(
    'SELECT server_expires_at, server_permanent, pending_server_ms, available_slot FROM users WHERE id = ?',
    [id],
  );
  assert.ok(r);
  return {
    expires: r.server_expires_at === null ? null : Number(r.server_expires_at),
    permanent: Number(r.server_permanent),
    pending: Number(r.pending_server_ms),
    slots: Number(r.available_slot),
  };
};
const setTime = (api: TestApi, id: string, expires: number | null, pending = 0, permanent = 0) =>
  api.ctx.db.run('UPDATE users SET server_expires_at = ?, pending_server_ms = ?, server_permanent = ? WHERE id = ?', [
    expires,
    pending,
    permanent,
    id,
  ]);
const rejects = async (p: Promise<unknown>, status: number, message: string) => {
  await assert.rejects(p, (e: { status?: number; message?: string }) => {
    assert.equal(e.status, status);
    assert.equal(e.message, message);
    return true;
  });
};

describeEachDatabase('admin user changes (the functions the bulk action shares)', (api) => {
  let owner: Awaited<ReturnType<typeof ownerWithServer>>;
  let plain: Awaited<ReturnType<typeof signInRegistered>>;
  /** The acting admin: a super admin, who may change the users below. */
  let boss: UserRow;

  before(async () => {
    const session = await signInAdmin(api(), 'super');
    const row = await usersRepo.findById(api().ctx.db, session.user.id);
    assert.ok(row);
    boss = row;
    owner = await ownerWithServer(api(), `uc${api().dialect[0]}${process.pid % 1000}`);
    plain = await signInRegistered(api());
    await api().ctx.db.run('UPDATE users SET available_slot = 0 WHERE id = ?', [plain.user.id]);
  });

  it('adds, removes and sets server days on a running clock', async () => {
    const a = api();
    const now = a.clock.now;
    await setTime(a, owner.user.id, now + 5 * DAY);
    const added = await changeServerDays(a.ctx, boss, owner.user.id, { action: 'add', amount: 3 });
    assert.equal(added.message, m.timeAdded(3, owner.growId));
    assert.equal((await timeOf(a, owner.user.id)).expires, now + 8 * DAY);
    await changeServerDays(a.ctx, boss, owner.user.id, { action: 'remove', amount: 2 });
    assert.equal((await timeOf(a, owner.user.id)).expires, now + 6 * DAY);
    // Removing more than is left ends the time now, never earlier.
    await changeServerDays(a.ctx, boss, owner.user.id, { action: 'remove', amount: 100 });
    assert.equal((await timeOf(a, owner.user.id)).expires, now);
    await changeServerDays(a.ctx, boss, owner.user.id, { action: 'set', amount: 10 });
    assert.equal((await timeOf(a, owner.user.id)).expires, now + 10 * DAY);
    await changeServerDays(a.ctx, boss, owner.user.id, { action: 'set', amount: '0' });
    assert.equal((await timeOf(a, owner.user.id)).expires, now);
    const log = await a.ctx.db.get<{ actor_type: string; actor_name: string }>(
      "SELECT actor_type, actor_name FROM activity_logs WHERE action = 'Server time changed' ORDER BY timestamp DESC",
    );
    assert.deepEqual({ ...log }, { actor_type: 'Admin', actor_name: boss.username });
  });

  it('starts the time of an account whose time never ran, and banks it without a server', async () => {
    const a = api();
    const now = a.clock.now;
    await setTime(a, owner.user.id, null, 0);
    await changeServerDays(a.ctx, boss, owner.user.id, { action: 'add', amount: 2 });
    assert.deepEqual(await timeOf(a, owner.user.id), { expires: now + 2 * DAY, permanent: 0, pending: 0, slots: 0 });
    await setTime(a, plain.user.id, null, 0);
    await changeServerDays(a.ctx, boss, plain.user.id, { action: 'add', amount: 4 });
    const banked = await timeOf(a, plain.user.id);
    assert.deepEqual([banked.expires, banked.pending], [null, 4 * DAY]);
    await changeServerDays(a.ctx, boss, plain.user.id, { action: 'remove', amount: 1 });
    assert.equal((await timeOf(a, plain.user.id)).pending, 3 * DAY);
    // Removing all that is banked ends the time now: nothing banked would read as unlimited.
    await changeServerDays(a.ctx, boss, plain.user.id, { action: 'remove', amount: 3 });
    const ended = await timeOf(a, plain.user.id);
    assert.deepEqual([ended.expires, ended.pending], [now, 0]);
    await changeServerDays(a.ctx, boss, plain.user.id, { action: 'set', amount: 7 });
    const set = await timeOf(a, plain.user.id);
    assert.deepEqual([set.expires, set.pending], [null, 7 * DAY]);
  });

  it('refuses adding to a permanent account and removing from an unlimited one, changing nothing', async () => {
    const a = api();
    await setTime(a, plain.user.id, null, 0, 1);
    await rejects(
      changeServerDays(a.ctx, boss, plain.user.id, { action: 'add', amount: 1 }),
      409,
      economyMessages.serverTimePermanent,
    );
    await rejects(changeServerDays(a.ctx, boss, plain.user.id, { action: 'remove', amount: 1 }), 409, m.timeUnlimited);
    assert.deepEqual(await timeOf(a, plain.user.id), { expires: null, permanent: 1, pending: 0, slots: 0 });
    // Set is the admin saying how long it lasts: it ends the permanence.
    await changeServerDays(a.ctx, boss, plain.user.id, { action: 'set', amount: 1 });
    assert.deepEqual(await timeOf(a, plain.user.id), { expires: null, permanent: 0, pending: DAY, slots: 0 });
  });

  it('adds, removes (not below zero) and sets slots', async () => {
    const a = api();
    await a.ctx.db.run('UPDATE users SET available_slot = 1 WHERE id = ?', [plain.user.id]);
    assert.equal(
      (await changeSlots(a.ctx, boss, plain.user.id, { action: 'add', amount: 2 })).message,
      m.slotsAdded(2, plain.growId),
    );
    assert.equal((await timeOf(a, plain.user.id)).slots, 3);
    await changeSlots(a.ctx, boss, plain.user.id, { action: 'remove', amount: 5 });
    assert.equal((await timeOf(a, plain.user.id)).slots, 0);
    await changeSlots(a.ctx, boss, plain.user.id, { action: 'set', amount: 4 });
    assert.equal((await timeOf(a, plain.user.id)).slots, 4);
  });

  it('refuses a bad amount or action (400) and an unknown user (404), changing nothing', async () => {
    const a = api();
    const before = await timeOf(a, plain.user.id);
    for (const amount of [-1, 1.5, 'abc', '', null, undefined, 1e9])
      for (const change of [changeServerDays, changeSlots])
        await rejects(change(a.ctx, boss, plain.user.id, { action: 'add', amount }), 400, m.amountInvalid);
    await rejects(changeSlots(a.ctx, boss, plain.user.id, { action: 'double', amount: 1 }), 400, m.actionInvalid);
    await rejects(changeSlots(a.ctx, boss, '123', { action: 'add', amount: 1 }), 404, m.userNotFound);
    await rejects(changeServerDays(a.ctx, boss, '123', { action: 'add', amount: 1 }), 404, m.userNotFound);
    assert.deepEqual(await timeOf(a, plain.user.id), before);
  });
});
