import {
  ADMIN_PAGE_SIZE,
  type AdminFeedback,
  type AdminFeedbackQuery,
  type AdminPage,
  type FeedbackStatus,
  adminContentMessages as m,
} from '@canopy/contract';
import { activityRepo } from '../../activity/activity.repo.ts';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { feedbackRepo } from '../../feedback/feedback.repo.ts';
import type { UserRow } from '../../users/users.repo.ts';
import { pageOf } from '../paging.ts';
import { adminActor } from './admin-actor.ts';

/** One page of feedback within the admin's filters, newest first (counted and paged in SQL by the repo). */
export async function listAdminFeedback(
  ctx: AppContext,
  { page, ...filter }: AdminFeedbackQuery,
): Promise<AdminPage<AdminFeedback>> {
  const { entries, total } = await feedbackRepo.list(ctx.db, page, ADMIN_PAGE_SIZE, filter);
  const items = entries.map(
    (e): AdminFeedback => ({
      id: e.id,
      type: e.type,
      submittedByUsername: e.submittedByUsername,
      submittedByGrowId: e.submittedByGrowId,
      message: e.message,
      status: e.status,
      timestamp: e.createdAt,
    }),
  );
  return pageOf(items, total, page, ADMIN_PAGE_SIZE);
}

/** Moves a message to any status (404 when there is none) and logs it; its own status again logs nothing. */
export async function setFeedbackStatus(
  ctx: AppContext,
  admin: UserRow,
  id: string,
  status: FeedbackStatus,
): Promise<{ message: string }> {
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const outcome = await feedbackRepo.setStatus(tx, id, status);
    if (outcome === 'missing') throw notFound(m.feedbackMissing, 'feedback_not_found');
    if (outcome === 'same') return { message: m.statusUpdated };
    await activityRepo.add(
      tx,
      { action: 'Feedback status changed', ...adminActor(admin), details: `${id}: ${status}` },
      now,
    );
    return { message: m.statusUpdated };
  });
}

/** Deletes a message (404 when there is none) and logs it. */
export async function deleteFeedback(ctx: AppContext, admin: UserRow, id: string): Promise<{ message: string }> {
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    if (!(await feedbackRepo.delete(tx, id))) throw notFound(m.feedbackMissing, 'feedback_not_found');
    await activityRepo.add(tx, { action: 'Feedback deleted', ...adminActor(admin), details: id }, now);
    return { message: m.feedbackDeleted };
  });
}
