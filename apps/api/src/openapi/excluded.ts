import { openApiPaths } from './paths.ts';

/** A family of routes the api answers that the OpenAPI document leaves out on purpose, and why. */
export interface ExcludedRoutes {
  /** Matches Fastify's route url (`:param` form). */
  url: RegExp;
  /** The same, in words, for the document's description. */
  paths: string;
  methods?: readonly string[];
  reason: string;
}

/**
 * Everything the api serves outside route(). The test in apps/api/test/openapi.test.ts fails for any route
 * Fastify has that is neither in the document nor here.
 */
export const excludedRoutes: readonly ExcludedRoutes[] = [
  {
    url: /.*/,
    paths: 'every GET path',
    methods: ['HEAD'],
    reason: "Fastify's automatic HEAD of each GET: answers as the GET does, without a body.",
  },
  {
    url: /^\/(assets\/.*|[^/]+\.(html|js|css|svg|png|ico|txt|webmanifest))$/,
    paths: '/assets/…, /index.html and the other files of the web build',
    methods: ['GET'],
    reason: 'The built web app (index.html and its assets, served by @fastify/static): pages, not api calls.',
  },
  {
    url: new RegExp(`^${openApiPaths.docs}(/.*)?$`),
    paths: `${openApiPaths.docs}, ${openApiPaths.docs}/…`,
    methods: ['GET'],
    reason: 'This documentation page and the files of its renderer (swagger-ui-dist).',
  },
  {
    url: /^\/dev-discord\//,
    paths: '/dev-discord/…',
    reason: "The development sign-in stand-in for Discord's OAuth2 (CANOPY_DEV_IDP only; never in production).",
  },
  {
    url: /^\/metrics$/,
    paths: '/metrics',
    methods: ['GET'],
    reason:
      'Prometheus metrics (text exposition format, its own token; docs/operations.md), not part of the panel api.',
  },
];

/** The WebSocket is an HTTP upgrade handled beside Fastify (ws.gateway.ts), so Fastify lists no route for it. */
export const webSocketNote =
  "The live channel is a WebSocket at `/ws/{userId}?token=...` (an HTTP upgrade; messages: the contract's socket.ts schemas), not described here.";

/** The exclusion that covers a route Fastify has, or undefined. */
export function exclusionOf(method: string, url: string): ExcludedRoutes | undefined {
  return excludedRoutes.find((e) => e.url.test(url) && (!e.methods || e.methods.includes(method)));
}
