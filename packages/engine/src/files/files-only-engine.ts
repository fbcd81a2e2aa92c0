import type { Server } from 'node:http';
import { engineExitCodes } from '@canopy/contract/engine-constants';
import type { EngineOptions } from '../cli/args.ts';
import { filesOnlyRoutes } from '../control/routes-files.ts';
import { boundPort, listenControl, StartupError } from '../engine.ts';
import { runExitHooks } from '../exit-hooks.ts';
import type { Logger } from '../log.ts';
import { ensurePrivateDir } from '../private-files.ts';
import { liveEngine, readStateFile, removeStateFile, writeStateFile } from '../state-file.ts';
import { ENGINE_VERSION } from '../version.ts';
import type { FilesContext } from './context.ts';
import { sweepUnfinished } from './sweep.ts';
import { databaseIdle } from './turn.ts';

/** Longest a stop may take (a restore's swap finishing) before the process exits anyway. */
const STOP_DEADLINE_MS = 8000;

/**
 * Starts an engine in files-only mode (docs/engine-files-api.md): the control API with the file routes, /stats and
 * /stop; no game port, no world, the database opened only for a snapshot or a restore. It takes the data directory
 * as any engine does (engine.json, marked `filesOnly`, so that no other engine starts on it and no api adopts it as
 * the game) and prints the same READY line, with `game=0`.
 */
export async function startFilesOnlyEngine(options: EngineOptions, log: Logger): Promise<FilesContext> {
  const startedAt = Date.now();
  const { dataDir } = options;
  ensurePrivateDir(dataDir);
  const live = await liveEngine(dataDir, options.secret);
  if (live)
    throw new StartupError(
      engineExitCodes.alreadyRunning,
      `Another engine (pid ${live.pid}) is running on this data directory (control ${live.controlHost}:${live.controlPort})`,
    );
  const stale = readStateFile(dataDir);
  if (stale) log.warn(`Replacing a stale engine.json (pid ${stale.pid} is not an engine running here)`);
  sweepUnfinished(dataDir, log);

  let stopping = false;
  let server: Server | undefined;
  const ctx: FilesContext = {
    options,
    version: ENGINE_VERSION,
    startedAt,
    log,
    get stopping() {
      return stopping;
    },
    stop(reason, exitCode = engineExitCodes.ok) {
      if (stopping) return;
      stopping = true;
      setTimeout(() => {
        log.fatal(`Stop did not finish within ${STOP_DEADLINE_MS / 1000} s; exiting`);
        process.exit(engineExitCodes.failure);
      }, STOP_DEADLINE_MS).unref();
      log.info(`Stopping (${reason})`);
      server?.close();
      server?.closeIdleConnections();
      // A restore's swap under way finishes first; a transfer still streaming is cut.
      void databaseIdle()
        .then(runExitHooks)
        .then(() => {
          removeStateFile(dataDir);
          server?.closeAllConnections();
          log.info('Stopped');
          process.exit(exitCode);
        });
    },
  };
  server = await listenControl(ctx, filesOnlyRoutes);
  const controlPort = boundPort(server, options.controlPort);
  writeStateFile(dataDir, {
    pid: process.pid,
    controlHost: options.controlHost,
    controlPort,
    gamePort: 0,
    version: ENGINE_VERSION,
    startedAt: new Date(startedAt).toISOString(),
    filesOnly: true,
  });
  log.info(`READY control=${options.controlHost}:${controlPort} game=0 version=${ENGINE_VERSION} pid=${process.pid}`);
  return ctx;
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
