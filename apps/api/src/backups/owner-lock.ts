/**
 * One backup step at a time per account inside this api process: a create's commit, a restore and a
 * delete of the same account wait for each other instead of interleaving their file and row changes.
 * (Across processes the backups table's primary key keeps one backup per account.)
 */
const tails = new Map<string, Promise<unknown>>();

export async function withOwnerLock<T>(ownerId: string, fn: () => Promise<T>): Promise<T> {
  const previous = tails.get(ownerId) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const tail = run.catch(() => {});
  tails.set(ownerId, tail);
  try {
    return await run;
  } finally {
    if (tails.get(ownerId) === tail) tails.delete(ownerId);
  }
}
