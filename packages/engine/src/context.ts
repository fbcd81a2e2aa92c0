import type { DatabaseSync } from 'node:sqlite';
import type { EngineOptions } from './cli/args.ts';
import type { EngineConfig } from './config/files.ts';
import type { ItemCatalog, ItemsDatInfo } from './items/catalog.ts';
import type { Logger } from './log.ts';
import type { GameNetwork } from './net/game-network.ts';
import type { PlayersRepo } from './players/players.repo.ts';
import type { WorldsRepo } from './worlds/worlds.repo.ts';

/** Everything a console command or a control route works with: one running engine. */
export interface EngineContext {
  readonly options: EngineOptions;
  readonly version: string;
  /** Epoch ms when the process started. */
  readonly startedAt: number;
  readonly log: Logger;
  readonly db: DatabaseSync;
  readonly worlds: WorldsRepo;
  readonly players: PlayersRepo;
  readonly network: GameNetwork;
  /** The config in force; replaced on reload. */
  config: EngineConfig;
  /** Item names; resolves once items.dat is read (after the engine is ready). */
  items: Promise<ItemCatalog>;
  /** The effective items.dat (hash, counts) once built after READY; see items/effective-items.ts. */
  itemsDat?: ItemsDatInfo;
  /** True once a stop has begun: new work is refused. */
  readonly stopping: boolean;
  /** Writes everything held in memory to the database and checkpoints it. */
  save(): { worlds: number; players: number };
  /** Re-reads the config that can change while running. */
  reload(): { creators: string[]; autofarmDelay: number; errors: string[] };
  /** Saves, closes and exits the process (status 0 unless given); calling it again does nothing. */
  stop(reason: string, exitCode?: number): void;
}
