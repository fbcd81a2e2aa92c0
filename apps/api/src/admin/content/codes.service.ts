import {
  ADMIN_PAGE_SIZE,
  type AdminCreateCode,
  type AdminListQuery,
  type AdminPage,
  type AdminRedeemCode,
  expiryDayOf,
  adminContentMessages as m,
  redeemDisplayStatus,
} from '@canopy/contract';
import { activityRepo } from '../../activity/activity.repo.ts';
import type { AppContext } from '../../context.ts';
import { redeemRepo } from '../../redeem/redeem.repo.ts';
import { createRedeemCode, deleteRedeemCode } from '../../redeem/redeem-codes.service.ts';
import type { UserRow } from '../../users/users.repo.ts';
import { pageOf, pageWindow } from '../paging.ts';
import { adminActor, adminName } from './admin-actor.ts';
import { adminCodesRepo } from './codes.repo.ts';

/** One page of codes, newest first, with their claimants (two reads for the page) and display status. */
export async function listAdminCodes(ctx: AppContext, query: AdminListQuery): Promise<AdminPage<AdminRedeemCode>> {
  const { limit, offset } = pageWindow(query.page);
  const { rows, total } = await adminCodesRepo.page(ctx.db, query.search, limit, offset);
  const claimedBy = new Map<string, string[]>(rows.map((r) => [r.key, []]));
  for (const c of await redeemRepo.claimantsOf(
    ctx.db,
    rows.map((r) => r.key),
  ))
    claimedBy.get(c.code_key)?.push(c.grow_id ?? c.user_id);
  const now = ctx.now();
  const items = rows.map((r): AdminRedeemCode => {
    const expiryDate = r.expiresAt === null ? null : expiryDayOf(r.expiresAt);
    return {
      code: r.code,
      type: r.type,
      amount: r.amount,
      stock: r.stock,
      claimed: r.claimed,
      claimedBy: claimedBy.get(r.key) ?? [],
      createdBy: r.createdBy,
      expiryDate,
      isPublic: r.isPublic,
      displayStatus: redeemDisplayStatus({ expiryDate, claimed: r.claimed, stock: r.stock, isPublic: r.isPublic }, now),
    };
  });
  return pageOf(items, total, query.page, ADMIN_PAGE_SIZE);
}

/** Creates a code in the admin's name and logs it; the code and its log entry are written together. */
export async function createAdminCode(
  ctx: AppContext,
  admin: UserRow,
  body: AdminCreateCode,
): Promise<{ code: string }> {
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const created = await createRedeemCode(tx, { ...body, createdBy: adminName(admin) }, now);
    await activityRepo.add(
      tx,
      { action: 'Redeem code created', ...adminActor(admin), details: `${created.code}: ${created.reward}` },
      now,
    );
    return { code: created.code };
  });
}

/** Deletes a code (404 when there is none) and logs it. */
export async function deleteAdminCode(ctx: AppContext, admin: UserRow, code: string): Promise<{ message: string }> {
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    await deleteRedeemCode(tx, code);
    await activityRepo.add(tx, { action: 'Redeem code deleted', ...adminActor(admin), details: code }, now);
    return { message: m.codeDeleted(code) };
  });
}
