import {
  authConfigSchema,
  loginRequestSchema,
  loginResponseSchema,
  messageResponseSchema,
  refreshRequestSchema,
  refreshResponseSchema,
} from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { route } from '../http/route.ts';
import { refreshSession, signIn, signOut } from './auth.service.ts';

/** Sign-in, token refresh, sign-out and the sign-in settings the browser needs. */
export function authRoutes(app: FastifyInstance, ctx: AppContext) {
  // Sign-in is where guessing and flooding happen: every /auth call is limited per client IP, and the
  // token calls also per refresh token (one stolen token replayed from many addresses).
  const { windowMs, perIp, perAccount } = ctx.config.authRateLimit;
  const ip = { max: perIp, windowMs };
  const perToken = {
    rule: { max: perAccount, windowMs },
    key: (body: { refreshToken: string }) => body.refreshToken,
  };
  route(app, ctx, {
    method: 'GET',
    url: '/auth/config',
    access: 'public',
    response: authConfigSchema,
    rateLimit: { perIp: ip },
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
    response: loginResponseSchema,
    body: loginRequestSchema,
    rateLimit: { perIp: ip },
    handler: ({ body }) => signIn(ctx, body.accessToken),
  });
  route(app, ctx, {
    method: 'POST',
    url: '/auth/refresh',
    access: 'public',
    response: refreshResponseSchema,
    body: refreshRequestSchema,
    rateLimit: { perIp: ip, perAccount: perToken },
    handler: ({ body }) => refreshSession(ctx, body.refreshToken),
  });
  route(app, ctx, {
    method: 'POST',
    url: '/auth/logout',
    access: 'public',
    response: messageResponseSchema,
    body: refreshRequestSchema,
    rateLimit: { perIp: ip, perAccount: perToken },
    handler: async ({ body }) => {
      await signOut(ctx, body.refreshToken);
      return { message: 'Signed out.' };
    },
  });
}
