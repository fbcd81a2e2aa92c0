import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { engineExitCodes } from '@canopy/contract/engine-constants';
import type { EngineOptions } from './cli/args.ts';
import { loadConfig, reloadLiveConfig } from './config/files.ts';
import type { EngineContext } from './context.ts';
import { routes } from './control/routes.ts';
import { type ControlContext, type Route, startControlServer } from './control/server.ts';
import { closeStreams } from './control/sse.ts';
import { DatabaseLockedError, openDatabase } from './db/open.ts';
import { runExitHooks } from './exit-hooks.ts';
import { sweepUnfinished } from './files/sweep.ts';
import { type ItemCatalog, loadItemCatalog, resolveItemsDat } from './items/catalog.ts';
import type { Logger } from './log.ts';
import { bindGameNetwork, type GameNetwork, PortInUseError } from './net/game-network.ts';
import { announcePlayers } from './net/players-line.ts';
import { createPlayersRepo } from './players/players.repo.ts';
import { createUsedTokensRepo } from './players/used-tokens.repo.ts';
import { ensureSampleData } from './sample-data.ts';
import { liveEngine, readStateFile, removeStateFile, writeStateFile } from './state-file.ts';
import { ENGINE_VERSION } from './version.ts';
import { ensureStartingWorld } from './worlds/starting-world.ts';
import { createWorldsRepo } from './worlds/worlds.repo.ts';

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

/** The engine's database file inside its data directory. */
export const databasePath = (dataDir: string) => join(dataDir, 'engine.db');

/**
 * Starts an engine: lock check, database, config, first-start world, optional sample data, game
 * port, control API; then writes engine.json and prints the READY line. `abort` cuts sample-data
 * generation short when a stop is asked for during the start.
 */
