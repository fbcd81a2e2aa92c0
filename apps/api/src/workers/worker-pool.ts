// Work that would hold the api's event loop (parsing and validating a large body, decoding a texture) runs on
// a small pool of worker threads (piscina, docs/decisions/0034-validation-cost-and-worker-threads.md), and each
// tenant gets its share of it: a caller has at most TENANT_IN_POOL tasks in the pool, a few more wait in
// their own line, and the rest are refused, so one account sending large bodies cannot queue everyone else.
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { AppError } from '../errors.ts';
import type { Task, TaskAnswer, TaskKind, TaskValue } from './tasks.ts';

/** Worker threads: the cores but one (left to the event loop), at least 1, at most 4. */
export const POOL_THREADS = Math.max(1, Math.min(4, availableParallelism() - 1));
/** Tasks of one caller in the pool (running or in its queue) at once: with several tenants, a fair share. */
export const TENANT_IN_POOL = 1;
/** Tasks of one caller waiting for their turn behind those; one more is a 429. */
export const TENANT_WAITING = 4;

export const workerPoolMessages = {
  busy: 'Your other requests are still being checked. Please try again in a moment.',
} as const;

/** A worker's heap limit: the largest body (a 5.6 MB texture upload) needs a few tens of MB. */
const WORKER_HEAP_MB = 256;

/** How a task reaches a thread: piscina's run, or a stand-in in a test of the lines. */
export type RunTask = (task: Task, transfer: ArrayBuffer[]) => Promise<TaskAnswer>;

/**
 * The bytes' memory to hand to the thread instead of copying it: only memory the bytes alone use (Node's
 * small buffers share a pool that must not be taken away); copying megabytes on the event loop, and
 * collecting the copies, cost more than the check itself.
 */
function ownMemory(bytes: Uint8Array): ArrayBuffer[] {
  const { buffer } = bytes;
  return buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength
    ? [buffer]
    : [];
}

/** The pool and the per-caller lines in front of it. */
export class WorkerPool {
  readonly #piscina: Piscina | undefined;
  readonly #runTask: RunTask;
  readonly #tenants = new Map<string, { inPool: number; waiting: (() => void)[] }>();

  constructor(runTask?: RunTask) {
    if (runTask) {
      this.#runTask = runTask;
      return;
    }
    const piscina = new Piscina({
      filename: new URL('./tasks.ts', import.meta.url).href,
      // Threads start with the first task and end after a minute idle: an api nobody uploads to keeps none.
      minThreads: 0,
      maxThreads: POOL_THREADS,
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    this.#piscina = piscina;
    this.#runTask = (task, transferList) => piscina.run(task, { transferList });
  }

  /**
   * Runs a task for `tenant` (the caller's user id) in its turn; a refusal the task found is a thrown AppError.
   * `handOver`: the task's bytes are not used here afterwards, so their memory may move to the thread.
   */
  async run<K extends TaskKind>(tenant: string, task: Task<K>, handOver = false): Promise<TaskValue<K>> {
    await this.#enter(tenant);
    let answer: TaskAnswer;
    try {
      answer = await this.#runTask(task, handOver ? ownMemory(task.bytes) : []);
    } finally {
      this.#leave(tenant);
    }
    if (!answer.ok) throw new AppError(answer.status, answer.code, answer.message);
    return answer.value as TaskValue<K>;
  }

  /**
   * Parses and validates a `rawBody` route's body on a worker (see tasks.ts for each kind); a missing body is
   * refused as validate.ts refuses one. `handOver` as for run: the caller does not read `raw` afterwards.
   */
  async checkBody<K extends TaskKind>(
    tenant: string,
    kind: K,
    raw: Buffer | undefined,
    { handOver = false } = {},
  ): Promise<TaskValue<K>> {
    if (!raw) throw new AppError(400, 'validation', 'Request body is required.');
    return this.run(tenant, { kind, bytes: raw }, handOver);
  }

  /** Ends the threads (tasks still running are abandoned: the app is closing). */
  async close(): Promise<void> {
    await this.#piscina?.close({ force: true });
  }

  async #enter(tenant: string): Promise<void> {
    const line = this.#tenants.get(tenant) ?? { inPool: 0, waiting: [] };
    this.#tenants.set(tenant, line);
    if (line.inPool >= TENANT_IN_POOL) {
      if (line.waiting.length >= TENANT_WAITING) throw new AppError(429, 'busy', workerPoolMessages.busy);
      // The place is handed over by #leave, never taken back by someone arriving meanwhile.
      return new Promise<void>((resolve) => line.waiting.push(resolve));
    }
    line.inPool++;
  }

  #leave(tenant: string): void {
    const line = this.#tenants.get(tenant);
    if (!line) return;
    const next = line.waiting.shift();
    if (next) {
      next();
      return;
    }
    line.inPool--;
    if (line.inPool === 0) this.#tenants.delete(tenant);
  }
}
