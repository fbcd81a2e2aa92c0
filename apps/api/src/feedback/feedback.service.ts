import { randomUUID } from 'node:crypto';
import { type FeedbackRequest, type FeedbackResponse, feedbackMessages } from '@canopy/contract';
import type { Caller } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { feedbackRepo } from './feedback.repo.ts';

/** Stores one feedback message with the sender's username and GrowID, status New (who may send: feedback.routes.ts). */
export async function submitFeedback(
  ctx: AppContext,
  caller: Caller,
  body: FeedbackRequest,
): Promise<FeedbackResponse> {
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
