import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { clientSocketMessageSchema, type ServerSocketMessage, socketCloseCodes } from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import { WebSocket, WebSocketServer } from 'ws';
import { authenticate } from '../auth/guard.ts';
import { collaboratorsRepo } from '../collaborators/collaborators.repo.ts';
import type { AppContext } from '../context.ts';
import type { StatusEvent } from '../events/bus.ts';
import { serversRepo } from '../servers/servers.repo.ts';
import { ConsoleHub } from './console-feed.ts';
import { ConsoleSession } from './console-session.ts';

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

/**
 * WebSocket /ws/{userId}?token=…: authenticated with the session token; a bad or expired token or
 * someone else's id is closed with 1008 (the browser refreshes and retries). Pushes status updates to the
 * owner and collaborators of a server, and carries the console (see console-session.ts).
 */
export function attachWebSocket(app: FastifyInstance, ctx: AppContext) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const byUser = new Map<string, Set<Connection>>();
  const all = () => [...byUser.values()].flatMap((s) => [...s]);

  ctx.bus.on('status', async (e) => {
    const audience = [e.ownerId, ...(await collaboratorsRepo.audience(ctx.db, e.serverId).catch(() => []))];
    const data = JSON.stringify(statusMessage(e));
    for (const userId of audience)
      for (const c of byUser.get(userId) ?? []) if (c.ws.readyState === WebSocket.OPEN) c.ws.send(data);
  });
  const hub = new ConsoleHub();
  ctx.bus.on('console', (e) => hub.push(e.serverId, e.line));

  const open = async (ws: WebSocket, userId: string, token: string) => {
    // Frames that arrive while the token is checked (real I/O on PostgreSQL) wait instead of being lost.
    const early: string[] = [];
    ws.on('message', (data) => early.push(String(data)));
    let closed = false;
    ws.once('close', () => {
      closed = true;
    });
    try {
      const caller = await authenticate(ctx, `Bearer ${token}`);
      if (caller.user.id !== userId) throw new Error('not your socket');
      if (closed) return;
      const conn: Connection = { ws, userId, alive: true, console: new ConsoleSession(ctx, ws, userId, hub) };
      const set = byUser.get(userId) ?? new Set<Connection>();
      byUser.set(userId, set);
      set.add(conn);
      // The socket lives only as long as the session token: the browser refreshes and reconnects on 1008.
      const expiry = setTimeout(
        () => ws.close(socketCloseCodes.policyViolation, 'Session expired'),
        Math.max(0, caller.expiresAt - ctx.now()),
      );
      ws.on('close', () => {
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
        if (!parsed.success) return conn.console.refuse(parsed.error.issues[0]?.message ?? 'Invalid message.');
        void conn.console.handle(parsed.data);
      };
      ws.removeAllListeners('message');
      ws.on('message', (data) => receive(String(data)));
      const server =
        (await serversRepo.findByOwner(ctx.db, userId)) ?? (await collaboratorsRepo.serverOf(ctx.db, userId));
      if (server && ws.readyState === WebSocket.OPEN)
        ws.send(JSON.stringify(statusMessage({ name: server.name, ...ctx.servers.runtime.state(server.id) })));
      for (const text of early.splice(0)) receive(text);
    } catch {
      ws.close(socketCloseCodes.policyViolation, 'Authentication failed');
    }
  };

  const upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
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
    wss.handleUpgrade(req, socket, head, (ws) => {
      // A protocol error (oversized or malformed frame) is that client's problem, never the api's.
      ws.on('error', () => ws.terminate());
      void open(ws, userId, url.searchParams.get('token') ?? '');
    });
  };
  app.server.on('upgrade', upgrade);

  // Dead connections (a laptop closed mid-session) are found by ping and dropped.
  const heartbeat = setInterval(() => {
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
  app.addHook('preClose', async () => {
    clearInterval(heartbeat);
    for (const c of all()) c.ws.close(1001, 'Server shutting down');
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
