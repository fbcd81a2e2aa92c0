import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';

/** What the api's stop needs besides the app: its background's stop and the database's close (main.ts). */
export interface ShutdownSteps {
  stopBackground: () => Promise<void>;
  closeDatabase: () => Promise<void>;
}

/**
 * The api's graceful stop on SIGTERM (ADR 0044), for rolling restarts behind a load balancer:
 * 1. /readyz answers 503 at once, and the scheduler's leadership is handed over at once (the lock released and the
 *    other replicas told), so that another replica leads while this one drains;
 * 2. after CANOPY_SHUTDOWN_DELAY_MS (0 by default: on Kubernetes the pod's preStop sleep is that wait, and the
 *    Service drops a terminating pod anyway) it stops listening; idle kept-alive sockets are closed, requests that
 *    arrive on a busy one are still served (with Connection: close), browsers' WebSockets are closed with 1012
 *    (Service Restart), which the web app reconnects from at once (to another replica);
 * 3. requests in flight finish, for CANOPY_SHUTDOWN_GRACE_MS at most, then whatever is left is cut;
 * 4. the background stops: engines keep running (local: the next api re-attaches them, ADR 0009; kubernetes: the
 *    cluster's pods are not touched), then the database closes.
 * Must be made before the app listens: it counts the connections from the first one on, to cut them at the end
 * of the grace period (an upgraded WebSocket is no longer the HTTP server's to close).
 */
export function gracefulShutdown(app: FastifyInstance, ctx: AppContext): (steps: ShutdownSteps) => Promise<void> {
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const { delayMs, graceMs } = ctx.config.shutdown;
  return async function shutdown(steps) {
    ctx.readiness.markStopping();
    const handover = (ctx.leader?.stop() ?? Promise.resolve()).catch((error: Error) =>
      ctx.log.warn(`scheduler leadership not handed over cleanly: ${error.message}`),
    );
    ctx.log.info(
      delayMs > 0
        ? `shutting down: /readyz answers 503; still serving for ${delayMs} ms (CANOPY_SHUTDOWN_DELAY_MS)`
        : 'shutting down: /readyz answers 503',
    );
    if (delayMs > 0) await sleep(delayMs);
    ctx.log.info(`no new connections; ${sockets.size} open ones get up to ${graceMs} ms (CANOPY_SHUTDOWN_GRACE_MS)`);
    const cut = setTimeout(() => {
      ctx.log.warn(`grace period over: cutting ${sockets.size} connection(s) still open`);
      for (const socket of sockets) socket.destroy();
    }, graceMs);
    try {
      await app.close();
    } finally {
      clearTimeout(cut);
    }
    await handover;
    await steps.stopBackground();
    await steps.closeDatabase();
  };
}
