import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet from 'helmet';

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

/**
 * The headers helmet sets, worked out once: they never vary per request, and running helmet's middleware
 * chain on every request (each header validated as it is set, then again when the answer is written) was
 * a tenth of the api's busy time in a profile of closed-loop profile reads.
 */
function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value;
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet({
    contentSecurityPolicy: { useDefaults: true, directives },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  })({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/** Security headers on every answer: CSP, no framing, nosniff, no referrer (ADR 0013: the ecosystem's helmet). */
export async function registerSecurityHeaders(app: FastifyInstance) {
  const headers = securityHeaders();
  if (!headers['content-security-policy']) throw new Error('helmet set no Content-Security-Policy');
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
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
