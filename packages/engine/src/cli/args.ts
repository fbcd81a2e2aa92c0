import { resolve } from 'node:path';
import { parseArgs as parseNodeArgs } from 'node:util';
import {
  CDN_HOST_PATTERN,
  CDN_PATH_PATTERN,
  ENGINE_SECRET_MIN_LENGTH,
  engineEnv,
} from '@canopy/contract/engine-constants';

/** Everything the engine is started with. */
export interface EngineOptions {
  dataDir: string;
  gamePort: number;
  controlPort: number;
  controlHost: string;
  /** An items.dat to use instead of `<data-dir>/items.dat` or the bundled one. */
  itemsDat: string | undefined;
  sampleWorlds: number;
  samplePlayers: number;
  debug: boolean;
  /** Offers the benchmark-only console commands (flood); never on for a hosted server in normal use. */
  benchCommands: boolean;
  secret: string;
  /** Most ENet peers the game port accepts at once. */
  peerLimit: number;
  /** How long the game network stays awake with nobody connected (docs/decisions/0026-playable-servers.md). */
  sleepAfterMs: number;
  /** Test only: the game port accepts the standard ENet header instead of the game client's one. */
  standardEnetHeader: boolean;
  /** The CDN named to game clients; undefined: the game's own (net/game/player-packets.ts, DEFAULT_CDN). */
  cdn: { host: string; path: string } | undefined;
  /** Files-only mode: the control API's file routes, no game, no database kept open (docs/engine-files-api.md). */
  filesOnly: boolean;
  /** Files-only mode: how long without a control call before it stops itself (whoever started it is gone). */
  filesIdleExitMs: number;
  /** The operator's item database by version (items/items-cache.ts); undefined: none named. */
  itemsByVersion: { url: string; version: string; serverId: string } | undefined;
}

/** A bad command line or environment: the engine prints it as a FATAL line and exits 2. */
export class UsageError extends Error {}

/** Shown by --help. */
export const usage = `Usage: node packages/engine/src/main.ts --data-dir DIR --game-port N --control-port N
  [--control-host 127.0.0.1 [--control-exposed]] [--items-dat PATH] [--sample-worlds N --sample-players N] [--debug] [--bench-commands]
  [--peer-limit 256] [--sleep-after-ms 60000] [--standard-enet-header (tests only)]
  [--items-url URL --items-version SHA256 --server-id ID]
       node packages/engine/src/main.ts --files-only --data-dir DIR --control-port N [--files-idle-exit-ms 300000]
         (file API only, no game; stops itself after that long without a call)
       node packages/engine/src/main.ts --warm-compile-cache   (loads every module, then exits 0)
Each flag can also come from the environment (${Object.values(engineEnv)
  .filter((name) => name !== engineEnv.secret)
  .join(', ')}).
The control secret comes only from ${engineEnv.secret} (at least ${ENGINE_SECRET_MIN_LENGTH} characters).`;

const options = {
  'data-dir': { type: 'string' },
  'game-port': { type: 'string' },
  'control-port': { type: 'string' },
  'control-host': { type: 'string' },
  'items-dat': { type: 'string' },
  'sample-worlds': { type: 'string' },
  'sample-players': { type: 'string' },
  debug: { type: 'boolean' },
  'bench-commands': { type: 'boolean' },
  'peer-limit': { type: 'string' },
  'sleep-after-ms': { type: 'string' },
  'standard-enet-header': { type: 'boolean' },
  'files-only': { type: 'boolean' },
  'control-exposed': { type: 'boolean' },
  'files-idle-exit-ms': { type: 'string' },
  'items-url': { type: 'string' },
  'items-version': { type: 'string' },
  'server-id': { type: 'string' },
  help: { type: 'boolean' },
  'warm-compile-cache': { type: 'boolean' },
} as const;

const LOOPBACK = /^(127(\.\d{1,3}){3}|::1|localhost)$/;

function integer(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim()) || Number(value) < min || Number(value) > max)
    throw new UsageError(`--${flag} must be an integer from ${min} to ${max} (got "${value}")`);
  return Number(value);
}

/**
 * Reads flags, falling back to the environment; returns 'help' when --help was asked for, 'warm' for
 * --warm-compile-cache.
 */
