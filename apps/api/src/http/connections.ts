import type { Server as HttpServer } from 'node:http';
import type { Server } from 'node:net';
import type { HttpLimits } from '../config/http-limits.ts';

/**
 * How often node looks for requests past their headers or request timeout (its default, 30 s, would let a
 * silent socket live up to 30 s past a 10 s headers timeout); a quarter of it, between 50 ms and 1 s.
 */
export const checkingIntervalFor = (headersTimeoutMs: number) =>
  Math.max(50, Math.min(1000, Math.floor(headersTimeoutMs / 4)));

/**
 * The api's Fastify server options for its limits (ADR 0032): the headers timeout (counted from the connection,
 * so a socket that never sends a request is closed by it), the request timeout, and the idle timeout between
 * kept-alive requests and on a socket where nothing moves (see guardConnections for the answers the api is still
 * working on). A WebSocket leaves them all behind at its upgrade (node stops tracking its request; ws clears the
 * socket timeout): the console lives on its own heartbeat.
 */
export function apiServerOptions(limits: HttpLimits) {
  return {
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.idleTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: checkingIntervalFor(limits.headersTimeoutMs),
    },
  };
}

/**
 * The api server's connection guards: the per-address cap, and the idle timeout kept off a request whose answer
 * the api is still working on (a backup takes minutes with nothing on the wire). Once the answer has begun, a
 * client that stops reading it for the idle timeout loses its socket, as an idle one does.
 */
export function guardConnections(server: HttpServer, limits: HttpLimits): void {
  capConnectionsPerAddress(server, limits.connectionsPerIp);
  keepWhileAnswering(server);
}

/**
 * The socket timeout (server.setTimeout) spares a request whose answer has not begun: the server is working on it.
 * Once the answer is under way, a socket on which nothing moves for the timeout is closed.
 */
export function keepWhileAnswering(server: HttpServer): void {
  server.on('request', (_req, res) => {
    // A listener on the answer's 'timeout' keeps node from destroying the socket; it decides instead.
    res.on('timeout', () => {
      if (res.headersSent) res.socket?.destroy();
    });
  });
}

/**
 * Closes, at once, a socket whose remote address already holds `max` open ones (ADR 0032). Counted on the
 * server's 'connection' event, before any byte is read (on a TLS server, before the handshake), and released
 * when the socket closes. Returns the live count per address (read by tests).
 */
export function capConnectionsPerAddress(server: Server, max: number): (address: string) => number {
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress;
    // A socket already gone by the time it is seen has no address; there is nothing to count or close.
    if (!address) return void socket.destroy();
    const held = open.get(address) ?? 0;
    if (held >= max) return void socket.destroy();
    open.set(address, held + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
  return (address) => open.get(address) ?? 0;
}
