import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * The Content-Security-Policy of the panel. The built web app is one module script and one stylesheet
 * from /assets (no inline script or style elements; React sets styles through the DOM, which CSP allows),
 * Discord avatars come from its CDN, and the api and its socket are on the page's own origin.
 */
const directives = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:', 'https://cdn.discordapp.com'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  // The panel is often reached over plain HTTP on a LAN: upgrading its requests would break it.
  upgradeInsecureRequests: null,
};

type HelmetMiddleware = (req: IncomingMessage, res: ServerResponse, next: (error?: Error) => void) => void;
type Helmet = (options: object) => HelmetMiddleware;

// The helmet that @fastify/helmet wraps, taken from where that plugin resolves it (no second copy, no new
// dependency). The plugin builds helmet's middleware again on every request, parsing the CSP directives each
// time (7 % of the api's busy time in a profile of closed-loop profile reads); these headers never vary per
// request, so the middleware is built once.
const helmet = createRequire(createRequire(import.meta.url).resolve('@fastify/helmet'))('helmet') as Helmet;

/** Security headers on every answer: CSP, no framing, nosniff, no referrer (ADR: the ecosystem's helmet). */
export async function registerSecurityHeaders(app: FastifyInstance) {
  const apply = helmet({
    contentSecurityPolicy: { useDefaults: true, directives },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  });
  app.addHook('onRequest', (req, reply, done) => apply(req.raw, reply.raw, done));
}

/**
 * The development sign-in page has its own small inline stylesheet and sends its form back to a
 * localhost redirect_uri, which may be another origin (localhost vs 127.0.0.1): it gets a policy of its own.
 */
export function devSignInPagePolicy(reply: FastifyReply) {
  reply.header(
    'content-security-policy',
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http://localhost:* http://127.0.0.1:*; frame-ancestors 'none'; base-uri 'none'",
  );
}
