import type { Verdict } from './verify-worker.ts';

export type { Verdict } from './verify-worker.ts';

/**
 * Checks a database file (its header, `PRAGMA integrity_check`) and measures it (length, sha256) in a worker
 * thread, so that the game keeps running meanwhile; the thread ends with the check.
 */
export function verifyDatabase(path: string): Promise<Verdict> {
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./verify-worker.ts', import.meta.url), { workerData: { path } });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the database check ended with status ${code}`)));
  });
}
