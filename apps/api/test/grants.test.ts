import assert from 'node:assert/strict';
import { it } from 'node:test';
import { economyMessages } from '@canopy/contract';
import { type Db, isUniqueViolation } from '../src/db/db.ts';
import { statements } from '../src/db/migrate.ts';
import { addServerDays, addSlots, changeCredit, raiseStorageLimit } from '../src/economy/grants.ts';
import { AppError } from '../src/errors.ts';
import { ownerWithServer, signInRegistered } from './support/factories.ts';
import { describeEachDatabase } from './support/harness.ts';
import { sql } from './support/servers.ts';

const DAY = 24 * 3600 * 1000;

it('splits a migration at semicolons but keeps a trigger body whole', () => {
  const parts = statements(`CREATE TABLE a (x INT);
    CREATE TRIGGER t BEFORE UPDATE ON a WHEN NEW.x < 0 BEGIN SELECT RAISE(ABORT, 'no'); END;
    CREATE INDEX i ON a (x);`);
  assert.equal(parts.length, 3);
  assert.match(parts[1] ?? '', /^CREATE TRIGGER[\s\S]*RAISE\(ABORT, 'no'\); END$/);
});

describeEachDatabase('grants: server time, slots, storage and credit', (api) => {
  const row = async (id: string) =>
    (await api().ctx.db.get<Record<string, number | null>>(
      'SELECT server_expires_at, pending_server_ms, available_slot, storage_limit_mb, credit FROM users WHERE id = ?',
      [id],
    )) ?? {};
  const inTx = <T>(fn: (tx: Db) => Promise<T>) => api().ctx.db.transaction(fn);

  it('banks server time before the first server and extends a running clock', async () => {
    const { user } = await signInRegistered(api());
    const before = await row(user.id);
    await inTx((tx) => addServerDays(tx, user.id, 3, api().clock.now));
    assert.equal(Number((await row(user.id)).pending_server_ms), Number(before.pending_server_ms) + 3 * DAY);
    assert.equal((await row(user.id)).server_expires_at, null);

    const now = api().clock.now;
    await sql(api(), 'UPDATE users SET server_expires_at = ?, pending_server_ms = 0 WHERE id = ?', [
      now + DAY,
      user.id,
    ]);
    await inTx((tx) => addServerDays(tx, user.id, 2, now));
    assert.equal(Number((await row(user.id)).server_expires_at), now + 3 * DAY);
  });

  it('counts from now when the time ran out, which ends a grace period', async () => {
    const { user } = await ownerWithServer(api(), `grant${process.pid % 10000}${api().dialect[0]}`);
    const now = api().clock.now;
    await sql(api(), 'UPDATE users SET server_expires_at = ?, pending_server_ms = 0 WHERE id = ?', [
      now - DAY,
      user.id,
    ]);
    await inTx((tx) => addServerDays(tx, user.id, 7, now));
    assert.equal(Number((await row(user.id)).server_expires_at), now + 7 * DAY);
  });

  it('banks the time for the next server when it ran out without a server (no grace period to end)', async () => {
    const { user } = await signInRegistered(api());
    const now = api().clock.now;
    await sql(api(), 'UPDATE users SET server_expires_at = ?, pending_server_ms = 0 WHERE id = ?', [
      now - 3600 * 1000,
      user.id,
    ]);
    await inTx((tx) => addServerDays(tx, user.id, 7, now));
    const after = await row(user.id);
    assert.equal(after.server_expires_at, null);
    assert.equal(Number(after.pending_server_ms), 7 * DAY);
  });

  it('refuses time for an account whose time never runs out, and changes nothing', async () => {
    const { user } = await signInRegistered(api());
    await sql(api(), 'UPDATE users SET server_permanent = 1 WHERE id = ?', [user.id]);
    const before = await row(user.id);
    await assert.rejects(
      inTx((tx) => addServerDays(tx, user.id, 7, api().clock.now)),
      (e: unknown) => e instanceof AppError && e.status === 409 && e.message === economyMessages.serverTimePermanent,
    );
    assert.deepEqual(await row(user.id), before);
  });

  it('adds slots and storage', async () => {
    const { user } = await signInRegistered(api());
    const before = await row(user.id);
    await inTx(async (tx) => {
      await addSlots(tx, user.id, 2);
      await raiseStorageLimit(tx, user.id, 256);
    });
    const after = await row(user.id);
    assert.equal(Number(after.available_slot), Number(before.available_slot) + 2);
    assert.equal(Number(after.storage_limit_mb), Number(before.storage_limit_mb) + 256);
  });

  it('never lets credit go below zero, and records every change in the ledger', async () => {
    const { user } = await signInRegistered(api());
    const now = api().clock.now;
    assert.equal(await inTx((tx) => changeCredit(tx, user.id, { delta: 50, reason: 'cli', actor: 'cli' }, now)), 50);
    assert.equal(
      await inTx((tx) => changeCredit(tx, user.id, { delta: -80, reason: 'purchase', actor: user.id }, now)),
      null,
    );
    assert.equal(
      await inTx((tx) => changeCredit(tx, user.id, { delta: -50, reason: 'purchase', actor: user.id }, now)),
      0,
    );
    // The database itself refuses a negative balance, whatever code writes it.
    await assert.rejects(
      sql(api(), 'UPDATE users SET credit = -1 WHERE id = ?', [user.id]),
      /users_credit_nonnegative/,
    );
    const ledger = await api().ctx.db.all<{ delta: number; balance: number }>(
      'SELECT delta, balance FROM credit_ledger WHERE user_id = ? ORDER BY balance DESC',
      [user.id],
    );
    assert.deepEqual(
      ledger.map((r) => [Number(r.delta), Number(r.balance)]),
      [
        [50, 50],
        [-50, 0],
      ],
    );
  });

  it('credits an outside event once: a second change with the same reference is refused', async () => {
    const { user } = await signInRegistered(api());
    const change = { delta: 10, reason: 'payment', actor: 'stripe', externalRef: `stripe:evt_${user.id}` };
    await inTx((tx) => changeCredit(tx, user.id, change, api().clock.now));
    // Refused by the unique reference itself, not by any other error; the balance and ledger keep one change.
    await assert.rejects(
      inTx((tx) => changeCredit(tx, user.id, change, api().clock.now)),
      isUniqueViolation,
    );
    assert.equal(Number((await row(user.id)).credit), 10);
    const refs = await api().ctx.db.all('SELECT id FROM credit_ledger WHERE external_ref = ?', [change.externalRef]);
    assert.equal(refs.length, 1);
  });
});
