// GET /api/internal/items-dat/{version}: the operator's item database for engines (docs/engine-files-api.md), which
// may run on other machines and so cannot be handed a path. Only an engine may ask: its bearer must be the control
// secret of the server it names in x-canopy-server. Not rate limited per address (every local engine asks from
// 127.0.0.1, and all of them may start at once after a reboot); bounded instead by how many transfers run at a time
// and how many may wait for one.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { AppError, forbidden, notFound, unauthorized } from '../errors.ts';
import { route } from '../http/route.ts';
import { serversRepo } from '../servers/servers.repo.ts';
import { operatorItemsVersion } from './items-dat-version.ts';

/** Transfers at once: each is a file streamed from disk over a socket, a few milliseconds on loopback. */
const TRANSFERS = 16;
/** Requests that may wait for a transfer; past this the api answers 503 and the engine falls back (it logs why). */
const WAITING = 2000;

const SERVER_ID = /^[A-Za-z0-9._-]{1,128}$/;
const VERSION = /^[0-9a-f]{64}$/;

const digest = (s: string) => createHash('sha256').update(s).digest();
const sameSecret = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

/** A counting semaphore: run() waits for one of `size` slots, or refuses when `waiting` are queued already. */
function slots(size: number, waiting: number) {
  let free = size;
  const queue: Array<() => void> = [];
  return {
    async take(): Promise<() => void> {
      if (free > 0) free--;
      else if (queue.length >= waiting) throw new AppError(503, 'busy', 'Too many item database transfers; try again.');
      else await new Promise<void>((resolve) => queue.push(resolve));
      let given = false;
      return () => {
        if (given) return;
        given = true;
        const next = queue.shift();
        if (next) next();
        else free++;
      };
    },
  };
}

/** Registers the item database route for engines. */
export function itemsDatRoutes(app: FastifyInstance, ctx: AppContext) {
  const transfers = slots(TRANSFERS, WAITING);

  route(app, ctx, {
    method: 'GET',
    url: '/api/internal/items-dat/:version',
    access: 'public',
    response: { mediaType: 'application/octet-stream' },
    summary: "For engines: the item database (Bearer: the server's control secret, header x-canopy-server)",
    handler: async ({ params, req, reply }) => {
      const serverId = req.headers['x-canopy-server'];
      const auth = req.headers.authorization;
      if (typeof serverId !== 'string' || !auth?.startsWith('Bearer '))
        throw unauthorized('An engine asks with its control secret and its server id.', 'unauthorized');
      const row = SERVER_ID.test(serverId) ? await serversRepo.findById(ctx.db, serverId) : undefined;
      if (!row || !sameSecret(auth.slice('Bearer '.length), ctx.servers.spec(row).secret))
        throw forbidden('Not the control secret of that server.', 'forbidden');
      const current = await operatorItemsVersion(ctx.config.itemsDir);
      const version = params.version ?? '';
      if (!VERSION.test(version) || current?.version !== version)
        throw notFound('No item database of that version is installed.', 'items_version_not_found');
      const done = await transfers.take();
      try {
        const { size } = await stat(current.path);
        const stream = createReadStream(current.path);
        // The slot is given back however the answer ends: sent, failed, or the engine gone.
        reply.raw.once('close', done);
        stream.once('error', done);
        return reply.type('application/octet-stream').header('content-length', size).send(stream);
      } catch (error) {
        done();
        throw error;
      }
    },
  });
}
