import { hostingMessages, isHealthPath, SESSION_TOKEN_TTL_SECONDS } from '@canopy/contract';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, LogController } from 'fastify';
import { adminBansRoutes } from './admin/bans/bans.routes.ts';
import { adminContentRoutes } from './admin/content/content.routes.ts';
import { adminRolesRoutes } from './admin/roles/roles.routes.ts';
import { adminServersRoutes } from './admin/servers/servers.routes.ts';
import { adminUsersRoutes } from './admin/users/users.routes.ts';
import { alertsRoutes } from './alerts/alerts.routes.ts';
import { startAlertDelivery } from './alerts/delivery.ts';
import { assistantRoutes } from './assistant/assistant.routes.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { loadSessionSecret } from './auth/secret.ts';
import { SessionSigner } from './auth/tokens.ts';
import { backupRoutes } from './backups/backups.routes.ts';
import { collaboratorsRoutes } from './collaborators/collaborators.routes.ts';
import { type Config, DISCORD_API_DEFAULT } from './config.ts';
import { configRoutes } from './configuration/config.routes.ts';
import { customItemsRoutes } from './configuration/custom-items.routes.ts';
import type { AppContext } from './context.ts';
import { type Db, isDatabaseUnavailable, isStorageFull } from './db/db.ts';
import { devIdpRoutes } from './dev-idp/dev-idp.routes.ts';
import { AppError, unavailable } from './errors.ts';
import { EventBus } from './events/bus.ts';
import { startPgRelay } from './events/pg-relay.ts';
import { feedbackRoutes } from './feedback/feedback.routes.ts';
import { startGateway } from './gateway/gateway.ts';
import { embeddedGatewayContext } from './gateway/tenants.ts';
import { historyRoutes } from './history/history.routes.ts';
import { startHistorySampler } from './history/sampler.ts';
import { DEFAULT_BODY_LIMIT } from './http/body-limits.ts';
import { apiServerOptions, guardConnections } from './http/connections.ts';
import { registerIdempotency } from './http/idempotency.ts';
import { parseJsonBody } from './http/json-body.ts';
import { registerRateLimits } from './http/rate-limits.ts';
import { answerHeaders, bodyTooLarge, rejectControlCharacters } from './http/request-guards.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { itemsRoutes } from './items/items.routes.ts';
import { healthRoutes } from './lifecycle/health.routes.ts';
import { Readiness } from './lifecycle/readiness.ts';
import { registerMetrics } from './metrics/expose.ts';
import { createMetrics } from './metrics/metrics.ts';
import { openApiRoutes } from './openapi/openapi.routes.ts';
import { paymentsRoutes } from './payments/payments.routes.ts';
import { redeemRoutes } from './redeem/redeem.routes.ts';
import { RuntimeBusyError } from './runtime/types.ts';
import { startLeadership } from './scheduler/leader.ts';
import { startScheduler } from './scheduler/server-time.ts';
import { schedulesRoutes } from './schedules/schedules.routes.ts';
import { worldsPlayersRoutes } from './server-data/worlds-players.routes.ts';
import { ServerRegistry } from './servers/registry.ts';
import { serversRoutes } from './servers/servers.routes.ts';
import { settingsRoutes } from './settings/settings.routes.ts';
import { setupGuideRoutes } from './setup-guide/setup-guide.routes.ts';
import { shopRoutes } from './shop/shop.routes.ts';
import { usersRoutes } from './users/users.routes.ts';
import { serveWeb } from './web/static.ts';
import { WorkerPool } from './workers/worker-pool.ts';
import { attachWebSocket } from './ws/ws.gateway.ts';

/** The api's own URL from its listening address (a wildcard address becomes loopback); undefined before it listens. */
function listenUrl(address: ReturnType<FastifyInstance['server']['address']>, https: boolean): string | undefined {
  if (!address || typeof address === 'string') return undefined;
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  const host = wildcard ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `${https ? 'https' : 'http'}://${host}:${address.port}`;
}

export interface BuildOptions {
  now?: () => number;
  /** The panel's PEM pair (CANOPY_TLS_CERT/KEY, read at start): the panel then listens with HTTPS. */
  https?: { cert: string; key: string };
}

