import { loginRequestSchema, refreshRequestSchema } from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { route } from '../http/route.ts';
import { refreshSession, signIn, signOut } from './auth.service.ts';

/** Sign-in, token refresh, sign-out and the sign-in settings the browser needs. */
export function authRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, {
    method: 'GET',
    url: '/auth/config',
    access: 'public',
    handler: async () => ({
      authorizeUrl: ctx.config.devIdentityProvider ? '/dev-discord/oauth2/authorize' : ctx.config.discordAuthorizeUrl,
      clientId: ctx.config.discordClientId ?? 'canopy-dev',
      scopes: ['identify', 'email'],
      devProvider: ctx.config.devIdentityProvider,
    }),
  });
  route(app, ctx, {
    method: 'POST',
    url: '/auth/login',
    access: 'public',
    body: loginRequestSchema,
    handler: ({ body }) => signIn(ctx, body.accessToken),
  });
  route(app, ctx, {
    method: 'POST',
    url: '/auth/refresh',
    access: 'public',
    body: refreshRequestSchema,
    handler: ({ body }) => refreshSession(ctx, body.refreshToken),
  });
  route(app, ctx, {
    method: 'POST',
    url: '/auth/logout',
    access: 'public',
    body: refreshRequestSchema,
    handler: async ({ body }) => {
      await signOut(ctx, body.refreshToken);
      return { message: 'Signed out.' };
    },
  });
}
