import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/db.ts';
import { RuntimeBusyError } from '../types.ts';
import { powerLockRepo } from './power-lock.repo.ts';

// The power lock of the kubernetes driver: one action at a time per server, across every api replica. The
// in-process lock answers a second action on this replica at once (synchronously, as the local driver does);
// the lease in the database (power-lock.repo.ts) settles a race between replicas, and expires when its holder
// dies without releasing it.

/** How long a lease lasts without renewal: a dead holder's lease frees up after this. */
export const LEASE_TTL_MS = 30_000;

interface Logger {
  warn(msg: string): void;
}

/** One action's hold on a server: the local lock at once, the lease once `claimed` resolves. */
export interface Claim {
  readonly action: string;
  /** Resolves once the lease is held; rejects with RuntimeBusyError when another replica holds it. */
  readonly claimed: Promise<void>;
}

interface Held extends Claim {
  token: string;
  renew?: NodeJS.Timeout;
}

/** The power locks of every server on this replica. */
export class PowerLocks {
  private readonly db: Db;
  private readonly now: () => number;
  private readonly log: Logger;
  private readonly ttlMs: number;
  private readonly held = new Map<string, Held>();

  constructor(opts: { db: Db; now: () => number; log: Logger; ttlMs?: number }) {
    this.db = opts.db;
    this.now = opts.now;
    this.log = opts.log;
    this.ttlMs = opts.ttlMs ?? LEASE_TTL_MS;
  }

  /** The action holding the server's local lock, if any. */
  holder(id: string): string | undefined {
    return this.held.get(id)?.action;
  }

  /** The lease of the action under way here, resolved when none is. */
  claimed(id: string): Promise<void> {
    return this.held.get(id)?.claimed ?? Promise.resolve();
  }

  /**
   * Takes the server's local lock for `action` now (throws RuntimeBusyError while another action holds it here),
   * then its lease in the database; `run` runs once both are held, and both are released however it ends. The
   * returned promise rejects with RuntimeBusyError when another replica holds the lease.
   */
  run<T>(id: string, action: string, run: () => Promise<T>): Promise<T> {
    const current = this.held.get(id);
    if (current) throw new RuntimeBusyError(`${current.action} in progress`);
    // A token per action, so that a lease this replica lost and took again is never renewed by the old action.
    const token = `${randomUUID()}:${action}`;
    const claimed = this.take(id, token);
    const hold: Held = { action, token, claimed };
    this.held.set(id, hold);
    claimed.catch(() => {}); // its failure is the action's
    return (async () => {
      try {
        await claimed;
        hold.renew = setInterval(() => void this.renew(id, token), Math.floor(this.ttlMs / 3));
        hold.renew.unref();
        return await run();
      } finally {
        if (hold.renew) clearInterval(hold.renew);
        // The lease goes first: a next action here must not find this one's lease still taken.
        if (
          await claimed.then(
            () => true,
            () => false,
          )
        )
          await powerLockRepo.release(this.db, id, token, this.now()).catch((error: Error) => {
            // It expires by itself after the TTL.
            this.log.warn(`power lock of ${id} not released: ${error.message}`);
          });
        if (this.held.get(id) === hold) this.held.delete(id);
      }
    })();
  }

  private async take(id: string, token: string): Promise<void> {
    const now = this.now();
    if (!(await powerLockRepo.take(this.db, id, token, now + this.ttlMs, now)))
      throw new RuntimeBusyError('another action is in progress');
  }

  private async renew(id: string, token: string) {
    try {
      if (!(await powerLockRepo.renew(this.db, id, token, this.now() + this.ttlMs)))
        this.log.warn(`power lock of ${id} was lost while its action ran (the database was away past its lease)`);
    } catch (error) {
      this.log.warn(`power lock of ${id} not renewed: ${(error as Error).message}`);
    }
  }

  /** True when an action held the server's lease (here or on another replica) at any time since `since`. */
  heldSince(id: string, since: number): Promise<boolean> {
    return powerLockRepo.heldSince(this.db, id, since);
  }
}