/** Assembles the api on an open, migrated database. Listening is the caller's business. */
export async function buildApp(config: Config, db: Db, opts: BuildOptions = {}) {
  // An https.Server is an http.Server to everything the api does with it (listen, address, upgrade, timeouts);
  // only Fastify's overloads tell them apart, hence the cast.
  const app = Fastify({
    https: opts.https ?? null,
    logger: { level: config.logLevel },
    // One line per request is noise at info level; debug turns it on, except for the probes' every few seconds.
    logController: new LogController({
      disableRequestLogging:
        config.logLevel !== 'debug' && config.logLevel !== 'trace'
          ? true
          : (req) => isHealthPath((req.url ?? '').split('?')[0] ?? ''),
    }),
    // Routes size their own limit from their largest legitimate request (route() spec bodyLimit).
    bodyLimit: DEFAULT_BODY_LIMIT,
    // While the api drains on SIGTERM (lifecycle/shutdown.ts), a request that arrives on a kept-alive connection
    // is served (with Connection: close) rather than refused with 503: a browser's write must not fail on a restart.
    return503OnClosing: false,
    // Headers, request and idle timeouts (ADR 0032): an idle or trickling socket does not hold a descriptor.
    ...apiServerOptions(config.http),
    // Errors the router raises before any route (a path that is not valid UTF-8) keep the api's shape.
    frameworkErrors: (error, _req, reply) =>
      (reply as FastifyReply).code(400).send({
        error: 'The address is not valid.',
        code: error.code === 'FST_ERR_BAD_URL' ? 'invalid_path' : 'bad_request',
      }),
  }) as unknown as FastifyInstance;
  guardConnections(app.server, config.http);
  const secret = loadSessionSecret(config.sessionSecret, config.dataDir);
  const now = opts.now ?? Date.now;
  const bus = new EventBus();
  const metrics = createMetrics({ defaults: config.metrics !== undefined });
  // Engines fetch the item database from the api itself (ADR 0041): its configured address, else where it listens.
  const internalUrl = () => config.internalUrl ?? listenUrl(app.server.address(), opts.https !== undefined);
  const servers = new ServerRegistry({
    config,
    db,
    bus,
    now,
    log: (msg) => app.log.warn(msg),
    internalUrl,
    metrics,
    // Known once startBackground ran (ADR 0036); the kubernetes runtime acts on crashes only on the leader.
    isLeader: () => ctx.leader?.isLeader ?? false,
  });
  const ctx: AppContext = {
    config,
    db,
    bus,
    servers,
    signer: new SessionSigner(secret, SESSION_TOKEN_TTL_SECONDS),
    log: app.log,
    now,
    metrics,
    workers: new WorkerPool(),
    readiness: new Readiness({
      db,
      runtimeNotReady: () => servers.notReady(),
      isLeader: () => ctx.leader?.isLeader ?? false,
      log: app.log,
    }),
    // Read when used: with PORT=0 the stand-in's port is known only once listening.
    get discordApiUrl() {
      if (config.discordApiUrl) return config.discordApiUrl;
      if (!config.devIdentityProvider) return DISCORD_API_DEFAULT;
      const address = app.server.address();
      return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : config.port}/dev-discord/api`;
    },
  };

  // Calls such as POST …/start have no body; clients that still send a JSON content type are fine.
  app.removeContentTypeParser('application/json');
  // A route that hands its body to an engine or a worker unparsed (`rawBody`, see route.ts) gets the bytes;
  // every other body is parsed here, and one nested too deeply is a 400 before any code walks it.
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const bytes = body as Buffer;
    if (bytes.length === 0) return done(null, undefined);
    if ((req.routeOptions.config as { rawBody?: boolean } | undefined)?.rawBody) return done(null, bytes);
    try {
      done(null, parseJsonBody(bytes));
    } catch (error) {
      done(error as AppError);
    }
  });

  app.addHook('onClose', () => ctx.workers.close());
  // Several replicas on one PostgreSQL see each other's status, notice and account events (ADR 0036).
  if (config.databaseUrl) {
    const stopRelay = await startPgRelay({ url: config.databaseUrl, db, bus, log: app.log });
    app.addHook('onClose', stopRelay);
  }
  await registerSecurityHeaders(app);
  await registerRateLimits(app);
  app.addHook('onRequest', rejectControlCharacters);
  app.addHook('onSend', answerHeaders);
  metrics.sources.servers = () => servers.feed();
  registerMetrics(app, ctx);

  app.setErrorHandler((error: FastifyError | AppError, req, reply) => {
    const tooLarge = bodyTooLarge(error as FastifyError, req);
    if (tooLarge) return reply.code(tooLarge.status).send({ error: tooLarge.message, code: tooLarge.code });
    if (error instanceof AppError) return reply.code(error.status).send({ error: error.message, code: error.code });
    // A full disk is an outage, not a bug: 507 with a clear text, and the original error in the log.
    if (isStorageFull(error)) {
      req.log.error({ err: error }, 'storage full');
      return reply.code(507).send({ error: hostingMessages.diskFull, code: 'disk_full' });
    }
    // The database down, frozen or locked past its timeouts (ADR 0029): a passing outage, not a bug.
    if (isDatabaseUnavailable(error)) {
      req.log.warn(`database unavailable: ${error.message}`);
      const answer = unavailable();
      return reply.code(answer.status).send({ error: answer.message, code: answer.code });
    }
    // A power action that lost a race with another one.
    if (error instanceof RuntimeBusyError)
      return reply.code(409).send({ error: hostingMessages.actionInProgress, code: 'action_in_progress' });
    if (error.statusCode && error.statusCode < 500)
      return reply.code(error.statusCode).send({ error: error.message, code: error.code ?? 'bad_request' });
    req.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ error: 'Internal server error.', code: 'internal' });
  });
  app.setNotFoundHandler((req, reply) =>
    reply.code(404).send({ error: `No route for ${req.method} ${req.url.split('?')[0]}.`, code: 'not_found' }),
  );

  if (!(await serveWeb(app, config.webDist)))
    app.log.warn(`web app not built (${config.webDist} missing): serving the api only; run npm run build`);
  registerIdempotency(app, ctx);
  healthRoutes(app, ctx);
  authRoutes(app, ctx);
  usersRoutes(app, ctx);
  settingsRoutes(app, ctx);
  serversRoutes(app, ctx);
  worldsPlayersRoutes(app, ctx);
  collaboratorsRoutes(app, ctx);
  itemsRoutes(app, ctx);
  backupRoutes(app, ctx);
  historyRoutes(app, ctx);
  alertsRoutes(app, ctx);
  schedulesRoutes(app, ctx);
  configRoutes(app, ctx);
  customItemsRoutes(app, ctx);
  redeemRoutes(app, ctx);
  shopRoutes(app, ctx);
  paymentsRoutes(app, ctx);
  setupGuideRoutes(app, ctx);
  feedbackRoutes(app, ctx);
  assistantRoutes(app, ctx);
  adminUsersRoutes(app, ctx);
  adminBansRoutes(app, ctx);
  adminServersRoutes(app, ctx);
  adminContentRoutes(app, ctx);
  adminRolesRoutes(app, ctx);
  openApiRoutes(app, ctx);
  attachWebSocket(app, ctx);
  if (config.devIdentityProvider) devIdpRoutes(app, ctx, secret);
  return { app, ctx };
}

/**
 * Starts what runs beside the requests: hosted servers come back (adopted or started), the scheduler
 * begins on the replica that leads (ctx.leader) and the login gateway listens (ctx.gateway, with its bound ports). The returned function stops them in order, leaving engines running unless told otherwise.
 */
export async function startBackground(ctx: AppContext): Promise<(opts?: { stopServers?: boolean }) => Promise<void>> {
  await ctx.servers.boot();
  // Platform-wide jobs run on one replica at a time (ADR 0036); on SQLite this one always leads.
  const leader = await startLeadership({
    databaseUrl: ctx.config.databaseUrl,
    retryMs: ctx.config.schedulerLeaderRetryMs,
    log: ctx.log,
    lead: () => {
      const stops = [startScheduler(ctx, ctx.config.schedulerIntervalMs), startAlertDelivery(ctx)];
      return async () => {
        await Promise.all(stops.map((stop) => stop()));
      };
    },
  });
  ctx.leader = leader;
  // Each replica samples the engines it runs (a cluster-wide driver: the leader only; history/sampler.ts).
  const stopSampler = startHistorySampler(ctx);
  if (ctx.config.gateway.enabled) {
    // A port taken by another program must not keep the panel down: players cannot join until it is
    // freed, but owners can still manage their servers.
    try {
      ctx.gateway = await startGateway(embeddedGatewayContext(ctx));
    } catch (error) {
      ctx.log.error(
        `The login gateway did not start: ${(error as Error).message}. The panel runs without it; free the port or set ` +
          'CANOPY_GATEWAY_TLS_PORT / CANOPY_GATEWAY_UDP_PORT (CANOPY_GATEWAY=off to not start it).',
      );
    }
  }
  ctx.readiness.markStarted();
  return async ({ stopServers = ctx.config.stopServersOnExit } = {}) => {
    await ctx.gateway?.stop();
    stopSampler();
    await leader.stop();
    await ctx.servers.runtime.shutdown({ stopServers });
  };
}
