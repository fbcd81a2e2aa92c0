import type { AdminPermission } from '@canopy/contract';
import { hasAdminPermission, messages } from '@canopy/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { authenticate, type Caller } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { forbidden } from '../errors.ts';
import { adminCaller } from '../users/profile.ts';
import { parse } from '../validate.ts';

/** Who may call a route: anyone, any signed-in user, or an admin holding a permission. */
export type Access = 'public' | 'user' | { admin: AdminPermission };

interface RouteSpec<B extends z.ZodType | undefined, A extends Access> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  access: A;
  body?: B;
  /** Largest accepted body in bytes (default: the app's 1 MB). */
  bodyLimit?: number;
  handler: (input: {
    caller: A extends 'public' ? undefined : Caller;
    body: B extends z.ZodType ? z.infer<B> : undefined;
    params: Record<string, string>;
    query: Record<string, string | undefined>;
    req: FastifyRequest;
    reply: FastifyReply;
  }) => Promise<unknown>;
}

/** Declares a route as data: the chain is authenticate → authorize → validate → handler. */
export function route<B extends z.ZodType | undefined, A extends Access>(
  app: FastifyInstance,
  ctx: AppContext,
  spec: RouteSpec<B, A>,
) {
  app.route({
    method: spec.method,
    url: spec.url,
    ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
    handler: async (req, reply) => {
      let caller: Caller | undefined;
      if (spec.access !== 'public') {
        caller = await authenticate(ctx, req.headers.authorization);
        if (typeof spec.access === 'object' && !hasAdminPermission(adminCaller(caller.user), spec.access.admin))
          throw forbidden(caller.user.is_admin ? messages.missingPermission : messages.adminOnly);
      }
      const body = spec.body ? parse(spec.body, req.body) : undefined;
      return spec.handler({
        caller: caller as never,
        body: body as never,
        params: req.params as Record<string, string>,
        query: req.query as Record<string, string | undefined>,
        req,
        reply,
      });
    },
  });
}
