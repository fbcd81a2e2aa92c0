import type { Server } from 'node:http';
import { engineExitCodes } from '@canopy/contract/engine-constants';
import type { EngineOptions } from './cli/args.ts';
import { type ControlContext, type Route, startControlServer } from './control/server.ts';
import { runExitHooks } from './exit-hooks.ts';
import { sweepUnfinished } from './files/sweep.ts';
import type { Logger } from './log.ts';
import { ensurePrivateDir } from './private-files.ts';
import { liveEngine, readStateFile, removeStateFile, writeStateFile } from './state-file.ts';
import { ENGINE_VERSION } from './version.ts';

// What every engine does to start and to stop, a game engine (engine.ts) and a files-only one
// (files/files-only-engine.ts) alike: one data directory, one engine.json, one READY line, one ordered stop.

/** A start that cannot go on; main prints it as a FATAL line and exits with `exitCode`. */
export class StartupError extends Error {
  readonly exitCode: number;
  constructor(exitCode: number, message: string) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** Longest a stop may take before the process exits anyway. */
const STOP_DEADLINE_MS = 8000;

/**
 * Takes the data directory (made 0700 if missing): refused (exit 3) while another engine runs on it; a stale
 * engine.json is only reported; what a killed engine left half-written is swept away.
 */
export async function claimDataDir(options: EngineOptions, log: Logger): Promise<void> {
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
}

/** Starts the control API on the configured host and port; a port that cannot be had is a StartupError (exit 4). */
export async function listenControl<C extends ControlContext & { options: EngineOptions }>(
  ctx: C,
  routes: Route<C>[],
): Promise<Server> {
  const { controlHost, controlPort } = ctx.options;
  try {
    return await startControlServer(ctx, routes, controlHost, controlPort);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL')
      throw new StartupError(
        engineExitCodes.portInUse,
        `Control port ${controlHost}:${controlPort} is not available (${code})`,
      );
    throw error;
  }
}

/**
 * Writes engine.json (marked `filesOnly` for a files-only engine, so that no api adopts it as the game) and prints
 * the READY line whoever spawned the engine waits for; `gamePort` is 0 when there is no game.
 */
export function announceReady(
  ctx: { options: EngineOptions; log: Logger; startedAt: number },
  server: Server,
  gamePort: number,
): void {
  const { options, log } = ctx;
  const address = server.address();
  // The port asked for, or the one picked for 0.
  const controlPort = typeof address === 'object' && address ? address.port : options.controlPort;
  writeStateFile(options.dataDir, {
    pid: process.pid,
    controlHost: options.controlHost,
    controlPort,
    gamePort,
    version: ENGINE_VERSION,
    startedAt: new Date(ctx.startedAt).toISOString(),
    ...(options.filesOnly ? { filesOnly: true } : {}),
  });
  log.info(
    `READY control=${options.controlHost}:${controlPort} game=${gamePort} version=${ENGINE_VERSION} pid=${process.pid}`,
  );
}

/** The `stopping` and `stop` of an engine's context. */
export interface Stopper {
  /** True once a stop has begun: new work is refused. */
  readonly stopping: boolean;
  /** Stops and exits the process (status 0 unless given); calling it again does nothing. */
  stop(reason: string, exitCode?: number): void;
}

/**
 * The ordered stop, run once and within STOP_DEADLINE_MS: the control API takes no new connection and lets go of
 * its idle ones; `release` lets go of what the engine holds (the game, the database); engine.json goes, the last
 * connections are cut, the exit hooks run, and the process exits (with failure when the stop itself failed).
 */
export function orderedStop(
  ctx: { options: EngineOptions; log: Logger },
  control: () => Server | undefined,
  release: () => Promise<unknown>,
): Stopper {
  const { options, log } = ctx;
  let stopping = false;
  const shutdown = async (reason: string) => {
    log.info(`Stopping (${reason})`);
    const server = control();
    server?.close();
    server?.closeIdleConnections();
    await release();
    removeStateFile(options.dataDir);
    server?.closeAllConnections();
    log.info('Stopped');
  };
  return {
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
      void shutdown(reason)
        .then(runExitHooks)
        .then(
          () => process.exit(exitCode),
          () => process.exit(engineExitCodes.failure),
        );
    },
  };
}
