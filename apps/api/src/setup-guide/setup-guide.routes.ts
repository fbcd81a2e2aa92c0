import { hostsFile, setupGuideSchema, setupPaths, surgeProfile } from '@canopy/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { admitAccount } from '../access/account-access.ts';
import type { AppContext } from '../context.ts';
import type { RateRule } from '../http/rate-limits.ts';
import { route } from '../http/route.ts';
import { gameIp, requestOrigin, setupGuide } from './setup-guide.service.ts';

/**
 * Per client IP on the public setup files. Tunnel apps fetch their list on every start, and a whole LAN
 * shares one address, so the limit is generous; it only stops a client hammering the api.
 */
export const SETUP_FILES_RATE_LIMIT: RateRule = { max: 120, windowMs: 60_000 };

/** The setup files change only when the operator changes the game address (a restart): a short cache is safe. */
const FILE_MAX_AGE_SECONDS = 300;

function plainText(reply: FastifyReply, body: string) {
  return reply
    .type('text/plain; charset=utf-8')
    .header('cache-control', `public, max-age=${FILE_MAX_AGE_SECONDS}`)
    .send(body);
}

/**
 * The Setup Guide (panel document, section 2.11): the hosts lines, the Android tunnel app's hosts list and
 * the iOS Surge profile as public plain text at stable URLs (apps fetch them without a session), and the
 * signed-in page's data. GET /ip (items.routes.ts) stays the spec's address lookup.
 */
export function setupGuideRoutes(app: FastifyInstance, ctx: AppContext) {
  const files = [
    { url: setupPaths.hosts, body: hostsFile },
    { url: setupPaths.tunnel, body: hostsFile },
    { url: setupPaths.surge, body: surgeProfile },
  ];
  for (const file of files)
    route(app, ctx, {
      method: 'GET',
      url: file.url,
      access: 'public',
      response: { mediaType: 'text/plain' },
      rateLimit: { perIp: SETUP_FILES_RATE_LIMIT },
      handler: async ({ reply }) => plainText(reply, file.body(await gameIp(ctx))),
    });

  route(app, ctx, {
    method: 'GET',
    url: setupPaths.guide,
    access: 'user',
    response: setupGuideSchema,
    rateLimit: { perIp: SETUP_FILES_RATE_LIMIT },
    // Registered users only (route table); banned users keep this page (spec 2.5).
    admit: admitAccount(ctx, {}),
    handler: async ({ req, reply }) => {
      const guide = await setupGuide(ctx, requestOrigin(req));
      // Built from the request's Host when no public URL is configured: never shared between callers.
      reply.header('cache-control', 'private, max-age=60');
      return guide;
    },
  });
}
