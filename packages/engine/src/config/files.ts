import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CreatorList, CustomItemsFile, NewbieKit, ServerConfig } from '@canopy/contract/engine';
import { defaultNewbieKit, defaultServerConfig, engineConfigFiles } from '@canopy/contract/engine-constants';
import type { z } from 'zod';
import { contract } from '../contract.ts';
import { errorMessage, type Logger } from '../log.ts';
import { narrowMode, PRIVATE_FILE, writePrivateFileAtomic } from '../private-files.ts';
import { describeIssues } from '../validate.ts';
import { quickCreators, quickCustomItems, quickNewbieKit, quickServerConfig } from './quick-checks.ts';

/**
 * How a config file is checked: a zod-free accept of its usual content first, then the contract's schema
 * (loaded on first use), which decides everything the quick check is not sure of and words the refusals.
 */
interface Check<T> {
  quick(json: unknown): T | undefined;
  schema(): z.ZodType<T>;
}

const checks = {
  creators: { quick: quickCreators, schema: () => contract().creatorListSchema },
  serverConfig: { quick: quickServerConfig, schema: () => contract().serverConfigSchema },
  newbieKit: { quick: quickNewbieKit, schema: () => contract().newbieKitSchema },
  customItems: { quick: quickCustomItems, schema: () => contract().customItemsFileSchema },
} satisfies Record<keyof typeof engineConfigFiles, Check<unknown>>;

/** The config files as loaded. */
export interface EngineConfig {
  creators: CreatorList;
  serverConfig: ServerConfig;
  newbieKit: NewbieKit;
  customItems: CustomItemsFile;
}

/** What a config file read gave: the value, or the reason it was refused. */
type Read<T> = { ok: true; value: T } | { ok: false; problem: string };

/** Writes a config file whole or not at all (the api may read it at any moment), readable by this user only. */
export function writeJsonAtomic(file: string, value: unknown): void {
  writePrivateFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}

function readConfig<T>(dir: string, name: string, check: Check<T>): Read<T> | undefined {
  const file = join(dir, name);
  if (!existsSync(file)) return undefined;
  // A file an older engine (or an operator) wrote with a wider mode.
  narrowMode(file, PRIVATE_FILE);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { ok: false, problem: `${name} is not valid JSON (${errorMessage(error)})` };
  }
  const quick = check.quick(json);
  if (quick !== undefined) return { ok: true, value: quick };
  const parsed = check.schema().safeParse(json);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, problem: `${name}: ${describeIssues(parsed.error)}` };
}

/**
 * Reads one config file. Missing: the default is written and used. Invalid: an ERROR line and the
 * fallback, and the file is left as it is for its owner to fix; a bad file never stops the engine.
 */
function load<T>(
  dir: string,
  name: string,
  check: Check<T>,
  fallback: T,
  log: Logger,
  what: string,
): { value: T; problem?: string } {
  const read = readConfig(dir, name, check);
  if (!read) {
    try {
      writeJsonAtomic(join(dir, name), fallback);
    } catch (error) {
      log.warn(`Could not write the default ${name}: ${errorMessage(error)}`);
    }
    return { value: fallback };
  }
  if (read.ok) return { value: read.value };
  log.error(`Invalid ${read.problem}; ${what}`);
  return { value: fallback, problem: read.problem };
}

/** Loads every config file at start, writing defaults for missing ones. */
export function loadConfig(dir: string, log: Logger): EngineConfig {
  const use = 'using the defaults until it is fixed';
  const { creators, serverConfig, newbieKit, customItems } = engineConfigFiles;
  return {
    creators: load<CreatorList>(dir, creators, checks.creators, [], log, use).value,
    serverConfig: load(dir, serverConfig, checks.serverConfig, defaultServerConfig, log, use).value,
    newbieKit: load(dir, newbieKit, checks.newbieKit, defaultNewbieKit(), log, use).value,
    customItems: load(dir, customItems, checks.customItems, { items: [] }, log, use).value,
  };
}

/**
 * Re-reads what can change while running (creator list, server config). An invalid file keeps the
 * value in force and is named in `errors`.
 */
export function reloadLiveConfig(
  dir: string,
  current: EngineConfig,
  log: Logger,
): { config: EngineConfig; errors: string[] } {
  const errors: string[] = [];
  const keep = 'keeping the current value';
  const creators = load(dir, engineConfigFiles.creators, checks.creators, current.creators, log, keep);
  const server = load(dir, engineConfigFiles.serverConfig, checks.serverConfig, current.serverConfig, log, keep);
  for (const r of [creators, server]) if (r.problem) errors.push(r.problem);
  return { config: { ...current, creators: creators.value, serverConfig: server.value }, errors };
}
