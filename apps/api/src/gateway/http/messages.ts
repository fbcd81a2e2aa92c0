import type { HandshakeLimits } from '../../config/http-limits.ts';
import type { TlsPair } from '../keys.ts';

// What the api and the gateway's TLS thread say to each other (ADR 0032): the thread terminates TLS and HTTP and
// hands each request, body read, to the api's handlers; the api answers and keeps the login certificate current.

/** One request as the TLS thread read it. */
export interface GatewayRequest {
  method: string;
  /** The path without the query. */
  path: string;
  /** The client's address (per-IP limits). */
  ip: string;
  /** The Host header ('' when none). */
  host: string;
  /** The port the client reached (loginurl names it in development). */
  localPort: number;
  contentType: string;
  /** The body, when the route reads one and it fit its limit. */
  body?: Uint8Array;
  /** The body went past the route's limit; the rest was not read. */
  bodyTooLarge?: boolean;
}

/** A whole answer: status, headers (content length included) and the text. */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string | number>;
  body: string;
}

/** The login host's certificate as the thread serves it (ADR 0027). */
export interface LoginPairMessage {
  pair: TlsPair;
  source: 'operator' | 'acme';
}

/** What the thread is started with (workerData). */
export interface TlsThreadStart {
  host: string;
  port: number;
  /** The default pair, for every name but the login host's. */
  tls: TlsPair;
  loginName?: string;
  login?: LoginPairMessage;
  connectionsPerIp: number;
  handshakes: HandshakeLimits;
}

/** The api to the thread. */
export type ToTlsThread =
  | { type: 'answer'; id: number; answer: HttpAnswer }
  | ({ type: 'login'; seq: number } & LoginPairMessage);

/** The thread to the api. */
export type FromTlsThread =
  | { type: 'ready'; port: number }
  | { type: 'failed'; message: string }
  | { type: 'request'; id: number; request: GatewayRequest }
  | { type: 'login-done'; seq: number }
  | { type: 'log'; level: 'warn' | 'error'; message: string };
