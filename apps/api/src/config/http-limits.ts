import { z } from 'zod';

// How long a connection may take and how many one address may hold (CANOPY_HTTP_*, CANOPY_GATEWAY_HANDSHAKE*):
// what config.ts reads for them, the checks across them, and the shape the servers are given (ADR 0032).

// An empty variable (`CANOPY_HTTP_IDLE_TIMEOUT_MS=` in an env file) is the default, as if unset.
const orDefault = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema);
const count = (min: number, fallback: number) =>
  orDefault(z.coerce.number().int().min(min).max(1_000_000).default(fallback));
const ms = (min: number, fallback: number) =>
  orDefault(z.coerce.number().int().min(min).max(3_600_000).default(fallback));

/** The environment variables of the connection limits, spread into config.ts's schema. */
export const httpLimitsEnv = {
  // Time to receive a request's whole header block, counted from the connection (or the previous answer).
  CANOPY_HTTP_HEADERS_TIMEOUT_MS: ms(50, 10_000),
  // Time to receive a whole request, body included: the largest body (a world, 3.5 MB) at 256 kbit/s fits.
  CANOPY_HTTP_REQUEST_TIMEOUT_MS: ms(50, 120_000),
  // A socket on which nothing moves for this long is closed, and so is a kept-alive one between requests.
  CANOPY_HTTP_IDLE_TIMEOUT_MS: ms(50, 30_000),
  CANOPY_HTTP_CONNECTIONS_PER_IP: count(1, 64),
  // New TLS connections to the gateway per address: a bucket of this many, refilled at this rate per second.
  CANOPY_GATEWAY_HANDSHAKE_BURST: count(1, 30),
  CANOPY_GATEWAY_HANDSHAKES_PER_SECOND: orDefault(z.coerce.number().min(0.001).max(1_000_000).default(2)),
  CANOPY_GATEWAY_PENDING_HANDSHAKES_PER_IP: count(1, 8),
};

/** Timeouts and the per-address cap of an HTTP(S) server. */
export interface HttpLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  idleTimeoutMs: number;
  /** Sockets one remote address may hold open at once (WebSockets included); more are closed on connect. */
  connectionsPerIp: number;
}

/** What the gateway's TLS server admits per address before any handshake work (gateway/tls/handshake-limits.ts). */
export interface HandshakeLimits {
  burst: number;
  perSecond: number;
  pendingPerIp: number;
}

type HttpLimitsParsed = { [K in keyof typeof httpLimitsEnv]: z.infer<(typeof httpLimitsEnv)[K]> };

/** The api server's limits from the parsed variables. */
export const httpLimitsOf = (e: HttpLimitsParsed): HttpLimits => ({
  headersTimeoutMs: e.CANOPY_HTTP_HEADERS_TIMEOUT_MS,
  requestTimeoutMs: e.CANOPY_HTTP_REQUEST_TIMEOUT_MS,
  idleTimeoutMs: e.CANOPY_HTTP_IDLE_TIMEOUT_MS,
  connectionsPerIp: e.CANOPY_HTTP_CONNECTIONS_PER_IP,
});

/** The gateway's handshake limits from the parsed variables. */
export const handshakeLimitsOf = (e: HttpLimitsParsed): HandshakeLimits => ({
  burst: e.CANOPY_GATEWAY_HANDSHAKE_BURST,
  perSecond: e.CANOPY_GATEWAY_HANDSHAKES_PER_SECOND,
  pendingPerIp: e.CANOPY_GATEWAY_PENDING_HANDSHAKES_PER_IP,
});

/** What is wrong across the limits (each alone is checked by its schema), by variable. */
export function httpLimitIssues(e: HttpLimitsParsed): { path: string[]; message: string }[] {
  // Node refuses a headers timeout longer than the request timeout: the headers are part of the request.
  return e.CANOPY_HTTP_HEADERS_TIMEOUT_MS > e.CANOPY_HTTP_REQUEST_TIMEOUT_MS
    ? [{ path: ['CANOPY_HTTP_HEADERS_TIMEOUT_MS'], message: 'must not exceed CANOPY_HTTP_REQUEST_TIMEOUT_MS' }]
    : [];
}
