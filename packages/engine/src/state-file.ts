import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineStateFile } from '@canopy/contract/engine';
import { writeJsonAtomic } from './config/files.ts';

/** `<data-dir>/engine.json`: who runs this data directory and where to reach it. */
export const stateFilePath = (dataDir: string) => join(dataDir, 'engine.json');

/** The state file's content, or undefined when it is missing or unreadable. */
export function readStateFile(dataDir: string): EngineStateFile | undefined {
  try {
    return asStateFile(JSON.parse(readFileSync(stateFilePath(dataDir), 'utf8')));
  } catch {
    return undefined;
  }
}

/**
 * The contract's engineStateFileSchema, checked by hand: every start reads engine.json, and the schema would
 * load zod into every engine (about 9 MB, docs/decisions/0024-lean-engine.md). Other keys are dropped, as there.
 */
export function asStateFile(json: unknown): EngineStateFile | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const { pid, controlHost, controlPort, gamePort, version, startedAt, filesOnly } = json as Record<string, unknown>;
  const int = (v: unknown): v is number => Number.isSafeInteger(v);
  const str = (v: unknown): v is string => typeof v === 'string';
  if (!int(pid) || !int(controlPort) || !int(gamePort) || !str(controlHost) || !str(version) || !str(startedAt))
    return undefined;
  if (filesOnly !== undefined && typeof filesOnly !== 'boolean') return undefined;
  return { pid, controlHost, controlPort, gamePort, version, startedAt, ...(filesOnly ? { filesOnly } : {}) };
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The engine that the state file names, when it is really running: its process is alive and it
 * answers GET /stats with our secret. A file left by a SIGKILLed engine (or a reused pid) is stale.
 */
export async function liveEngine(dataDir: string, secret: string): Promise<EngineStateFile | undefined> {
  const state = readStateFile(dataDir);
  if (!state || state.pid === process.pid || !processAlive(state.pid)) return undefined;
  const host = state.controlHost.includes(':') ? `[${state.controlHost}]` : state.controlHost;
  try {
    const res = await fetch(`http://${host}:${state.controlPort}/stats`, {
      headers: { authorization: `Bearer ${secret}` },
      signal: AbortSignal.timeout(2000),
    });
    await res.body?.cancel();
    return res.ok ? state : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the state file at ready. */
export function writeStateFile(dataDir: string, state: EngineStateFile): void {
  writeJsonAtomic(stateFilePath(dataDir), state);
}

/** Removes the state file on a clean exit, unless another process has since written its own. */
export function removeStateFile(dataDir: string): void {
  if (readStateFile(dataDir)?.pid === process.pid) rmSync(stateFilePath(dataDir), { force: true });
}
