import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ServerSocketMessage, socketCloseCodes } from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import { WebSocket, WebSocketServer } from 'ws';
import { authenticate } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import type { StatusEvent } from '../events/bus.ts';
import { serversRepo } from '../servers/servers.repo.ts';

const PATH = /^\/ws\/([^/?]+)$/;
const HEARTBEAT_MS = 30_000;

/** Who listens to which user's events. */
class Subscribers {
  private readonly byUser = new Map<string, Set<WebSocket>>();
  add(userId: string, ws: WebSocket) {
    const set = this.byUser.get(userId) ?? new Set<WebSocket>();
    this.byUser.set(userId, set);
    set.add(ws);
    ws.once('close', () => {
      set.delete(ws);
      if (set.size === 0) this.byUser.delete(userId);
    });
  }
  send(userId: string, message: ServerSocketMessage) {
    const set = this.byUser.get(userId);
    if (!set) return;
    const data = JSON.stringify(message);
    for (const ws of set) if (ws.readyState === WebSocket.OPEN) ws.send(data);
  }
  all() {
    return [...this.byUser.values()].flatMap((s) => [...s]);
  }
}

const statusMessage = (e: Pick<StatusEvent, 'name' | 'status' | 'players'>): ServerSocketMessage => ({
  type: 'status_update',
  payload: { name: e.name, status: e.status, players: e.players },
});

/**
 * WebSocket /ws/{userId}?token=…: authenticated with the session token; a bad or expired token or
 * someone else's id is closed with 1008 (the browser refreshes and retries). Pushes status updates.
 */
export function attachWebSocket(app: FastifyInstance, ctx: AppContext) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const subscribers = new Subscribers();

  ctx.bus.on('status', (e) => subscribers.send(e.ownerId, statusMessage(e)));

  const upgrade = async (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = PATH.exec(url.pathname);
    if (!match) return socket.destroy();
    wss.handleUpgrade(req, socket, head, async (ws) => {
      try {
        const caller = await authenticate(ctx, `Bearer ${url.searchParams.get('token') ?? ''}`);
        if (caller.user.id !== decodeURIComponent(match[1] ?? '')) throw new Error('not your socket');
        subscribers.add(caller.user.id, ws);
        (ws as WebSocket & { alive?: boolean }).alive = true;
        ws.on('pong', () => {
          (ws as WebSocket & { alive?: boolean }).alive = true;
        });
        const server = await serversRepo.findByOwner(ctx.db, caller.user.id);
        if (server)
          ws.send(JSON.stringify(statusMessage({ name: server.name, ...ctx.servers.runtime.state(server.id) })));
      } catch {
        ws.close(socketCloseCodes.policyViolation, 'Authentication failed');
      }
    });
  };
  app.server.on('upgrade', (req, socket, head) => void upgrade(req, socket, head));

  // Dead connections (a laptop closed mid-session) are found by ping and dropped.
  const heartbeat = setInterval(() => {
    for (const ws of subscribers.all()) {
      const w = ws as WebSocket & { alive?: boolean };
      if (w.alive === false) w.terminate();
      else {
        w.alive = false;
        w.ping();
      }
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  // preClose, not onClose: Fastify waits for open connections before onClose, and sockets never end by themselves.
  app.addHook('preClose', async () => {
    clearInterval(heartbeat);
    for (const ws of subscribers.all()) ws.close(1001, 'Server shutting down');
    wss.close();
  });
}