export async function startEngine(options: EngineOptions, log: Logger, abort: AbortSignal): Promise<EngineContext> {
  const startedAt = Date.now();
  const { dataDir } = options;
  mkdirSync(dataDir, { recursive: true });
  const live = await liveEngine(dataDir, options.secret);
  if (live)
    throw new StartupError(
      engineExitCodes.alreadyRunning,
      `Another engine (pid ${live.pid}) is running on this data directory (control ${live.controlHost}:${live.controlPort})`,
    );
  const stale = readStateFile(dataDir);
  if (stale) log.warn(`Replacing a stale engine.json (pid ${stale.pid} is not an engine running here)`);
  sweepUnfinished(dataDir, log);

  const cleanups: (() => unknown)[] = [];
  try {
    let db: DatabaseSync;
    try {
      db = openDatabase(databasePath(dataDir));
    } catch (error) {
      if (error instanceof DatabaseLockedError) throw new StartupError(engineExitCodes.alreadyRunning, error.message);
      throw error;
    }
    cleanups.push(() => db.close());
    // The game network comes up later; until then no world has players.
    let network: GameNetwork | undefined;
    const worlds = createWorldsRepo(db, {
      online: () => network?.onlinePlayers().length ?? 0,
      inWorld: (world) => network?.playersInWorld(world) ?? 0,
    });
    const players = createPlayersRepo(db);
    const usedTokens = createUsedTokensRepo(db);
    const config = loadConfig(dataDir, log);
    // The config in force, for the game network (bound before the context exists); reload() replaces it.
    const live = { config };
    ensureStartingWorld(db, worlds, log);
    if (options.sampleWorlds || options.samplePlayers)
      await ensureSampleData(
        { worlds, players },
        { worlds: options.sampleWorlds, players: options.samplePlayers },
        log,
        abort,
      );
    // Everything so far is committed; the cleanup below closes the database.
    if (abort.aborted) throw new StartupError(engineExitCodes.ok, 'Stopped by a signal while starting');

    let net: GameNetwork;
    try {
      net = await bindGameNetwork({
        port: options.gamePort,
        log,
        worlds,
        players,
        usedTokens,
        cdn: options.cdn,
        // Read at each use: a reload (creator list, autofarm delay) applies in the game at once.
        gameConfig: () => {
          const { creators, serverConfig } = live.config;
          return { creators, autofarmDelay: serverConfig.autofarmDelay };
        },
        dataDir,
        secret: options.secret,
        peerLimit: options.peerLimit,
        sleepAfterMs: options.sleepAfterMs,
        standardHeader: options.standardEnetHeader,
      });
    } catch (error) {
      if (error instanceof PortInUseError) throw new StartupError(engineExitCodes.portInUse, error.message);
      throw error;
    }
    network = net;
    cleanups.push(() => net.close());
    announcePlayers(net, log);

    let itemsLoaded: (catalog: ItemCatalog) => void = () => {};
    const items = new Promise<ItemCatalog>((resolve) => {
      itemsLoaded = resolve;
    });
    let stopping = false;
    let server: Server | undefined;
    const ctx: EngineContext = {
      options,
      version: ENGINE_VERSION,
      startedAt,
      log,
      db,
      worlds,
      players,
      network: net,
      config,
      items,
      get stopping() {
        return stopping;
      },
      save() {
        // The game layer writes the worlds it holds in memory first; saving folds the WAL into the main file.
        net.save();
        db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
        return { worlds: worlds.count(), players: players.count() };
      },
      reload() {
        const { config: next, errors } = reloadLiveConfig(dataDir, ctx.config, log);
        ctx.config = next;
        live.config = next;
        log.info(
          `Reloaded config: ${next.creators.length} creator(s), autofarm delay ${next.serverConfig.autofarmDelay} ms` +
            (errors.length ? ` (${errors.length} file(s) invalid, previous value kept)` : ''),
        );
        return { creators: next.creators, autofarmDelay: next.serverConfig.autofarmDelay, errors };
      },
      stop(reason, exitCode = engineExitCodes.ok) {
        if (stopping) return;
        stopping = true;
        setTimeout(() => {
          log.fatal(`Stop did not finish within ${STOP_DEADLINE_MS / 1000} s; exiting`);
          process.exit(engineExitCodes.failure);
        }, STOP_DEADLINE_MS).unref();
        void shutdown(ctx, server, reason)
          .then(runExitHooks)
          .then(
            () => process.exit(exitCode),
            () => process.exit(engineExitCodes.failure),
          );
      },
    };

    server = await listenControl(ctx, routes);
    const controlPort = boundPort(server, options.controlPort);
    writeStateFile(dataDir, {
      pid: process.pid,
      controlHost: options.controlHost,
      controlPort,
      gamePort: net.port,
      version: ENGINE_VERSION,
      startedAt: new Date(startedAt).toISOString(),
    });
    log.info(
      `READY control=${options.controlHost}:${controlPort} game=${net.port} version=${ENGINE_VERSION} pid=${process.pid}`,
    );
    // Item names are only needed by commands; reading them (and fetching the operator's) after READY keeps the
    // start fast.
    setImmediate(async () => {
      const source = await resolveItemsDat(options, dataDir, log);
      const catalog = await loadItemCatalog(source, config.customItems.items, log, dataDir);
      ctx.itemsDat = catalog.itemsDat;
      itemsLoaded(catalog);
    });
    return ctx;
  } catch (error) {
    for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => {});
    throw error;
  }
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

/** The port a server listens on (the one asked for, or the one picked for 0). */
export function boundPort(server: Server, asked: number): number {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : asked;
}

/** The ordered stop: refuse new work, let go of the ports, save, close the database, remove engine.json. */
async function shutdown(ctx: EngineContext, server: Server | undefined, reason: string): Promise<void> {
  const { log } = ctx;
  log.info(`Stopping (${reason})`);
  closeStreams();
  server?.close();
  server?.closeIdleConnections();
  await ctx.network.close();
  try {
    const saved = ctx.save();
    log.info(`Saved ${saved.worlds} worlds and ${saved.players} players`);
  } catch (error) {
    log.error(`Save failed: ${(error as Error).message}`);
  }
  ctx.db.close();
  removeStateFile(ctx.options.dataDir);
  server?.closeAllConnections();
  log.info('Stopped');
}
