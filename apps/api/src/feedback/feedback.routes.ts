import { FEEDBACK_RATE_LIMIT, feedbackRequestSchema } from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { route } from '../http/route.ts';
import { submitFeedback } from './feedback.service.ts';

/** POST /feedback (panel document, sections 2.12 and 7): rate limited per user before the body is read. */
export function feedbackRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, {
    method: 'POST',
    url: '/feedback',
    access: 'user',
    body: feedbackRequestSchema,
    rateLimit: { perAccount: { rule: FEEDBACK_RATE_LIMIT, key: 'caller' } },
    handler: ({ caller, body }) => submitFeedback(ctx, caller, body),
  });
}
