import { createHmac } from 'node:crypto';
import { gatewayMessages } from '@canopy/contract';
import { settingsRepo } from '../../settings/settings.repo.ts';
import { WindowCounter } from '../rate-limit.ts';
import type { GatewayContext } from '../tenants.ts';
import { createLoginHandlers } from './login-handlers.ts';
import type { GatewayRequest, HttpAnswer } from './messages.ts';
import { bodyOf, HttpRefusal } from './request-body.ts';
import { answer } from './respond.ts';
import { gatewayRoute } from './routes.ts';
import { serverDataBody } from './server-data.ts';

/** What the gateway's answers need besides the api's context. */
export interface GatewayHandlerOptions {
  /** What loginurl names when a login host is configured (`name[:port]`); unset: the Host asked for. */
  loginUrl?: string;
  gatewayKey: Buffer;
  /** The front's UDP port as bound (read at each answer: it is known once the front is up). */
  udpPort: () => number;
}

/** Requests per minute one IP may make to the gateway's HTTPS side, and token calls per IP and per GrowID. */
export const GATEWAY_LIMITS = {
  requestsPerIp: { max: 120, windowMs: 60_000 },
  loginsPerIp: { max: 30, windowMs: 60_000 },
  loginsPerGrowId: { max: 10, windowMs: 60_000 },
};

// A Host header fit to hand back as loginurl: a DNS name or IPv4 address, nothing that could break the body.
const hostPattern = /^[A-Za-z0-9.-]{1,253}$/;

/**
 * The gateway's HTTPS calls as the api answers them (ADR 0026, 0032): server_data.php, the login page and its
 * token calls, with per-IP limits. TLS, HTTP parsing, timeouts and bodies are the TLS thread's (tls-thread.ts),
 * which hands each request here, so a flood of connections costs this event loop nothing.
 */
export function createGatewayHandler(ctx: GatewayContext, opts: GatewayHandlerOptions) {
  const perIp = new WindowCounter(GATEWAY_LIMITS.requestsPerIp);
  const login = createLoginHandlers(ctx, opts.gatewayKey, GATEWAY_LIMITS);
  // Opaque to the client, which echoes it back; stable per install so it tells nothing about time or load.
  const meta = createHmac('sha256', opts.gatewayKey).update('server_data meta').digest('base64url').slice(0, 16);

  const serverData = async (request: GatewayRequest): Promise<HttpAnswer> => {
    bodyOf(request);
    let loginUrl = opts.loginUrl;
    // Development, without CANOPY_LOGIN_HOST: the page is on this gateway, under the name the client asked for.
    if (loginUrl === undefined) {
      const host = request.host.replace(/:\d+$/, '');
      loginUrl = `${hostPattern.test(host) ? host : ctx.config.publicIp}:${request.localPort || 443}`;
    }
    const { maintenance } = await settingsRepo.load(ctx.db);
    return answer(
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

  return async (request: GatewayRequest): Promise<HttpAnswer> => {
    try {
      if (!perIp.hit(request.ip, ctx.now())) throw new HttpRefusal(429, 'Too many requests.');
      switch (gatewayRoute(request.method, request.path)?.name) {
        case 'serverData':
          return await serverData(request);
        case 'loginPage':
          return await login.loginPage(request);
        case 'validate':
          return await login.validate(request);
        case 'checkToken':
          return await login.checkToken(request);
        default:
          throw new HttpRefusal(404, 'Not found.');
      }
    } catch (error) {
      const status = error instanceof HttpRefusal ? error.status : 500;
      if (status === 500) ctx.log.error({ err: error }, 'gateway request failed');
      return answer(status, 'text/plain; charset=utf-8', status === 500 ? 'Internal error.' : (error as Error).message);
    }
  };
}
