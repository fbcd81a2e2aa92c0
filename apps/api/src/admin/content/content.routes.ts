import {
  adminCreateCodeResponseSchema,
  adminCreateCodeSchema,
  adminFeedbackPageSchema,
  adminFeedbackQuerySchema,
  adminListQuerySchema,
  adminRedeemCodePageSchema,
  adminContentMessages as cm,
  feedbackStatusSchema,
  messageResponseSchema,
  redeemRequestSchema,
} from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { parse } from '../../validate.ts';
import { adminRoute } from '../admin-route.ts';
import { createAdminCode, deleteAdminCode, listAdminCodes } from './codes.service.ts';
import { deleteFeedback, listAdminFeedback, setFeedbackStatus } from './feedback.service.ts';

/** A feedback id as the path gives it: one with control characters or far too long names no message. */
const feedbackId = (id: string | undefined) => {
  if (!id || id.length > 64 || /\p{Cc}/u.test(id)) throw notFound(cm.feedbackMissing, 'feedback_not_found');
  return id;
};

/** The admin Redeem Codes and Feedback tabs (admin document, section 7). */
export function adminContentRoutes(app: FastifyInstance, ctx: AppContext) {
  adminRoute(app, ctx, {
    method: 'GET',
    url: '/admin/redeem-codes',
    access: { admin: 'codes:view' },
    query: adminListQuerySchema,
    response: adminRedeemCodePageSchema,
    handler: ({ query }) => listAdminCodes(ctx, query),
  });
  adminRoute(app, ctx, {
    method: 'POST',
    url: '/admin/redeem-codes',
    access: { admin: 'codes:manage' },
    response: adminCreateCodeResponseSchema,
    status: 201,
    body: adminCreateCodeSchema,
    handler: ({ caller, body }) => createAdminCode(ctx, caller.user, body),
  });
  adminRoute(app, ctx, {
    method: 'DELETE',
    url: '/admin/redeem-codes/:code',
    access: { admin: 'codes:manage' },
    response: messageResponseSchema,
    handler: ({ caller, params }) =>
      deleteAdminCode(ctx, caller.user, parse(redeemRequestSchema, { code: params.code ?? '' }, 'Code').code),
  });

  adminRoute(app, ctx, {
    method: 'GET',
    url: '/admin/feedback',
    access: { admin: 'feedback:view' },
    query: adminFeedbackQuerySchema,
    response: adminFeedbackPageSchema,
    handler: ({ query }) => listAdminFeedback(ctx, query),
  });
  adminRoute(app, ctx, {
    method: 'PUT',
    url: '/admin/feedback/:id/status',
    access: { admin: 'feedback:manage' },
    response: messageResponseSchema,
    body: feedbackStatusSchema,
    handler: ({ caller, params, body }) => setFeedbackStatus(ctx, caller.user, feedbackId(params.id), body.status),
  });
  adminRoute(app, ctx, {
    method: 'DELETE',
    url: '/admin/feedback/:id',
    access: { admin: 'feedback:manage' },
    response: messageResponseSchema,
    handler: ({ caller, params }) => deleteFeedback(ctx, caller.user, feedbackId(params.id)),
  });
}
