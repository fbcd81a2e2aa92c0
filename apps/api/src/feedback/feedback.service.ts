import { randomUUID } from 'node:crypto';
import { type FeedbackRequest, type FeedbackResponse, feedbackMessages } from '@canopy/contract';
import type { Caller } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { forbidden, maintenance } from '../errors.ts';
import { registered } from '../items/own-server.ts';
import { settingsRepo } from '../settings/settings.repo.ts';
import { isBanActive } from '../users/profile.ts';
import { feedbackRepo } from './feedback.repo.ts';

/** Stores one feedback message from a registered, unbanned user outside maintenance, with their username and GrowID, status New. */
export async function submitFeedback(
  ctx: AppContext,
  caller: Caller,
  body: FeedbackRequest,
): Promise<FeedbackResponse> {
  registered(caller);
  // Non-admins see only the maintenance page then; a scripted caller gets the same answer.
  if (caller.user.is_admin !== 1 && (await settingsRepo.load(ctx.db)).maintenance) throw maintenance();
  if (isBanActive(caller.user, ctx.now())) throw forbidden(feedbackMessages.banned, 'banned');
  await feedbackRepo.insert(ctx.db, {
    id: randomUUID(),
    userId: caller.user.id,
    type: body.type,
    message: body.message,
    username: caller.user.username,
    growId: caller.user.grow_id,
    createdAt: ctx.now(),
  });
  return { message: feedbackMessages.thanks };
}
