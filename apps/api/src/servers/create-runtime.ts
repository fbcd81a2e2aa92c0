import { createRequire } from 'node:module';
import { join } from 'node:path';
import { engineEnv } from '@canopy/contract/engine-constants';
import type { Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import type { EngineItems } from '../runtime/local/engine-process.ts';
import { LocalDriver } from '../runtime/local/local-driver.ts';
import type { HostedServerSpec, RuntimeDriver, RuntimeListener } from '../runtime/types.ts';
import { serversRepo } from './servers.repo.ts';

/**
 * The kubernetes runtime is loaded only when it is chosen: @kubernetes/client-node and its dependencies take tens
 * of MB of an api's memory, which the single-machine default must not pay. require() of an ES module is synchronous
 * (Node 22.12 onwards), so the registry keeps making its runtime in its constructor.
 */
const loadKubernetes = (): typeof import('../runtime/kubernetes/create.ts') =>
  createRequire(import.meta.url)('../runtime/kubernetes/create.ts');

/** What the registry hands the runtime it makes. */
export interface RuntimeDeps {
  db: Db;
  listener: RuntimeListener;
  now: () => number;
  log: { info(msg: string): void; warn(msg: string): void };
  /** Whether this replica leads the scheduler now (ADR 0036); read when the runtime needs it, not at start. */
  isLeader: () => boolean;
  memoryLimitMB(spec: HostedServerSpec): Promise<number>;
  /** Where a starting engine fetches the operator's item database, or undefined (the bundled one). */
  items(serverId: string): Promise<EngineItems | undefined>;
  /** A server as the runtime is given it, read from the database (another replica created it). */
  specOf(id: string): Promise<HostedServerSpec | null>;
}

/** The environment an engine in a pod gets besides its secret: the game CDN, and the item database by version. */
function podEnv(config: Config, items: EngineItems | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  if (config.gameCdn) {
    env[engineEnv.cdnHost] = config.gameCdn.host;
    env[engineEnv.cdnPath] = config.gameCdn.path;
  }
  if (items) {
    env[engineEnv.itemsUrl] = items.url;
    env[engineEnv.itemsVersion] = items.version;
    env[engineEnv.serverId] = items.serverId;
  }
  // The benchmark-only console commands, as the local driver's --bench-commands (production refuses the setting).
  if (config.benchCommands) env[engineEnv.benchCommands] = '1';
  return env;
}

/**
 * The runtime CANOPY_RUNTIME names (ADR 0043): engine processes on this machine (local, the default, unchanged), or
 * Agones GameServers in a Kubernetes cluster. Throws, with what to set, when the cluster cannot be found.
 */
export function createRuntimeDriver(config: Config, deps: RuntimeDeps): RuntimeDriver {
  const timeouts = {
    startMs: config.engineStartTimeoutMs,
    stopMs: config.engineStopTimeoutMs,
    killMs: config.engineKillTimeoutMs,
  };
  const saveLastCrash = (id: string, at: number) => void serversRepo.setLastCrash(deps.db, id, at).catch(() => {});
  if (config.runtime.kind === 'local')
    return new LocalDriver({
      root: join(config.dataDir, 'servers'),
      engineEntry: config.engineEntry,
      benchCommands: config.benchCommands,
      items: deps.items,
      filesIdleMs: config.engineFilesIdleMs,
      timeouts,
      listener: deps.listener,
      now: deps.now,
      saveLastCrash,
      memoryLimitMB: deps.memoryLimitMB,
    });
  // A pod reaches the api only at an address it was told: never the loopback the api would fall back to.
  if (!config.internalUrl)
    deps.log.warn(
      'CANOPY_RUNTIME=kubernetes without CANOPY_INTERNAL_URL: engines cannot fetch the item database and use the bundled one',
    );
  return loadKubernetes().kubernetesDriver(config.runtime, {
    db: deps.db,
    listener: deps.listener,
    now: deps.now,
    log: deps.log,
    isLeader: deps.isLeader,
    saveLastCrash,
    lastCrashAt: async (id) => {
      const at = (await serversRepo.findById(deps.db, id))?.last_crash_at;
      return at === null || at === undefined ? null : Number(at);
    },
    wanted: async (id) => (await serversRepo.findById(deps.db, id))?.desired_state === 'running',
    specOf: deps.specOf,
    memoryLimitMB: deps.memoryLimitMB,
    engineEnv: async (serverId) => podEnv(config, config.internalUrl ? await deps.items(serverId) : undefined),
    timeouts,
    filesIdleMs: config.engineFilesIdleMs,
  });
}
