import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerStatus } from '@canopy/contract';
import { LocalDriver, type LocalDriverOptions } from '../../src/runtime/local/local-driver.ts';
import type { CrashReport, HostedServerSpec } from '../../src/runtime/types.ts';

// Supervisor tests run real engine processes under a LocalDriver of their own (no api around it).

/** The engine's entry file, as the api starts it. */
export const engineEntry = new URL('../../../../packages/engine/src/main.ts', import.meta.url).pathname;

/** A LocalDriver on real engine processes that records the statuses, crashes, start failures and console lines. */
export function recordingDriver(opts: Omit<LocalDriverOptions, 'listener' | 'now' | 'saveLastCrash'>) {
  const statuses: ServerStatus[] = [];
  const crashes: CrashReport[] = [];
  const failures: string[] = [];
  const lines: string[] = [];
  const d = new LocalDriver({
    ...opts,
    now: Date.now,
    saveLastCrash: () => {},
    listener: {
      status: (_id, s) => statuses.push(s.status),
      console: (_id, line) => lines.push(line),
      crash: (_id, r) => crashes.push(r),
      startFailed: (_id, reason) => failures.push(reason),
    },
  });
  return { d, statuses, crashes, failures, lines };
}

/** Makes hosted server specs named by their id, each on the next game port from `firstPort`. */
export function specsFrom(firstPort: number): (id: string) => HostedServerSpec {
  let port = firstPort;
  return (id) => ({
    id,
    name: id,
    ownerId: 'owner',
    gamePort: port++,
    secret: `secret-${id}-0123456789`,
    lastCrashAt: null,
  });
}

/** The pid a server's engine.json under `root` names. */
export const enginePidIn = (root: string, id: string) =>
  JSON.parse(readFileSync(join(root, id, 'engine.json'), 'utf8')).pid as number;
