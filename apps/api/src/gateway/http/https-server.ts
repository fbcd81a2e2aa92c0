import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { type GatewayLoginResponse, gatewayLoginRequestSchema, gatewayMessages } from '@canopy/contract';
import type { AppContext } from '../../context.ts';
import { settingsRepo } from '../../settings/settings.repo.ts';
import type { TlsPair } from '../keys.ts';
import { GatewayRefusal, loginToServer } from '../login.service.ts';
import { WindowCounter } from '../rate-limit.ts';
import { loginPageCsp, loginPageHtml } from './login-page.ts';
import { HttpRefusal, parseFields, readBody } from './request-body.ts';
import { serverDataBody } from './server-data.ts';

/** What the HTTPS side needs besides the api's context. */
export interface GatewayHttpsOptions {
  tls: TlsPair;
  gatewayKey: Buffer;
  /** The front's UDP port as bound (read at each answer: it is known once the front is up). */
  udpPort: () => number;
}

/** Largest body of any gateway call: the client's server_data form and the login form are a few hundred bytes. */
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

const securityHeaders = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
};

function send(res: ServerResponse, status: number, type: string, body: string, extra: Record<string, string> = {}) {
  const bytes = Buffer.from(body);
  res.writeHead(status, { ...securityHeaders, 'content-type': type, 'content-length': bytes.length, ...extra });
  res.end(bytes);
}

const sendJson = (res: ServerResponse, status: number, body: GatewayLoginResponse) =>
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body));

/**
 * The gateway's HTTPS side (ADR 0026): server_data.php, the login page and its token call, on plain
 * node:https with short timeouts, small bodies and per-IP limits, so a slow or huge request costs little.
 */
export function createGatewayHttps(ctx: AppContext, opts: GatewayHttpsOptions): Server {
  const perIp = new WindowCounter(GATEWAY_LIMITS.requestsPerIp);
  const loginsPerIp = new WindowCounter(GATEWAY_LIMITS.loginsPerIp);
  const loginsPerGrowId = new WindowCounter(GATEWAY_LIMITS.loginsPerGrowId);
  // Opaque to the client, which echoes it back; stable per install so it tells nothing about time or load.
  const meta = createHmac('sha256', opts.gatewayKey).update('server_data meta').digest('base64url').slice(0, 16);

  const serverData = async (req: IncomingMessage, res: ServerResponse) => {
    await readBody(req, GATEWAY_BODY_LIMIT);
    const address = req.socket.localPort ?? 443;
    const host = String(req.headers.host ?? '').replace(/:\d+$/, '');
    const loginHost = hostPattern.test(host) ? host : ctx.config.publicIp;
    const { maintenance } = await settingsRepo.load(ctx.db);
    send(
      res,
      200,
      'text/plain; charset=utf-8',
      serverDataBody({
        ip: ctx.config.publicIp,
        udpPort: opts.udpPort(),
        loginUrl: `${loginHost}:${address}`,
        meta,
        maintenance: maintenance ? gatewayMessages.maintenance : undefined,
      }),
    );
  };

  const loginPage = async (req: IncomingMessage, res: ServerResponse) => {
    // The client's web view posts its own fields here; they are not needed, only bounded.
    if (req.method === 'POST') await readBody(req, GATEWAY_BODY_LIMIT);
    const online = ctx.servers
      .feed()
      .filter((s) => s.status === 'ONLINE')
      .map((s) => s.name)
      .sort((a, b) => a.localeCompare(b));
    const nonce = randomBytes(16).toString('base64');
    send(res, 200, 'text/html; charset=utf-8', loginPageHtml(online, nonce), {
      'content-security-policy': loginPageCsp(nonce),
      'x-frame-options': 'DENY',
    });
  };

  const validate = async (req: IncomingMessage, res: ServerResponse, ip: string) => {
    const fields = parseFields(req, await readBody(req, GATEWAY_BODY_LIMIT));
    const now = ctx.now();
    if (!loginsPerIp.hit(ip, now))
      return sendJson(res, 429, { status: 'error', message: gatewayMessages.tooManyAttempts });
    const parsed = gatewayLoginRequestSchema.safeParse(fields);
    if (!parsed.success) {
      const field = parsed.error.issues[0]?.path[0];
      const message =
        field === 'server'
          ? gatewayMessages.serverNameInvalid
          : field === 'password'
            ? gatewayMessages.passwordInvalid
            : gatewayMessages.growIdInvalid;
      return sendJson(res, 400, { status: 'error', message });
    }
    const input = parsed.data;
    const account = `${input.server.toLowerCase()}\0${input.growId.toLowerCase()}`;
    if (!loginsPerGrowId.hit(account, now))
      return sendJson(res, 429, { status: 'error', message: gatewayMessages.tooManyAttempts });
    try {
      const login = await loginToServer(ctx, opts.gatewayKey, input);
      ctx.log.info(`gateway: ${login.growId} signed in to ${login.server}${login.created ? ' (new GrowID)' : ''}`);
      sendJson(res, 200, {
        status: 'success',
        message: (login.created ? gatewayMessages.created : gatewayMessages.loggedIn)(login.growId, login.server),
        token: login.token,
        url: '',
        accountType: 'growtopia',
      });
    } catch (error) {
      if (!(error instanceof GatewayRefusal)) throw error;
      sendJson(res, error.status, { status: 'error', message: error.message });
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const ip = req.socket.remoteAddress ?? 'unknown';
    const path = (req.url ?? '/').split('?')[0];
    try {
      if (!perIp.hit(ip, ctx.now())) throw new HttpRefusal(429, 'Too many requests.');
      if (path === '/growtopia/server_data.php' && req.method === 'POST') await serverData(req, res);
      else if (path === '/player/login/dashboard' && (req.method === 'GET' || req.method === 'POST'))
        await loginPage(req, res);
      else if (path === '/player/growid/login/validate' && req.method === 'POST') await validate(req, res, ip);
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
