import { randomInt } from 'node:crypto';
import {
  type CreateRedeemCode,
  createRedeemCodeSchema,
  expiryDayEnd,
  expiryDayOf,
  expiryDayPassed,
  redeemMessages as m,
  type RedeemCodeType,
  redeemCodeKey,
  rewardText,
} from '@canopy/contract';
import { type Db, isUniqueViolation } from '../db/db.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { parse } from '../validate.ts';
import { redeemRepo } from './redeem.repo.ts';

// No 0/O, 1/I/L: a code read aloud or copied from a screenshot is typed right the first time.
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const GROUPS = 3;
const GROUP_LENGTH = 4;

/** A readable random code: three groups of four ('K7QH-2MZP-X9TC'), then the suffix when given. */
export function randomCode(suffix?: string): string {
  const groups = Array.from({ length: GROUPS }, () =>
    Array.from({ length: GROUP_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join(''),
  );
  return [...groups, ...(suffix ? [suffix.toUpperCase()] : [])].join('-');
}

/** A code as the admin list shows it (admin document, section 3). */
export interface RedeemCodeView {
  code: string;
  type: RedeemCodeType;
  amount: number;
  reward: string;
  stock: number;
  claimed: number;
  claimedBy: string[];
  createdBy: string;
  expiryDate: string | null;
  isPublic: boolean;
  createdAt: string;
}

/**
 * Creates a redeem code (the CLI now, the admin panel later). Validates with the contract's schema
 * (amount and stock at least 1, a real expiry day that has not ended at `now`); a random code unless `code` is given; refuses a code
 * whose text already exists whatever its case. The code expires at the end of its expiry day (UTC).
 */
export async function createRedeemCode(
  db: Db,
  input: CreateRedeemCode & { createdBy: string },
  now: number,
): Promise<RedeemCodeView> {
  const { createdBy, ...fields } = input;
  const valid = parse(createRedeemCodeSchema, fields, 'Redeem code');
  if (valid.expiryDate && expiryDayPassed(valid.expiryDate, now)) throw badRequest(m.datePast, 'date_past');
  const code = valid.code ?? randomCode(valid.customSuffix);
  const row = {
    code_key: redeemCodeKey(code),
    code,
    type: valid.type,
    amount: valid.amount,
    stock: valid.stock,
    is_public: valid.isPublic ? 1 : 0,
    expires_at: valid.expiryDate ? expiryDayEnd(valid.expiryDate) : null,
    created_by: createdBy,
    created_at: now,
  };
  try {
    await redeemRepo.insert(db, row);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(m.duplicate, 'code_exists');
    throw error;
  }
  return { ...viewOf({ ...row, claimed: 0 }), claimedBy: [] };
}

const viewOf = (row: Awaited<ReturnType<typeof redeemRepo.list>>[number]): Omit<RedeemCodeView, 'claimedBy'> => ({
  code: row.code,
  type: row.type,
  amount: row.amount,
  reward: rewardText(row.type, row.amount),
  stock: row.stock,
  claimed: row.claimed,
  createdBy: row.created_by,
  expiryDate: row.expires_at === null ? null : expiryDayOf(row.expires_at),
  isPublic: row.is_public === 1,
  createdAt: new Date(row.created_at).toISOString(),
});

/** Every code, newest first, with who claimed it (GrowIDs, else Discord ids). */
export async function listRedeemCodes(db: Db, limit = 500): Promise<RedeemCodeView[]> {
  const rows = await redeemRepo.list(db, limit);
  const claimedBy = new Map<string, string[]>(rows.map((r) => [r.code_key, []]));
  for (const c of await redeemRepo.claimantsOf(
    db,
    rows.map((r) => r.code_key),
  ))
    claimedBy.get(c.code_key)?.push(c.grow_id ?? c.user_id);
  return rows.map((row) => ({ ...viewOf(row), claimedBy: claimedBy.get(row.code_key) ?? [] }));
}

/** Deletes a code (matched like a redeem: case and spaces do not count); rewards given and the history stay. */
export async function deleteRedeemCode(db: Db, code: string): Promise<void> {
  if (!(await redeemRepo.remove(db, redeemCodeKey(code)))) throw notFound(m.codeMissing, 'code_not_found');
}
