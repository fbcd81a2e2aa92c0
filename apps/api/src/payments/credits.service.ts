import { creditMessages as c, MAX_CREDIT_CHANGE } from '@canopy/contract';
import { collaboratorsRepo } from '../collaborators/collaborators.repo.ts';
import { type Db, isUniqueViolation } from '../db/db.ts';
import { changeCredit } from '../economy/grants.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { creditsRepo } from './credits.repo.ts';

/** Why credit changed and who caused it (see grants.ts CreditChange). */
export interface CreditGrant {
  /** 'admin', 'payment', 'cli'. */
  reason: string;
  /** A user id (the admin), 'stripe', 'cli'. */
  actor: string;
  /** An outside event's id: the same ref is credited once, however often it arrives. */
  externalRef?: string;
}

/** The outcome of a grant: the new balance, or `duplicate` when its externalRef was credited before. */
export type GrantResult = { status: 'granted'; balance: number } | { status: 'duplicate' };

/**
 * Adds (or, with a negative amount, takes) credits: the one way admins, the CLI and payments change a
 * balance. Locks the user's row, refuses an unknown user (404), a zero or fractional amount (400) and a
 * balance that would go below zero or above MAX_CREDIT_BALANCE (409). A repeated externalRef changes
 * nothing and says so.
 */
export async function grantCredits(
  db: Db,
  userId: string,
  amount: number,
  grant: CreditGrant,
  now: number,
): Promise<GrantResult> {
  if (!Number.isSafeInteger(amount) || amount === 0 || Math.abs(amount) > MAX_CREDIT_CHANGE)
    throw badRequest(c.amountInvalid, 'amount_invalid');
  try {
    const balance = await db.transaction(async (tx) => {
      await collaboratorsRepo.lockUser(tx, userId);
      if ((await creditsRepo.balance(tx, userId)) === undefined) throw notFound(c.unknownUser, 'unknown_user');
      const next = await changeCredit(tx, userId, { delta: amount, ...grant }, now);
      if (next === null)
        throw amount < 0 ? conflict(c.belowZero, 'below_zero') : conflict(c.balanceTooHigh, 'balance_too_high');
      return next;
    });
    return { status: 'granted', balance };
  } catch (error) {
    // external_ref is the ledger's only unique column besides its random id.
    if (grant.externalRef !== undefined && isUniqueViolation(error)) return { status: 'duplicate' };
    throw error;
  }
}
