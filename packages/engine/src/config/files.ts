import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CreatorList,
  type CustomItemsFile,
  creatorListSchema,
  customItemsFileSchema,
  defaultNewbieKit,
  defaultServerConfig,
  engineConfigFiles,
  type NewbieKit,
  newbieKitSchema,
  type ServerConfig,
  serverConfigSchema,
} from '@canopy/contract/engine';
import type { z } from 'zod';
import { errorMessage, type Logger } from '../log.ts';
import { narrowMode, PRIVATE_FILE } from '../private-files.ts';
import { describeIssues } from '../validate.ts';

/** The config files as loaded. */
export interface EngineConfig {
  creators: CreatorList;
  serverConfig: ServerConfig;
  newbieKit: NewbieKit;
  customItems: CustomItemsFile;
}

/** What a config file read gave: the value, or the reason it was refused. */
type Read<T> = { ok: true; value: T } | { ok: false; problem: string };

/** Writes a file whole or not at all (the api may read it at any moment), readable by this user only. */
export function writeJsonAtomic(file: string, value: unknown): void {
  const tmp = `${file}.${process.pid}.tmp`;
  // A leftover tmp file would keep its old mode; a fresh one is created 0600 and keeps it on rename.
  rmSync(tmp, { force: true });
  writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`, { mode: PRIVATE_FILE });
  renameSync(tmp, file);
}

function readConfig<S extends z.ZodType>(dir: string, name: string, schema: S): Read<z.infer<S>> | undefined {
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
  const parsed = schema.safeParse(json);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, problem: `${name}: ${describeIssues(parsed.error)}` };
}

/**
 * Reads one config file. Missing: the default is written and used. Invalid: an ERROR line and the
 * fallback, and the file is left as it is for its owner to fix; a bad file never stops the engine.
 */
function load<S extends z.ZodType>(
  dir: string,
  name: string,
  schema: S,
  fallback: z.infer<S>,
  log: Logger,
  what: string,
): { value: z.infer<S>; problem?: string } {
  const read = readConfig(dir, name, schema);
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
    creators: load(dir, creators, creatorListSchema, [], log, use).value,
    serverConfig: load(dir, serverConfig, serverConfigSchema, defaultServerConfig, log, use).value,
    newbieKit: load(dir, newbieKit, newbieKitSchema, defaultNewbieKit(), log, use).value,
    customItems: load(dir, customItems, customItemsFileSchema, { items: [] }, log, use).value,
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
  const creators = load(dir, engineConfigFiles.creators, creatorListSchema, current.creators, log, keep);
  const server = load(dir, engineConfigFiles.serverConfig, serverConfigSchema, current.serverConfig, log, keep);
  for (const r of [creators, server]) if (r.problem) errors.push(r.problem);
  return { config: { ...current, creators: creators.value, serverConfig: server.value }, errors };
}
