import { FEEDBACK_RATE_LIMIT, feedbackMessages, feedbackRequestSchema, feedbackResponseSchema } from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import { admitAccount } from '../access/account-access.ts';
import type { AppContext } from '../context.ts';
import { route } from '../http/route.ts';
import { submitFeedback } from './feedback.service.ts';

/**
 * POST /feedback (panel document, sections 2.12 and 7): rate limited per user, and for registered,
 * unbanned users outside maintenance (non-admins see only the maintenance page then; a scripted caller
 * gets the same answer), all before the body is read.
 */
export function feedbackRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, {
    method: 'POST',
    url: '/feedback',
    access: 'user',
    response: feedbackResponseSchema,
    body: feedbackRequestSchema,
    rateLimit: { perAccount: { rule: FEEDBACK_RATE_LIMIT, key: 'caller' } },
    admit: admitAccount(ctx, { maintenance: true, unbanned: { message: feedbackMessages.banned } }),
    handler: ({ caller, body }) => submitFeedback(ctx, caller, body),
  });
}
