import {
  expiryDayOf,
  redeemMessages as m,
  PUBLIC_CODES_LIMIT,
  type PublicRedeemCode,
  type RedeemResponse,
  redeemCodeKey,
  redeemStatus,
  rewardText,
} from '@canopy/contract';
import { isAdmin } from '../access/account-access.ts';
import { activityRepo } from '../activity/activity.repo.ts';
import type { Caller } from '../auth/guard.ts';
import { collaboratorsRepo } from '../collaborators/collaborators.repo.ts';
import type { AppContext } from '../context.ts';
import { isUniqueViolation } from '../db/db.ts';
import { addServerDays, addSlots } from '../economy/grants.ts';
import { AppError, conflict, notFound } from '../errors.ts';
import { type RedeemCodeRow, redeemRepo } from './redeem.repo.ts';

/** The profile shows this many of the latest redemptions. */
const HISTORY_LIMIT = 100;

const entryOf = (row: RedeemCodeRow & { mine: boolean }, now: number): PublicRedeemCode => ({
  code: row.code,
  reward: rewardText(row.type, row.amount),
  status: redeemStatus(
    { claimedByUser: row.mine, claimed: row.claimed, stock: row.stock, expiresAt: row.expires_at },
    now,
  ),
  stock: { claimed: row.claimed, total: row.stock },
  expiryDate: row.expires_at === null ? null : expiryDayOf(row.expires_at),
});

/**
 * GET /users/{id}/public-redeem-codes: the public codes as user {id} sees them (who may ask is decided
 * before, in redeem.routes.ts).
 */
export async function listPublicCodes(ctx: AppContext, id: string): Promise<PublicRedeemCode[]> {
  const now = ctx.now();
  return (await redeemRepo.listPublic(ctx.db, id, PUBLIC_CODES_LIMIT)).map((row) => entryOf(row, now));
}

/**
 * POST /users/{id}/redeem: one claim of an available code for the caller, and its reward, in one
 * transaction. The stock update is conditional (never oversold); the claims' primary key refuses a second
 * claim of the same code, also when two arrive at once. For the caller's own account (redeem.routes.ts
 * admits only that).
 */
export async function redeemCode(ctx: AppContext, caller: Caller, code: string): Promise<RedeemResponse> {
  const id = caller.user.id;
  const key = redeemCodeKey(code);
  const now = ctx.now();
  try {
    return await ctx.db.transaction(async (tx) => {
      await collaboratorsRepo.lockUser(tx, id);
      const row = await redeemRepo.find(tx, key);
      if (!row) throw notFound(m.notFound, 'code_not_found');
      if (await redeemRepo.hasClaim(tx, key, id)) throw conflict(m.alreadyClaimed, 'already_claimed');
      if (row.expires_at !== null && now > row.expires_at) throw new AppError(410, 'code_expired', m.expired);
      if (!(await redeemRepo.takeOne(tx, key))) throw conflict(m.outOfStock, 'out_of_stock');
      const reward = rewardText(row.type, row.amount);
      await redeemRepo.addClaim(tx, { key, userId: id, code: row.code, reward, now });
      // A refusal here (server time that never runs out) rolls the claim and the stock back.
      if (row.type === 'Slot') await addSlots(tx, id, row.amount);
      else await addServerDays(tx, id, row.amount, now);
      await activityRepo.add(
        tx,
        {
          action: 'Code redeemed',
          actorType: isAdmin(caller) ? 'Admin' : 'User',
          actorName: caller.user.grow_id ?? caller.user.username,
          details: `${row.code}: ${reward}`,
        },
        now,
      );
      // Server time always goes to the redeemer's account; a collaborator sees the owner's time instead.
      const collaborates = row.type === 'ServerTime' && Boolean(await collaboratorsRepo.serverOf(tx, id));
      return { message: collaborates ? m.successOwnAccount(reward) : m.success(reward), reward };
    });
  } catch (error) {
    // The same user twice at once where the row lock does not serialize them: the key decides.
    if (isUniqueViolation(error)) throw conflict(m.alreadyClaimed, 'already_claimed');
    throw error;
  }
}

/** The profile's redemption history, newest first. */
export async function redemptionHistory(ctx: AppContext, userId: string) {
  const rows = await redeemRepo.history(ctx.db, userId, HISTORY_LIMIT);
  return rows.map((r) => ({ code: r.code, reward: r.reward, redeemedAt: new Date(r.claimedAt).toISOString() }));
}
