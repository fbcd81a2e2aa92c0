import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { HttpLimits } from '../config/http-limits.ts';
import type { MetricsConfig } from '../config/metrics.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { WindowCounter } from '../gateway/rate-limit.ts';
import { capConnectionsPerAddress, checkingIntervalFor } from '../http/connections.ts';

// Where GET /metrics is answered (ADR 0045): on the panel's port behind CANOPY_METRICS_TOKEN, or on a listener of
// its own (CANOPY_METRICS_PORT) that serves nothing else. The token, when set, is checked before anything else
// wherever /metrics is served; only wrong tokens are counted against an address, so a stranger can neither guess
// it nor lock the scraper out.

/** Wrong tokens one address may send per minute before it is answered 429. */
const FAILURES_PER_MINUTE = 20;
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const refusal = 'A valid metrics token is required: Authorization: Bearer <CANOPY_METRICS_TOKEN>.';
/** The scheme a 401 asks for (RFC 9110 requires the challenge on a 401; RFC 6750 names it). */
const CHALLENGE = { 'www-authenticate': 'Bearer realm="metrics"' };

type Gate = (authorization: string | undefined, ip: string) => AppError | null;

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Checks a request's bearer token in constant time; null when it may scrape, else the refusal to answer. */
export function metricsGate(token: string | undefined, now: () => number = Date.now): Gate {
  if (!token) return () => null;
  const expected = digest(token);
  const failures = new WindowCounter({ max: FAILURES_PER_MINUTE, windowMs: 60_000 }, 10_000);
  return (authorization, ip) => {
    const sent = /^Bearer +(\S+)$/i.exec(authorization ?? '')?.[1];
    // Hashes of equal length: the comparison takes as long whatever was sent.
    if (sent !== undefined && timingSafeEqual(digest(sent), expected)) return null;
    if (!failures.hit(ip, now())) return new AppError(429, 'rate_limited', 'Too many wrong metrics tokens.');
    return new AppError(401, 'metrics_unauthorized', refusal);
  };
}

/** The label of a request's route: its pattern, a fixed word for everything else. */
function routeLabel(pattern: string | undefined): string {
  if (pattern === undefined) return 'unmatched';
  // Each file of the web build is a route of @fastify/static, and its hashed name changes with every build.
  return pattern.startsWith('/assets/') ? '/assets/*' : pattern;
}

/**
 * Turns metrics on for the panel when configured: every request is timed, and /metrics is served on this port
 * (token) or on its own listener, started and closed with the app. Unconfigured: nothing, and /metrics is a 404.
 */
export function registerMetrics(app: FastifyInstance, ctx: AppContext) {
  const config = ctx.config.metrics;
  if (!config) return;
  const { metrics } = ctx;
  // Callback style: an async hook costs every request a promise and a turn.
  app.addHook('onResponse', (req, reply, done) => {
    const method = METHODS.has(req.method) ? req.method : 'other';
    metrics.request(method, routeLabel(req.routeOptions.url), reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  const gate = metricsGate(config.token);
  const { listener } = config;
  if (listener) {
    let close: (() => Promise<void>) | undefined;
    app.addHook('onReady', async () => {
      const listening = await listenForMetrics(metrics.registry, listener, ctx.config.http, gate);
      metrics.listenerPort = listening.port;
      close = listening.close;
    });
    app.addHook('onClose', () => close?.());
    return;
  }
  // Not route(): its chain has no shared-secret access and counts its per-IP limit before authenticating; here the
  // token comes first and only wrong ones are counted.
  app.route({
    method: 'GET',
    url: '/metrics',
    onRequest: async (req, reply) => {
      const refused = gate(req.headers.authorization, req.ip);
      if (refused?.status === 401) reply.headers(CHALLENGE);
      if (refused) throw refused;
    },
    handler: async (_req, reply) => reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  });
}

/** A listener that answers GET /metrics and nothing else (404); `gate` checks the token when there is one. */
export async function listenForMetrics(
  registry: Registry,
  { port, host }: NonNullable<MetricsConfig['listener']>,
  limits: HttpLimits,
  gate: Gate,
): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.idleTimeoutMs,
      connectionsCheckingInterval: checkingIntervalFor(limits.headersTimeoutMs),
    },
    (req, res) => {
      const answer = (status: number, type: string, body: string) => {
        const challenge = status === 401 ? CHALLENGE : {};
        res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...challenge }).end(body);
      };
      const json = (error: AppError) =>
        answer(
          error.status,
          'application/json; charset=utf-8',
          JSON.stringify({ error: error.message, code: error.code }),
        );
      const path = (req.url ?? '/').split('?')[0];
      if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD'))
        return json(
          new AppError(404, 'not_found', `No route for ${req.method} ${path}. This port serves GET /metrics.`),
        );
      const refused = gate(req.headers.authorization, req.socket.remoteAddress ?? '');
      if (refused) return json(refused);
      registry.metrics().then(
        (text) => answer(200, registry.contentType, text),
        () => json(new AppError(500, 'internal', 'Internal server error.')),
      );
    },
  );
  server.setTimeout(limits.idleTimeoutMs);
  capConnectionsPerAddress(server, limits.connectionsPerIp);
  await new Promise<void>((resolve, reject) => {
    const failed = (error: Error) =>
      reject(new Error(`/metrics cannot listen on ${host}:${port} (CANOPY_METRICS_PORT): ${error.message}`));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
