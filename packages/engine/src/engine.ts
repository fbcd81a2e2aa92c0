import type { Server } from 'node:http';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { engineExitCodes } from '@canopy/contract/engine-constants';
import type { EngineOptions } from './cli/args.ts';
import { loadConfig, reloadLiveConfig } from './config/files.ts';
import type { EngineContext } from './context.ts';
import { routes } from './control/routes.ts';
import { closeStreams } from './control/sse.ts';
import { DatabaseLockedError, openDatabase } from './db/open.ts';
import { DATABASE_NAME } from './files/names.ts';
import { type ItemCatalog, loadItemCatalog, resolveItemsDat } from './items/catalog.ts';
import { announceReady, claimDataDir, listenControl, orderedStop, StartupError } from './lifecycle.ts';
import type { Logger } from './log.ts';
import { bindGameNetwork, type GameNetwork, PortInUseError } from './net/game-network.ts';
import { announcePlayers } from './net/players-line.ts';
import { createPlayersRepo } from './players/players.repo.ts';
import { createUsedTokensRepo } from './players/used-tokens.repo.ts';
import { ensureSampleData } from './sample-data.ts';
import { ENGINE_VERSION } from './version.ts';
import { ensureStartingWorld } from './worlds/starting-world.ts';
import { createWorldsRepo } from './worlds/worlds.repo.ts';

/** The engine's database file inside its data directory. */
export const databasePath = (dataDir: string) => join(dataDir, DATABASE_NAME);

/**
 * Starts an engine: lock check, database, config, first-start world, optional sample data, game
 * port, control API; then writes engine.json and prints the READY line. `abort` cuts sample-data
 * generation short when a stop is asked for during the start.
 */
export async function startEngine(options: EngineOptions, log: Logger, abort: AbortSignal): Promise<EngineContext> {
  const startedAt = Date.now();
  const { dataDir } = options;
  await claimDataDir(options, log);

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
    let server: Server | undefined;
    // The game's part of the stop: console streams ended, the game port let go, everything saved, the database closed.
    const stopper = orderedStop(
      { options, log },
      () => server,
      async () => {
        closeStreams();
        await net.close();
        try {
          const saved = ctx.save();
          log.info(`Saved ${saved.worlds} worlds and ${saved.players} players`);
        } catch (error) {
          log.error(`Save failed: ${(error as Error).message}`);
        }
        db.close();
      },
    );
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
        return stopper.stopping;
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
      stop: (reason, exitCode) => stopper.stop(reason, exitCode),
    };

    server = await listenControl(ctx, routes);
    announceReady(ctx, server, net.port);
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
