import { ASSISTANT_RATE_LIMIT, chatRequestSchema, chatResponseSchema } from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import { admitAccount } from '../access/account-access.ts';
import type { AppContext } from '../context.ts';
import { route } from '../http/route.ts';
import { requestOrigin } from '../setup-guide/setup-guide.service.ts';
import { chat } from './assistant.service.ts';
import { ASSISTANT_BODY_LIMIT } from './body-limit.ts';

/** SkyHelper (panel document, sections 2.13 and 7): POST /ai/chat for signed-in, registered users. */
export function assistantRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, {
    method: 'POST',
    url: '/ai/chat',
    access: 'user',
    response: chatResponseSchema,
    body: chatRequestSchema,
    bodyLimit: ASSISTANT_BODY_LIMIT,
    // Counted per account before the body is read: each question may cost a paid model call.
    rateLimit: { perAccount: { rule: ASSISTANT_RATE_LIMIT, key: 'caller' } },
    // Unregistered callers are refused before their body is read, like every other refusal of the chain.
    admit: admitAccount(ctx, {}),
    handler: async ({ caller, body, req, reply }) => {
      // A caller who leaves stops the model call too.
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      return chat(ctx, caller, body, { origin: requestOrigin(req), gone: gone.signal });
    },
  });
}