export function parseArgs(argv: string[], env: NodeJS.ProcessEnv): EngineOptions | 'help' | 'warm' {
  if (argv.some((a) => a === '--secret' || a.startsWith('--secret=')))
    throw new UsageError(`--secret is not accepted on the command line; set ${engineEnv.secret} instead`);
  let values: Partial<Record<keyof typeof options, string | boolean>>;
  try {
    values = parseNodeArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const flag = /'(-[^'\s]+)/.exec(text)?.[1] ?? /"([^"]+)"/.exec(text)?.[1];
    throw new UsageError(flag ? `Bad flag ${flag}: ${text}` : text);
  }
  if (values.help) return 'help';
  if (values['warm-compile-cache']) return 'warm';
  const str = (flag: keyof typeof options, envName: string): string | undefined => {
    const v = values[flag];
    if (typeof v === 'string') return v;
    const e = env[envName];
    return e === undefined || e === '' ? undefined : e;
  };
  const required = <T>(flag: string, envName: string, value: T | undefined): T => {
    if (value === undefined) throw new UsageError(`--${flag} is required (or set ${envName})`);
    return value;
  };

  const flagOn = (flag: keyof typeof options, envName: string) =>
    values[flag] === true || env[envName] === '1' || env[envName] === 'true';
  const filesOnly = flagOn('files-only', engineEnv.filesOnly);
  const dataDir = required('data-dir', engineEnv.dataDir, str('data-dir', engineEnv.dataDir));
  // A files-only engine binds no game port.
  const gameFlag = integer('game-port', str('game-port', engineEnv.gamePort), 0, 65535);
  const gamePort = filesOnly ? 0 : required('game-port', engineEnv.gamePort, gameFlag);
  const controlPort = required(
    'control-port',
    engineEnv.controlPort,
    integer('control-port', str('control-port', engineEnv.controlPort), 0, 65535),
  );
  const controlHost = str('control-host', engineEnv.controlHost) ?? '127.0.0.1';
  // The control API can stop the server and read every player: it is never exposed beyond this host, unless the
  // engine runs in a pod that the api reaches over the cluster network (--control-exposed, the kubernetes driver).
  if (!LOOPBACK.test(controlHost) && !flagOn('control-exposed', engineEnv.controlExposed))
    throw new UsageError(
      `--control-host must be a loopback address such as 127.0.0.1 (got "${controlHost}"), unless --control-exposed is given`,
    );
  const filesIdleExitMs =
    integer('files-idle-exit-ms', str('files-idle-exit-ms', engineEnv.filesIdleExitMs), 1000, 86_400_000) ?? 300_000;
  const itemsDat = str('items-dat', engineEnv.itemsDat);
  const sampleWorlds = integer('sample-worlds', str('sample-worlds', engineEnv.sampleWorlds), 0, 1_000_000) ?? 0;
  const samplePlayers = integer('sample-players', str('sample-players', engineEnv.samplePlayers), 0, 1_000_000) ?? 0;
  const debug = flagOn('debug', engineEnv.debug);
  const benchCommands = flagOn('bench-commands', engineEnv.benchCommands);

  const peerLimit = integer('peer-limit', str('peer-limit', ''), 1, 4095) ?? 256;
  const sleepAfterMs = integer('sleep-after-ms', str('sleep-after-ms', ''), 0, 86_400_000) ?? 60_000;
  const standardEnetHeader = values['standard-enet-header'] === true;

  const cdnHost = env[engineEnv.cdnHost] || undefined;
  const cdnPath = env[engineEnv.cdnPath] || undefined;
  if ((cdnHost === undefined) !== (cdnPath === undefined))
    throw new UsageError(`${engineEnv.cdnHost} and ${engineEnv.cdnPath} are set together or not at all`);
  if (cdnHost !== undefined && !CDN_HOST_PATTERN.test(cdnHost))
    throw new UsageError(`${engineEnv.cdnHost} must be a host name such as cdn.example.com (got "${cdnHost}")`);
  if (cdnPath !== undefined && !CDN_PATH_PATTERN.test(cdnPath))
    throw new UsageError(`${engineEnv.cdnPath} must be a path ending in / such as game/cache/ (got "${cdnPath}")`);

  const itemsByVersion = itemsSource(
    str('items-url', engineEnv.itemsUrl),
    str('items-version', engineEnv.itemsVersion),
    str('server-id', engineEnv.serverId),
  );

  const secret = env[engineEnv.secret];
  if (!secret) throw new UsageError(`${engineEnv.secret} is not set; the control API needs a secret`);
  if (secret.length < ENGINE_SECRET_MIN_LENGTH)
    throw new UsageError(`${engineEnv.secret} must be at least ${ENGINE_SECRET_MIN_LENGTH} characters long`);

  return {
    dataDir: resolve(dataDir),
    gamePort,
    controlPort,
    controlHost,
    itemsDat: itemsDat === undefined ? undefined : resolve(itemsDat),
    sampleWorlds,
    samplePlayers,
    debug,
    benchCommands,
    secret,
    peerLimit,
    sleepAfterMs,
    standardEnetHeader,
    cdn: cdnHost && cdnPath ? { host: cdnHost, path: cdnPath } : undefined,
    filesOnly,
    filesIdleExitMs,
    itemsByVersion,
  };
}

/** The item database by version: URL and version together or not at all, and the server id to ask with. */
function itemsSource(url: string | undefined, version: string | undefined, serverId: string | undefined) {
  if (url === undefined && version === undefined) return undefined;
  if (url === undefined || version === undefined)
    throw new UsageError(`${engineEnv.itemsUrl} and ${engineEnv.itemsVersion} are set together or not at all`);
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {}
  if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:')
    throw new UsageError(`--items-url must be an http or https URL (got "${url}")`);
  if (!/^[0-9a-fA-F]{64}$/.test(version))
    throw new UsageError(`--items-version must be a sha256 in hex, 64 characters (got "${version}")`);
  if (serverId === undefined)
    throw new UsageError(`--server-id is required with --items-url (or set ${engineEnv.serverId})`);
  if (!/^[A-Za-z0-9._-]{1,128}$/.test(serverId))
    throw new UsageError(`--server-id must be 1-128 of A-Z a-z 0-9 . _ - (got "${serverId}")`);
  return { url, version: version.toLowerCase(), serverId };
}
