import type { Config } from './config.ts';
import { openDatabase } from './db/open.ts';

// Start-up and shutdown shared by the process entry points: the panel (main.ts) and the standalone gateway.

/** Runs a start-up step that reads the configuration; when it throws, prints its message and exits 1. */
export function orExit<T>(step: () => T): T {
  try {
    return step();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}

/** Opens the configured database, or prints why it cannot and exits 1. */
export function openDatabaseOrExit(config: Config) {
  return openDatabase(config).catch((error: Error) => {
    console.error(`Cannot open the database: ${error.message}`);
    process.exit(1);
  });
}

/** On the first SIGINT or SIGTERM runs the ordered shutdown `stop`, then exits 0; later signals are ignored. */
export function stopOnSignals(stop: () => Promise<void>) {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, async () => {
      if (stopping) return;
      stopping = true;
      await stop();
      process.exit(0);
    });
}
