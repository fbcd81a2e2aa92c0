// A files-only engine opens the database only for a snapshot or a restore; one of them at a time, so that a
// restore never renames a file over the database while a snapshot reads it, nor two restores race.
let tail: Promise<unknown> = Promise.resolve();

/** Runs `fn` once every earlier database turn has ended (however it ended). */
export function databaseTurn<T>(fn: () => Promise<T>): Promise<T> {
  const run = tail.then(fn, fn);
  tail = run.catch(() => {});
  return run;
}

/** Resolves once the turns begun so far have ended (a stop waits for a restore's swap). */
export const databaseIdle = (): Promise<unknown> => tail;
