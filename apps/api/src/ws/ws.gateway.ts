import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  clientSocketMessageSchema,
  type ServerSocketMessage,
  SOCKET_BATCH_PARAM,
  socketCloseCodes,
  socketCloseReasons,
} from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import { WebSocket, WebSocketServer } from 'ws';
import { authenticate } from '../auth/guard.ts';
import { collaboratorsRepo } from '../collaborators/collaborators.repo.ts';
import type { AppContext } from '../context.ts';
import { isDatabaseUnavailable } from '../db/db.ts';
import type { StatusEvent } from '../events/bus.ts';
import { serversRepo } from '../servers/servers.repo.ts';
import { ConsoleHub } from './console-feed.ts';
import { ConsoleSession, userCommandBucket } from './console-session.ts';
import { startLiveSockets } from './live-sockets.ts';
import { TokenBucket } from './rate-limit.ts';
import {
  CLEAR_REFUSALS_BURST,
  CLEAR_REFUSALS_PER_SECOND,
  defaultMaxSockets,
  HANDSHAKE_TIMEOUT_MS,
  MAX_SOCKETS_PER_USER,
  maxInboundConnections,
  openFileLimit,
  SocketAdmission,
  type UpgradeRefusal,
} from './socket-limits.ts';

const PATH = /^\/ws\/([^/?]+)$/;
const HEARTBEAT_MS = 30_000;

/** One open socket: whose it is and what it follows. */
export interface Connection {
  ws: WebSocket;
  userId: string;
  alive: boolean;
  console: ConsoleSession;
}

const statusMessage = (e: Pick<StatusEvent, 'name' | 'status' | 'players'>): ServerSocketMessage => ({
  type: 'status_update',
  payload: { name: e.name, status: e.status, players: e.players },
});

/** The HTTP answer to an upgrade refused before it costs more than its descriptor. */
function upgradeRefusal(refusal: UpgradeRefusal | 'too_many_for_user'): string {
  const [status, retryAfter, reason] =
    refusal === 'busy'
      ? ['503 Service Unavailable', 30, socketCloseReasons.tryAgainLater]
      : ['429 Too Many Requests', refusal === 'too_many_for_user' ? 30 : 5, socketCloseReasons.tooManyConnections];
  return `HTTP/1.1 ${status}\r\nRetry-After: ${retryAfter}\r\nContent-Type: text/plain\r\nContent-Length: ${reason.length}\r\nConnection: close\r\n\r\n${reason}`;
}

/**
 * WebSocket /ws/{userId}?token=…[&batch=1]: authenticated with the session token; a bad or expired token or
 * someone else's id is closed with 1008 (the browser refreshes and retries). Pushes status updates to the
 * owner and collaborators of a server, and carries the console (see console-session.ts).
 *
 * Limits (socket-limits.ts), checked before any authentication work: all sockets together stay under
 * half the descriptor limit (else HTTP 503), handshakes still being authenticated are bounded per address
 * (else HTTP 429) and must finish within HANDSHAKE_TIMEOUT_MS, and a user holds at most
 * MAX_SOCKETS_PER_USER sockets (more are closed with 4029 'Too many connections'; a flood of them gets HTTP
 * 429 before the handshake once CLEAR_REFUSALS_BURST were told). Console commands are
 * rate-limited per user, across all of their sockets.
 */
