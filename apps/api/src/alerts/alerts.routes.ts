import {
  ALERT_TEST_RATE_LIMIT,
  alertMessages,
  messageResponseSchema,
  serverAlertsRequestSchema,
  serverAlertsSchema,
} from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { route, type ServerNeed } from '../http/route.ts';
import { getServerAlerts, removeServerAlerts, saveServerAlerts, testServerAlerts } from './alerts.service.ts';

// Owner only, even to read: the webhook sends the server's events (console lines of a crash among them) to a channel
// of the setter's choosing, which a collaborator could keep hearing after being removed. Reading shows only a hint,
// but which channel hears the server is still the owner's business.
const ownerOnly: ServerNeed = { need: 'owner', notOwner: alertMessages.onlyOwner };

/** An owner's Discord alerts for their server. */
export function alertsRoutes(app: FastifyInstance, ctx: AppContext) {
  const base = '/users/:id/server/alerts';
  route(app, ctx, {
    method: 'GET',
    url: base,
    access: 'user',
    server: ownerOnly,
    response: serverAlertsSchema,
    handler: ({ server }) => getServerAlerts(ctx, server),
  });
  route(app, ctx, {
    method: 'PUT',
    url: base,
    access: 'user',
    server: ownerOnly,
    body: serverAlertsRequestSchema,
    response: messageResponseSchema,
    handler: ({ server, body }) => saveServerAlerts(ctx, server, body),
  });
  route(app, ctx, {
    method: 'DELETE',
    url: base,
    access: 'user',
    server: ownerOnly,
    response: messageResponseSchema,
    handler: ({ server }) => removeServerAlerts(ctx, server),
  });
  route(app, ctx, {
    method: 'POST',
    url: `${base}/test`,
    access: 'user',
    server: ownerOnly,
    status: 202,
    response: messageResponseSchema,
    rateLimit: { perAccount: { rule: ALERT_TEST_RATE_LIMIT, key: 'caller' } },
    summary: 'Queues a test alert to the server’s Discord webhook',
    handler: ({ server }) => testServerAlerts(ctx, server),
  });
}
