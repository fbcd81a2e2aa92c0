/**
 * The gateway's HTTPS server in its own thread (ADR 0032): TLS handshakes, HTTP parsing, timeouts, bodies and the
 * per-address limits run here, off the api's event loop; each request, body read, goes to the api over the
 * thread's port and its answer comes back. Started by tls-thread-host.ts with a TlsThreadStart as workerData.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import { parentPort, workerData } from 'node:worker_threads';
import { capConnectionsPerAddress, keepWhileAnswering } from '../../http/connections.ts';
import { HandshakeAdmission, limitHandshakes } from '../tls/handshake-limits.ts';
import { SniContexts } from '../tls/sni-contexts.ts';
import type { FromTlsThread, GatewayRequest, TlsThreadStart, ToTlsThread } from './messages.ts';
import { HttpRefusal, readBody } from './request-body.ts';
import { send, writeAnswer } from './respond.ts';
import { gatewayRoute } from './routes.ts';

const HEADERS_TIMEOUT_MS = 5000;
const REQUEST_TIMEOUT_MS = 10_000;
const KEEP_ALIVE_TIMEOUT_MS = 5000;
/** A socket on which nothing moves for this long is closed (an answer the api is still working on is spared). */
const IDLE_TIMEOUT_MS = 10_000;

const port = parentPort;
if (!port) throw new Error('tls-thread.ts runs as a worker thread');
const start = workerData as TlsThreadStart;
const tell = (message: FromTlsThread) => port.postMessage(message);

const sni = new SniContexts(start.loginName);
if (start.login) void sni.setLogin(start.login.pair, start.login.source);

// Requests waiting for the api's answer, by id.
const waiting = new Map<number, { req: IncomingMessage; res: ServerResponse }>();
let nextId = 1;

const finish = (req: IncomingMessage, res: ServerResponse, write: () => void) => {
  // An unread body would hold the connection open; a request answered before its body ends it.
  if (!req.complete) res.setHeader('connection', 'close');
  if (!res.headersSent && !res.destroyed) write();
  if (!req.complete) req.socket.destroySoon();
};

const handle = async (req: IncomingMessage, res: ServerResponse) => {
  const method = req.method ?? 'GET';
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const limit = gatewayRoute(method, path)?.bodyLimit ?? 0;
  const request: GatewayRequest = {
    method,
    path,
    ip: req.socket.remoteAddress ?? 'unknown',
    host: String(req.headers.host ?? ''),
    localPort: req.socket.localPort ?? 0,
    contentType: String(req.headers['content-type'] ?? ''),
  };
  if (limit > 0) {
    try {
      request.body = await readBody(req, limit);
    } catch (error) {
      if (!(error instanceof HttpRefusal)) return void req.socket.destroy();
      request.bodyTooLarge = true;
    }
  }
  const id = nextId++;
  waiting.set(id, { req, res });
  res.once('close', () => waiting.delete(id));
  tell({ type: 'request', id, request });
};

const server = createServer(
  {
    ...start.tls,
    SNICallback: sni.callback,
    // Short everything: a client that trickles its handshake, headers or body is dropped (slowloris).
    handshakeTimeout: HEADERS_TIMEOUT_MS,
    headersTimeout: HEADERS_TIMEOUT_MS,
    requestTimeout: REQUEST_TIMEOUT_MS,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    connectionsCheckingInterval: 1000,
    maxHeaderSize: 8192,
  },
  (req, res) =>
    void handle(req, res).catch((error: Error) => {
      tell({ type: 'log', level: 'error', message: `gateway https: ${error.message}` });
      finish(req, res, () => send(res, 500, 'text/plain; charset=utf-8', 'Internal error.'));
    }),
);
server.maxConnections = 2000;
server.maxRequestsPerSocket = 20;
server.setTimeout(IDLE_TIMEOUT_MS);
keepWhileAnswering(server);
// Both on 'connection', before the ClientHello is read: first the sockets one address holds, then the handshakes.
capConnectionsPerAddress(server, start.connectionsPerIp);
limitHandshakes(server, new HandshakeAdmission(start.handshakes));
// A handshake refused, timed out or broken is the client's business, not the log's.
server.on('tlsClientError', () => {});

port.on('message', (message: ToTlsThread) => {
  if (message.type === 'answer') {
    const entry = waiting.get(message.id);
    if (!entry) return;
    waiting.delete(message.id);
    finish(entry.req, entry.res, () => writeAnswer(entry.res, message.answer));
  } else if (message.type === 'login') {
    try {
      sni.setLogin(message.pair, message.source);
    } catch (error) {
      tell({ type: 'log', level: 'error', message: `gateway https: login certificate: ${(error as Error).message}` });
    }
    tell({ type: 'login-done', seq: message.seq });
  }
});

const failed = (error: Error) => tell({ type: 'failed', message: error.message });
server.once('error', failed);
server.listen(start.port, start.host, () => {
  server.off('error', failed);
  server.on('error', (error) => tell({ type: 'log', level: 'error', message: `gateway https: ${error.message}` }));
  const address = server.address();
  tell({ type: 'ready', port: typeof address === 'object' && address ? address.port : start.port });
});
