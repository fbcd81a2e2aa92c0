import { randomUUID } from 'node:crypto';
import { economyMessages, MAX_CREDIT_BALANCE } from '@canopy/contract';
import type { Db } from '../db/db.ts';
import { conflict } from '../errors.ts';
import { serversRepo } from '../servers/servers.repo.ts';

const DAY_MS = 24 * 3600 * 1000;

/**
 * What redeem codes, the shop and (later) the admin panel give an account. Every function runs inside
 * the caller's transaction, after the caller locked the user's row (collaboratorsRepo.lockUser), so the
 * reward lands together with the claim or the debit that paid for it, or not at all.
 */

interface TimeRow {
  server_expires_at: number | null;
  server_permanent: number;
  pending_server_ms: number;
}

/**
 * Adds server time. An account without a server banks it until its first server starts the clock; an
 * account with one gets it added to its expiry, counted from now when the time already ran out, which
 * lifts a grace period (the server stays stopped until its owner starts it); an account whose time ran out
 * and whose server is gone banks it again for its next server. An account whose time never
 * runs out (permanent, or no time at all yet: see profile.ts serverTimeOf) is refused: the reward would
 * turn unlimited time into a limited one.
 */
export async function addServerDays(tx: Db, userId: string, days: number, now: number): Promise<void> {
  const u = await tx.get<TimeRow>(
    'SELECT server_expires_at, server_permanent, pending_server_ms FROM users WHERE id = ?',
    [userId],
  );
  if (!u) throw new Error(`user ${userId} vanished inside its own transaction`);
  const pending = Number(u.pending_server_ms);
  const expires = u.server_expires_at === null ? null : Number(u.server_expires_at);
  if (u.server_permanent === 1 || (expires === null && pending <= 0))
    throw conflict(economyMessages.serverTimePermanent, 'server_time_permanent');
  const ms = days * DAY_MS;
  const hasServer = (await serversRepo.findByOwner(tx, userId)) !== undefined;
  // Time that ran out with no server left (the grace period ended and deleted it, or the server was deleted
  // before: there is no grace without a server, see profile.ts serverTimeOf): that clock is over, and the
  // new time waits for the next server like time given before the first one, instead of running unused.
  if (expires !== null && expires <= now && !hasServer) {
    await tx.run('UPDATE users SET server_expires_at = NULL, pending_server_ms = ? WHERE id = ?', [
      Math.max(pending, 0) + ms,
      userId,
    ]);
    return;
  }
  if (expires !== null) {
    await tx.run('UPDATE users SET server_expires_at = ? WHERE id = ?', [Math.max(expires, now) + ms, userId]);
    return;
  }
  // Time banked before the first server; a server that exists already means its clock should be running.
  if (hasServer)
    await tx.run('UPDATE users SET server_expires_at = ?, pending_server_ms = 0 WHERE id = ?', [
      now + pending + ms,
      userId,
    ]);
  else await tx.run('UPDATE users SET pending_server_ms = pending_server_ms + ? WHERE id = ?', [ms, userId]);
}

/** Adds server slots. */
export async function addSlots(tx: Db, userId: string, slots: number): Promise<void> {
  await tx.run('UPDATE users SET available_slot = available_slot + ? WHERE id = ?', [slots, userId]);
}

/** Raises the storage limit for good. */
export async function raiseStorageLimit(tx: Db, userId: string, mb: number): Promise<void> {
  await tx.run('UPDATE users SET storage_limit_mb = storage_limit_mb + ? WHERE id = ?', [mb, userId]);
}

export interface CreditChange {
  /** Positive: a grant or payment; negative: a purchase. */
  delta: number;
  /** 'purchase', 'admin', 'payment', 'cli'. */
  reason: string;
  /** Who caused it: a user id, 'stripe', 'cli'. */
  actor: string;
  /** An outside event's id (a payment): a second change with the same ref is refused by the database. */
  externalRef?: string;
}

/**
 * Changes an account's credit and records it in the ledger. A debit larger than the balance, or a grant
 * past MAX_CREDIT_BALANCE, changes nothing and answers null (the caller says why, from the delta's sign);
 * the database's own check stands behind the first. The upper bound is PostgreSQL's INTEGER: past it
 * PostgreSQL fails with an error while SQLite would store the number, so both are held to it here.
 * Returns the new balance.
 */
export async function changeCredit(tx: Db, userId: string, change: CreditChange, now: number): Promise<number | null> {
  // The bounds are compared with the stored credit alone: `credit + delta` in a condition would overflow
  // on PostgreSQL before it could answer false. A change larger than any balance can never apply.
  if (Math.abs(change.delta) > MAX_CREDIT_BALANCE) return null;
  const lowest = Math.max(0, -change.delta);
  const highest = Math.min(MAX_CREDIT_BALANCE, MAX_CREDIT_BALANCE - change.delta);
  const updated = await tx.run('UPDATE users SET credit = credit + ? WHERE id = ? AND credit >= ? AND credit <= ?', [
    change.delta,
    userId,
    lowest,
    highest,
  ]);
  if (updated.changes !== 1) return null;
  const row = await tx.get<{ credit: number }>('SELECT credit FROM users WHERE id = ?', [userId]);
  const balance = Number(row?.credit);
  await tx.run(
    `INSERT INTO credit_ledger (id, user_id, delta, balance, reason, external_ref, actor, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [randomUUID(), userId, change.delta, balance, change.reason, change.externalRef ?? null, change.actor, now],
  );
  return balance;
}
