import { createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { gatewayMessages } from '@canopy/contract';
import type { AppContext } from '../../context.ts';
import { settingsRepo } from '../../settings/settings.repo.ts';
import type { TlsPair } from '../keys.ts';
import { WindowCounter } from '../rate-limit.ts';
import type { SniContexts } from '../tls/sni-contexts.ts';
import { createLoginHandlers } from './login-handlers.ts';
import { HttpRefusal, readBody } from './request-body.ts';
import { send } from './respond.ts';
import { serverDataBody } from './server-data.ts';

/** What the HTTPS side needs besides the api's context. */
export interface GatewayHttpsOptions {
  /** The default pair: served for every name but the login host's. */
  tls: TlsPair;
  /** The login host's certificate by server name (ADR 0027). */
  sni: SniContexts;
  /** What loginurl names when a login host is configured (`name[:port]`); unset: the Host asked for. */
  loginUrl?: string;
  gatewayKey: Buffer;
  /** The front's UDP port as bound (read at each answer: it is known once the front is up). */
  udpPort: () => number;
}

/** Largest body of server_data.php: the client's form is a few hundred bytes. */
export const GATEWAY_BODY_LIMIT = 4096;
/** Requests per minute one IP may make to the gateway's HTTPS side, and token calls per IP and per GrowID. */
export const GATEWAY_LIMITS = {
  requestsPerIp: { max: 120, windowMs: 60_000 },
  loginsPerIp: { max: 30, windowMs: 60_000 },
  loginsPerGrowId: { max: 10, windowMs: 60_000 },
};
const HEADERS_TIMEOUT_MS = 5000;
const REQUEST_TIMEOUT_MS = 10_000;

// A Host header fit to hand back as loginurl: a DNS name or IPv4 address, nothing that could break the body.
const hostPattern = /^[A-Za-z0-9.-]{1,253}$/;

/**
 * The gateway's HTTPS side (ADR 0026): server_data.php, the login page and its token calls, on plain
 * node:https with short timeouts, small bodies and per-IP limits, so a slow or huge request costs little.
 */
export function createGatewayHttps(ctx: AppContext, opts: GatewayHttpsOptions): Server {
  const perIp = new WindowCounter(GATEWAY_LIMITS.requestsPerIp);
  const login = createLoginHandlers(ctx, opts.gatewayKey, GATEWAY_LIMITS);
  // Opaque to the client, which echoes it back; stable per install so it tells nothing about time or load.
  const meta = createHmac('sha256', opts.gatewayKey).update('server_data meta').digest('base64url').slice(0, 16);

  const serverData = async (req: IncomingMessage, res: ServerResponse) => {
    await readBody(req, GATEWAY_BODY_LIMIT);
    let loginUrl = opts.loginUrl;
    // Development, without CANOPY_LOGIN_HOST: the page is on this gateway, under the name the client asked for.
    if (loginUrl === undefined) {
      const host = String(req.headers.host ?? '').replace(/:\d+$/, '');
      loginUrl = `${hostPattern.test(host) ? host : ctx.config.publicIp}:${req.socket.localPort ?? 443}`;
    }
    const { maintenance } = await settingsRepo.load(ctx.db);
    send(
      res,
      200,
      'text/plain; charset=utf-8',
      serverDataBody({
        ip: ctx.config.publicIp,
        udpPort: opts.udpPort(),
        loginUrl,
        meta,
        maintenance: maintenance ? gatewayMessages.maintenance : undefined,
      }),
    );
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const ip = req.socket.remoteAddress ?? 'unknown';
    const path = (req.url ?? '/').split('?')[0];
    try {
      if (!perIp.hit(ip, ctx.now())) throw new HttpRefusal(429, 'Too many requests.');
      if (path === '/growtopia/server_data.php' && req.method === 'POST') await serverData(req, res);
      else if (path === '/player/login/dashboard' && (req.method === 'GET' || req.method === 'POST'))
        await login.loginPage(req, res);
      else if (path === '/player/growid/login/validate' && req.method === 'POST') await login.validate(req, res, ip);
      else if (path === '/player/growid/checktoken' && req.method === 'POST') await login.checkToken(req, res, ip);
      else throw new HttpRefusal(404, 'Not found.');
    } catch (error) {
      const status = error instanceof HttpRefusal ? error.status : 500;
      if (status === 500) ctx.log.error({ err: error }, 'gateway request failed');
      // An unread body would hold the connection open; a refused request ends it.
      if (!req.complete) res.setHeader('connection', 'close');
      if (!res.headersSent)
        send(res, status, 'text/plain; charset=utf-8', status === 500 ? 'Internal error.' : (error as Error).message);
      if (!req.complete) req.socket.destroySoon();
    }
  };

  const server = createServer(
    {
      ...opts.tls,
      SNICallback: opts.sni.callback,
      // Short everything: a client that trickles its handshake, headers or body is dropped (slowloris).
      handshakeTimeout: HEADERS_TIMEOUT_MS,
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      keepAliveTimeout: 5000,
      connectionsCheckingInterval: 1000,
      maxHeaderSize: 8192,
    },
    (req, res) => void handle(req, res),
  );
  server.maxConnections = 2000;
  server.maxRequestsPerSocket = 20;
  return server;
}
