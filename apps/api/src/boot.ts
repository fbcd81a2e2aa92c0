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

/**
 * On the first SIGINT or SIGTERM runs the ordered shutdown `stop`, then exits 0 (1 when it failed). A later signal
 * does not cut it short (an impatient Ctrl-C, a supervisor repeating itself) unless `forceAfterMs` has passed since
 * the first: then the process exits 1 at once. Without `forceAfterMs`, later signals are ignored.
 */
export function stopOnSignals(stop: () => Promise<void>, opts: { forceAfterMs?: number } = {}) {
  let since: number | undefined;
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, async () => {
      if (since !== undefined) {
        const waited = Date.now() - since;
        if (opts.forceAfterMs !== undefined && waited >= opts.forceAfterMs) {
          console.error(`${signal} again after the grace period: exiting without finishing the shutdown`);
          process.exit(1);
        }
        console.error(`${signal} again: still shutting down in order`);
        return;
      }
      since = Date.now();
      try {
        await stop();
      } catch (error) {
        console.error(`Shutdown failed: ${(error as Error).message}`);
        process.exit(1);
      }
      process.exit(0);
    });
}
