import type { Server } from 'node:http';
import type { EngineOptions } from '../cli/args.ts';
import { filesOnlyRoutes } from '../control/routes-files.ts';
import { announceReady, claimDataDir, listenControl, orderedStop } from '../lifecycle.ts';
import type { Logger } from '../log.ts';
import { ENGINE_VERSION } from '../version.ts';
import type { FilesContext } from './context.ts';
import { databaseIdle } from './turn.ts';

/**
 * Starts an engine in files-only mode (docs/engine-files-api.md): the control API with the file routes, /stats and
 * /stop; no game port, no world, the database opened only for a snapshot or a restore. It takes the data directory
 * as any engine does (engine.json, marked `filesOnly`, so that no other engine starts on it and no api adopts it as
 * the game) and prints the same READY line, with `game=0`.
 */
export async function startFilesOnlyEngine(options: EngineOptions, log: Logger): Promise<FilesContext> {
  const startedAt = Date.now();
  await claimDataDir(options, log);
  let server: Server | undefined;
  // A restore's swap under way finishes first; a transfer still streaming is cut.
  const stopper = orderedStop({ options, log }, () => server, databaseIdle);
  const ctx: FilesContext = {
    options,
    version: ENGINE_VERSION,
    startedAt,
    log,
    get stopping() {
      return stopper.stopping;
    },
    stop: (reason, exitCode) => stopper.stop(reason, exitCode),
  };
  server = await listenControl(ctx, filesOnlyRoutes);
  stopWhenIdle(ctx, server, options.filesIdleExitMs);
  announceReady(ctx, server, 0);
  return ctx;
}

/**
 * The driver that started it stops it after a short idle while; when that driver is gone (an api killed, a cluster's
 * api replicas all down) nobody would, so it stops itself after `idleMs` without a call in flight or begun.
 */
function stopWhenIdle(ctx: FilesContext, server: Server, idleMs: number): void {
  let inFlight = 0;
  let last = Date.now();
  server.on('request', (_req, res) => {
    inFlight++;
    last = Date.now();
    res.once('close', () => {
      inFlight--;
      last = Date.now();
    });
  });
  const timer = setInterval(
    () => {
      if (inFlight === 0 && Date.now() - last >= idleMs && !ctx.stopping)
        ctx.stop(`no file call for ${Math.round(idleMs / 1000)} s (whoever started it is gone)`);
    },
    Math.min(idleMs, 10_000),
  );
  timer.unref();
  server.once('close', () => clearInterval(timer));
}

/**
 * A files-only engine has no console, but whoever spawned it may stop it by typing `stop` on its stdin as for any
 * engine (the api's supervisor does); end of input changes nothing.
 */
export function stopOnStdin(ctx: FilesContext, input: NodeJS.ReadableStream = process.stdin): void {
  const { createInterface } = process.getBuiltinModule('node:readline');
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY, terminal: false });
  lines.on('line', (line) => {
    const word = line.trim().replace(/^\//, '').toLowerCase();
    if (['stop', 'shutdown', 'exit', 'quit'].includes(word)) ctx.stop('the console');
    else if (word) ctx.log.warn('A files-only engine takes no console command but stop');
  });
  input.on('error', () => {});
}