export function attachWebSocket(app: FastifyInstance, ctx: AppContext) {
  /** The token is genuine, current and this user's: only then may an answer reveal that they are at the cap. */
  const ownToken = (token: string, userId: string) => {
    const claims = ctx.signer.verify(token, ctx.now());
    return !!claims && claims !== 'expired' && claims.sub === userId;
  };
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const byUser = new Map<string, Set<Connection>>();
  const all = () => [...byUser.values()].flatMap((s) => [...s]);
  const fdLimit = openFileLimit();
  const maxSockets = ctx.config.maxSockets ?? defaultMaxSockets(fdLimit);
  const admission = new SocketAdmission(maxSockets);
  // Every inbound connection holds a descriptor; past this Node drops new ones instead of running out.
  app.server.maxConnections = maxInboundConnections(fdLimit, maxSockets);
  // Kept while a user has no socket until it has refilled, so closing and reopening buys no commands.
  const buckets = new Map<string, TokenBucket>();
  const bucketOf = (userId: string) => {
    let bucket = buckets.get(userId);
    if (!bucket) {
      bucket = userCommandBucket(ctx.now);
      buckets.set(userId, bucket);
    }
    return bucket;
  };
  // On PostgreSQL the per-user cap counts the user's sockets on every replica (ADR 0038); the local count below
  // stays as the cheap first check, which alone is the whole count on SQLite.
  const live =
    ctx.db.dialect === 'postgres'
      ? startLiveSockets(ctx.db, (error) => ctx.log.warn({ err: error }, 'could not update the shared socket count'))
      : undefined;
  const atUserCap = (userId: string) => (byUser.get(userId)?.size ?? 0) >= MAX_SOCKETS_PER_USER;
  // A user at the cap is told so with a WebSocket close (4029 and its reason) a few times; a flood past
  // that is refused with HTTP 429 before the handshake, which costs the api a fraction of a full one.
  const clearRefusals = new Map<string, TokenBucket>();
  const refuseCheaply = (userId: string) => {
    let bucket = clearRefusals.get(userId);
    if (!bucket) {
      bucket = new TokenBucket(CLEAR_REFUSALS_BURST, CLEAR_REFUSALS_PER_SECOND, ctx.now);
      clearRefusals.set(userId, bucket);
    }
    return !bucket.take();
  };
  const tooMany = (ws: WebSocket) =>
    ws.close(socketCloseCodes.tooManyConnections, socketCloseReasons.tooManyConnections);

  ctx.bus.on('status', async (e) => {
    const audience = [e.ownerId, ...(await collaboratorsRepo.audience(ctx.db, e.serverId).catch(() => []))];
    const data = JSON.stringify(statusMessage(e));
    for (const userId of audience)
      for (const c of byUser.get(userId) ?? []) if (c.ws.readyState === WebSocket.OPEN) c.ws.send(data);
  });
  ctx.bus.on('notice', (e) => {
    const data = JSON.stringify({
      type: 'server_notice',
      payload: { name: e.name, kind: e.kind },
    } satisfies ServerSocketMessage);
    for (const userId of e.audience)
      for (const c of byUser.get(userId) ?? []) if (c.ws.readyState === WebSocket.OPEN) c.ws.send(data);
  });
  ctx.bus.on('account', (e) => {
    const data = JSON.stringify({ type: 'account_notice', payload: { kind: e.kind } } satisfies ServerSocketMessage);
    for (const c of byUser.get(e.userId) ?? []) {
      if (c.ws.readyState === WebSocket.OPEN) c.ws.send(data);
      // A ban closes the console now rather than at the subscription's next periodic check.
      if (e.kind === 'banned') c.console.recheckNow();
    }
  });
  const hub = new ConsoleHub(undefined, ctx.metrics.consoleLines);
  ctx.metrics.sources.sockets = () => {
    let open = 0;
    for (const set of byUser.values()) open += set.size;
    return open;
  };
  ctx.bus.on('console', (e) => hub.push(e.serverId, e.line));

  /** Authenticates a fresh socket, then serves it; `settle` ends its pending handshake (called once). */
  const open = async (ws: WebSocket, userId: string, token: string, batch: boolean, settle: () => void) => {
    // Frames that arrive while the token is checked (real I/O on PostgreSQL) wait instead of being lost.
    const early: string[] = [];
    ws.on('message', (data) => early.push(String(data)));
    let closed = false;
    ws.once('close', () => {
      closed = true;
      settle();
    });
    const handshake = setTimeout(
      () => ws.close(socketCloseCodes.tryAgainLater, socketCloseReasons.handshakeTimeout),
      HANDSHAKE_TIMEOUT_MS,
    );
    try {
      // At the cap: refused before the token costs database reads. Its signature is checked first (cheap),
      // so only the user themselves learns that they hold too many sockets.
      if (!ownToken(token, userId)) throw new Error('not a valid token for this id');
      if (atUserCap(userId)) return tooMany(ws);
      const caller = await authenticate(ctx, `Bearer ${token}`);
      if (caller.user.id !== userId) throw new Error('not your socket');
      if (closed) return;
      // Checked again: other sockets of this user may have finished their handshake meanwhile.
      if (atUserCap(userId)) return tooMany(ws);
      const shared = live ? await live.admit(userId, MAX_SOCKETS_PER_USER) : undefined;
      if (shared === null) return tooMany(ws);
      if (closed) {
        if (shared) live?.release(shared);
        return;
      }
      settle();
      clearTimeout(handshake);
      const conn: Connection = {
        ws,
        userId,
        alive: true,
        console: new ConsoleSession(ctx, ws, userId, hub, bucketOf(userId), batch),
      };
      const set = byUser.get(userId) ?? new Set<Connection>();
      byUser.set(userId, set);
      set.add(conn);
      // The socket lives only as long as the session token: the browser refreshes and reconnects on 1008.
      const expiry = setTimeout(
        () => ws.close(socketCloseCodes.policyViolation, 'Session expired'),
        Math.max(0, caller.expiresAt - ctx.now()),
      );
      ws.on('close', () => {
        if (shared) live?.release(shared);
        clearTimeout(expiry);
        conn.console.end();
        set.delete(conn);
        if (set.size === 0) byUser.delete(userId);
      });
      ws.on('pong', () => {
        conn.alive = true;
      });
      const receive = (text: string) => {
        const parsed = clientSocketMessageSchema.safeParse(safeJson(text));
        if (!parsed.success)
          return conn.console.refuse(parsed.error.issues[0]?.message ?? 'Invalid message.', 'invalid');
        void conn.console.handle(parsed.data);
      };
      ws.removeAllListeners('message');
      ws.on('message', (data) => receive(String(data)));
      const server =
        (await serversRepo.findByOwner(ctx.db, userId)) ?? (await collaboratorsRepo.serverOf(ctx.db, userId));
      if (server && ws.readyState === WebSocket.OPEN)
        ws.send(JSON.stringify(statusMessage({ name: server.name, ...ctx.servers.runtime.state(server.id) })));
      for (const text of early.splice(0)) receive(text);
    } catch (error) {
      // A database outage is not the caller's fault: the browser backs off and reconnects.
      if (isDatabaseUnavailable(error))
        ws.close(socketCloseCodes.tryAgainLater, socketCloseReasons.databaseUnavailable);
      else ws.close(socketCloseCodes.policyViolation, 'Authentication failed');
    } finally {
      // Whatever happened, the handshake is over.
      settle();
      clearTimeout(handshake);
    }
  };

  /** True once the api began its shutdown: new sockets are told to go elsewhere (1012) as soon as they open. */
  let closing = false;
  const restart = (ws: WebSocket) => ws.close(socketCloseCodes.serviceRestart, socketCloseReasons.serviceRestart);

  const upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (closing) {
      // Answered with the same 1012 as the sockets open at the shutdown, not a failed handshake, which the browser
      // would take for an outage and back off from.
      socket.on('error', () => socket.destroy());
      wss.handleUpgrade(req, socket, head, restart);
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = PATH.exec(url.pathname);
    let userId: string;
    try {
      userId = decodeURIComponent(match?.[1] ?? '');
    } catch {
      userId = ''; // a malformed escape is no user
    }
    if (!userId) return socket.destroy();
    socket.on('error', () => socket.destroy());
    const token = url.searchParams.get('token') ?? '';
    // Our web app asks for console_batch frames; a client written to the spec gets one console_log per line.
    const batch = url.searchParams.get(SOCKET_BATCH_PARAM) === '1';
    if (atUserCap(userId) && ownToken(token, userId) && refuseCheaply(userId)) {
      socket.once('finish', () => socket.destroy());
      socket.end(upgradeRefusal('too_many_for_user'));
      return;
    }
    const address = req.socket.remoteAddress ?? '';
    const refusal = admission.admit(address);
    if (refusal) {
      // Destroyed once written: a client that never closes its side must not keep the descriptor.
      socket.once('finish', () => socket.destroy());
      socket.end(upgradeRefusal(refusal));
      return;
    }
    // Counted until the descriptor is gone, whatever becomes of the upgrade.
    socket.once('close', () => admission.release());
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      admission.settle(address);
    };
    socket.once('close', settle);
    wss.handleUpgrade(req, socket, head, (ws) => {
      // A protocol error (oversized or malformed frame) is that client's problem, never the api's.
      ws.on('error', () => ws.terminate());
      void open(ws, userId, token, batch, settle);
    });
  };
  app.server.on('upgrade', upgrade);

  // Dead connections (a laptop closed mid-session) are found by ping and dropped.
  const heartbeat = setInterval(() => {
    for (const [userId, bucket] of buckets) if (!byUser.has(userId) && bucket.isFull()) buckets.delete(userId);
    for (const [userId, bucket] of clearRefusals) if (bucket.isFull()) clearRefusals.delete(userId);
    for (const c of all()) {
      if (!c.alive) c.ws.terminate();
      else {
        c.alive = false;
        c.ws.ping();
      }
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  // preClose, not onClose: Fastify waits for open connections before onClose, and sockets never end by themselves.
  // 1012 (Service Restart), to every socket including those still authenticating: the browser reconnects at once,
  // to another replica (lifecycle/shutdown.ts); its close handshake ends the connection.
  app.addHook('preClose', async () => {
    closing = true;
    clearInterval(heartbeat);
    for (const ws of wss.clients) restart(ws);
    await live?.stop();
  });
  app.addHook('onClose', async () => {
    wss.close();
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
