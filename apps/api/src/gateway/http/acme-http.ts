import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { WindowCounter } from '../rate-limit.ts';
import type { ChallengeBook } from '../tls/challenge-book.ts';
import { send } from './respond.ts';

/** What the plain-HTTP listener needs: the published answers, where to send everything else, the clock. */
export interface AcmeHttpOptions {
  challenges: ChallengeBook;
  /** The login host as loginurl names it (`name[:port]`): other GET paths are redirected to it over HTTPS. */
  loginUrl: string;
  now: () => number;
}

const CHALLENGE_PREFIX = '/.well-known/acme-challenge/';
// RFC 8555 8.3: a token is base64url; a bound keeps lookups small.
const tokenPattern = /^[A-Za-z0-9_-]{1,256}$/;
// A path fit to carry into the redirect: no scheme-relative `//`, no control characters or quotes.
const pathPattern = /^\/(?!\/)[A-Za-z0-9._~!$&'()*+,;=:@%/-]{0,1024}$/;

/** Requests per minute one IP may make to the HTTP listener (the CA fetches each token a few times). */
export const ACME_HTTP_REQUESTS_PER_IP = { max: 60, windowMs: 60_000 };

// Nothing here reads a body: a request that sent one does not keep the connection.
const answer = (res: ServerResponse, status: number, body: string, extra: Record<string, string> = {}) =>
  send(res, status, 'text/plain; charset=utf-8', body, { connection: 'close', ...extra });

/**
 * The small plain-HTTP listener of ACME's HTTP-01 (ADR 0027, port CANOPY_ACME_HTTP_PORT): it answers
 * `/.well-known/acme-challenge/<token>` with the published key authorization, redirects every other GET to
 * the login page's HTTPS, and refuses other methods. It reads no body and keeps no connection open long.
 */
export function createAcmeHttpServer(opts: AcmeHttpOptions): Server {
  const perIp = new WindowCounter(ACME_HTTP_REQUESTS_PER_IP);
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    if (!perIp.hit(req.socket.remoteAddress ?? 'unknown', opts.now())) return answer(res, 429, 'Too many requests.');
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return answer(res, 405, 'Method not allowed.', { allow: 'GET, HEAD' });
    if (path.startsWith(CHALLENGE_PREFIX)) {
      const token = path.slice(CHALLENGE_PREFIX.length);
      const key = tokenPattern.test(token) ? opts.challenges.answer(token) : undefined;
      return key === undefined ? answer(res, 404, 'No such challenge.') : answer(res, 200, key);
    }
    const location = `https://${opts.loginUrl}${pathPattern.test(path) ? path : '/'}`;
    answer(res, 301, `Moved to ${location}`, { location });
  };
  const server = createServer(
    {
      headersTimeout: 5000,
      requestTimeout: 10_000,
      keepAliveTimeout: 2000,
      connectionsCheckingInterval: 1000,
      maxHeaderSize: 8192,
    },
    handle,
  );
  server.maxConnections = 500;
  // Nothing moving on a socket for 10 s: it goes (every answer here is immediate). The per-address cap is the
  // caller's (login-certificates.ts), from the configuration.
  server.setTimeout(10_000);
  return server;
}
