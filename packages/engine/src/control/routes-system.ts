import { backupDatabase } from '../backup.ts';
import { runConsoleCommand } from '../console/commands.ts';
import { consolePath } from '../console/paths.ts';
import { contract } from '../contract.ts';
import { badRequest } from '../errors.ts';
import { parseOr400 } from '../validate.ts';
import { Reply, type Route } from './server.ts';
import { streamConsole } from './sse.ts';

const sequence = (value: string | undefined, what: string) => {
  if (value === undefined || value === '') return 0;
  if (!/^\d{1,15}$/.test(value)) throw badRequest(`${what} must be a non-negative integer.`);
  return Number(value);
};

/** Stats, backup, reload, console and stop routes of the control API. */
export const systemRoutes: Route[] = [
  {
    method: 'GET',
    path: /^\/stats$/,
    handler: (ctx) => ({
      players: ctx.network.onlinePlayers().length,
      version: ctx.version,
      uptime: Math.round((Date.now() - ctx.startedAt) / 1000),
      // The effective items.dat's Proton hash, null until it is built (just after READY).
      itemsDatHash: ctx.itemsDat?.hash ?? null,
    }),
  },
  {
    method: 'POST',
    path: /^\/backup$/,
    handler: async (ctx, { body }) => {
      const { path } = parseOr400(contract().engineBackupRequestSchema, body);
      const started = performance.now();
      const result = await backupDatabase(ctx.db, path);
      ctx.log.info(
        `Backup written to ${consolePath(ctx.options.dataDir, result.path)} (${result.bytes} bytes, ${Math.round(performance.now() - started)} ms)`,
      );
      return result;
    },
  },
  { method: 'POST', path: /^\/reload$/, handler: (ctx) => ctx.reload() },
  {
    method: 'POST',
    path: /^\/console$/,
    handler: async (ctx, { body }) => {
      const { command } = parseOr400(contract().engineConsoleRequestSchema, body);
      await runConsoleCommand(ctx, command);
      return { ok: true };
    },
  },
  {
    method: 'GET',
    path: /^\/console\/history$/,
    handler: (ctx, { query }) => ({ lines: ctx.log.history(sequence(query.after, 'after')) }),
  },
  {
    method: 'GET',
    path: /^\/console\/stream$/,
    stream: true,
    handler: (ctx, { query, req, res }) => {
      // Without after (or Last-Event-ID) only new lines are sent; with it, the kept lines after it first.
      const lastId = req.headers['last-event-id'];
      const from = query.after ?? (typeof lastId === 'string' ? lastId : undefined);
      streamConsole(ctx, res, from === undefined ? undefined : sequence(from, 'after'));
    },
  },
  {
    method: 'POST',
    path: /^\/stop$/,
    handler: (ctx) => {
      // Answer first: the stop closes this server.
      setImmediate(() => ctx.stop('a control API request'));
      return new Reply(202, { message: 'Stopping.' });
    },
  },
];
