// The zod-free part of the contract an engine needs to start (package entry `@canopy/contract/engine-constants`).
// An idle engine loads only this: zod and the schemas (`@canopy/contract/engine`) cost each engine about 9 MB,
// so the engine loads them on its first control request or console command (docs/decisions/0024-lean-engine.md).
// The files these values belong with (engine-control.ts, engine-config.ts, world.ts, player.ts) re-export them.
import type { NewbieKit, NewbieKitEntry, ServerConfig } from './engine-config.ts';
import type { WorldMeta } from './world.ts';

export { messages } from './messages.ts';
export { versionedWriteCodes, versionedWriteMessages } from './versioned-writes.ts';

/** Environment variables an engine reads; the secret is accepted only from the environment. */
export const engineEnv = {
  dataDir: 'CANOPY_ENGINE_DATA_DIR',
  gamePort: 'CANOPY_ENGINE_GAME_PORT',
  controlPort: 'CANOPY_ENGINE_CONTROL_PORT',
  controlHost: 'CANOPY_ENGINE_CONTROL_HOST',
  itemsDat: 'CANOPY_ENGINE_ITEMS_DAT',
  sampleWorlds: 'CANOPY_ENGINE_SAMPLE_WORLDS',
  samplePlayers: 'CANOPY_ENGINE_SAMPLE_PLAYERS',
  debug: 'CANOPY_ENGINE_DEBUG',
  /** Benchmark-only console commands (flood); the api sets it only when it was itself started for a benchmark. */
  benchCommands: 'CANOPY_ENGINE_BENCH_COMMANDS',
  secret: 'CANOPY_ENGINE_SECRET',
  /** Where game clients fetch textures (OnSuperMainStartAcceptLogon); the api passes its own setting through. */
  cdnHost: 'CANOPY_GAME_CDN_HOST',
  cdnPath: 'CANOPY_GAME_CDN_PATH',
  /** Files-only mode: the control API's file routes, no game (docs/engine-files-api.md). */
  filesOnly: 'CANOPY_ENGINE_FILES_ONLY',
  /** The operator's item database by version: where to fetch it, and its sha256 (docs/engine-files-api.md). */
  itemsUrl: 'CANOPY_ENGINE_ITEMS_URL',
  itemsVersion: 'CANOPY_ENGINE_ITEMS_VERSION',
  /** The hosted server's id, sent as x-canopy-server when the engine fetches the item database. */
  serverId: 'CANOPY_ENGINE_SERVER_ID',
  /**
   * The control API may listen on a non-loopback address (a pod's, where the api reaches it over the cluster
   * network, guarded by the bearer secret and the cluster's network policy); off, only loopback is accepted.
   */
  controlExposed: 'CANOPY_ENGINE_CONTROL_EXPOSED',
  /** Files-only mode: how long without a call before the engine stops itself (its api gone); default 300000. */
  filesIdleExitMs: 'CANOPY_ENGINE_FILES_IDLE_EXIT_MS',
} as const;

/** A CDN host name and a cache path as the client takes them (no scheme; the path ends with a slash). */
export const CDN_HOST_PATTERN = /^[A-Za-z0-9.-]{1,253}$/;
export const CDN_PATH_PATTERN = /^[A-Za-z0-9._/-]{0,200}\/$/;

export const ENGINE_SECRET_MIN_LENGTH = 16;

/** Exit statuses of an engine process. */
export const engineExitCodes = {
  ok: 0,
  failure: 1,
  /** A bad flag, a missing or short secret. */
  usage: 2,
  /** Another live engine holds this data directory. */
  alreadyRunning: 3,
  /** The game or control port is taken. */
  portInUse: 4,
} as const;

/** The config files of an engine's data directory; the api edits them while the engine is offline. */
export const engineConfigFiles = {
  creators: 'creators.json',
  serverConfig: 'server-config.json',
  newbieKit: 'newbie-kit.json',
  customItems: 'custom-items.json',
} as const;

export const DEFAULT_AUTOFARM_DELAY_MS = 1000;

/** Most GrowIDs on a creator list. */
export const CREATOR_LIST_MAX = 1000;

export const defaultServerConfig: ServerConfig = { autofarmDelay: DEFAULT_AUTOFARM_DELAY_MS };

/** An empty kit entry, what an empty kit is normalised to. */
export const emptyNewbieKitEntry = (): NewbieKitEntry => ({ Gemss: 0, Coin: 0, Seasonals_Token: 0, items: [] });

export const defaultNewbieKit = (): NewbieKit => ({ ITEMS: [emptyNewbieKitEntry()] });

/** The weather options the panel offers (any 0-255 value is stored). */
export const weatherOptions = [
  { id: 0, name: 'Normal' },
  { id: 2, name: 'Snowy' },
  { id: 10, name: 'Spooky' },
  { id: 11, name: 'Magical' },
  { id: 12, name: 'Night' },
] as const;

/** d_weather value of a locked world (server-management document, section 9). */
export const WORLD_LOCKED = 6;
/** d_weather value of an open world. */
export const WORLD_OPEN = 0;
export const DEFAULT_MUSIC_BPM = 100;
/** Default background colour of a world. */
export const DEFAULT_WORLD_COLOR = { r: 255, g: 128, b: 64 } as const;
/**
 * Most worlds a server holds before players can no longer create new ones by joining an unknown name (the
 * World Manager still can): the size the engine's world list is measured at (bench/engine.ts).
 */
export const MAX_WORLDS = 10_000;
/** Size of a newly generated world, as in the game. */
export const DEFAULT_WORLD_WIDTH = 100;
export const DEFAULT_WORLD_HEIGHT = 60;

/** The settings of a fresh world: no owner, open, the spec's defaults. */
export function defaultWorldMeta(width = DEFAULT_WORLD_WIDTH, height = DEFAULT_WORLD_HEIGHT): WorldMeta {
  return {
    owner: '',
    entry_level: 1,
    ct: 0,
    d_weather: WORLD_OPEN,
    music_bpm: DEFAULT_MUSIC_BPM,
    w_s: 0,
    ...DEFAULT_WORLD_COLOR,
    weather: 0,
    admins: [],
    width,
    height,
  };
}

/** Most players, worlds or names one console command lists. */
export const CONSOLE_LIST_MAX = 20;
/** Most lines one `flood` prints (benchmarks only). */
export const CONSOLE_FLOOD_MAX = 1_000_000;
/** Most MB one `hog` keeps (benchmarks and the memory ceiling's tests only). */
export const CONSOLE_HOG_MAX_MB = 4096;

/** Most gems a player can hold: the player record's limit (playerSchema's gems). */
export const PLAYER_GEMS_MAX = 2_147_483_647;
/** Most of one item a player can hold, as in the game. */
export const MAX_STACK = 200;
/** Most distinct items in one inventory. */
export const MAX_INVENTORY_ITEMS = 500;
/** Roles and titles every player record carries (false unless granted); more may be added. */
export const playerRoles = ['Developer', 'Administrator', 'Moderator', 'VIP'] as const;
export const playerTitles = ['Legend', 'Doctor', 'Mentor', 'Grow4Good'] as const;
/** Key of a role or title flag in a player record: `Role.Moderator`, `Title.Legend`. */
export const playerFlagPattern = /^(Role|Title)\.[A-Za-z0-9_]{1,32}$/;
