import { randomUUID } from 'node:crypto';
import type { Db } from '../db/db.ts';
import { liveSocketsRepo } from './live-sockets.repo.ts';

/** How often a replica tells the database its sockets are still open. */
export const LIVE_SOCKETS_HEARTBEAT_MS = 10_000;
/** A socket row no heartbeat refreshed for this long belongs to a dead replica and stops counting. */
export const LIVE_SOCKETS_STALE_MS = 3 * LIVE_SOCKETS_HEARTBEAT_MS;

/** A user's sockets counted across api replicas (PostgreSQL only; SQLite's one process counts in memory). */
export interface LiveSockets {
  /** Records a new socket of `userId`: its id, or null when the user holds `max` across all replicas. */
  admit(userId: string, max: number): Promise<string | null>;
  /** The socket is closed (never throws). */
  release(id: string): void;
  /** Stops the heartbeat and removes this replica's rows. */
  stop(): Promise<void>;
}

/** Starts this replica's share of the socket table: a random replica id and its heartbeat. */
export function startLiveSockets(db: Db, onError: (error: unknown) => void): LiveSockets {
  const replicaId = randomUUID();
  // Closed sockets whose row could not be deleted (the database was away): tried again on each heartbeat,
  // which would otherwise keep them counting.
  const unreleased = new Set<string>();
  const remove = (id: string) =>
    liveSocketsRepo.remove(db, id).then(
      () => unreleased.delete(id),
      (error) => {
        unreleased.add(id);
        onError(error);
      },
    );
  const heartbeat = setInterval(() => {
    for (const id of unreleased) void remove(id);
    liveSocketsRepo.touch(db, replicaId, Date.now()).catch(onError);
  }, LIVE_SOCKETS_HEARTBEAT_MS);
  heartbeat.unref();
  let stopped = false;
  return {
    async admit(userId, max) {
      const now = Date.now();
      const id = randomUUID();
      const admitted = await liveSocketsRepo.admit(
        db,
        { id, replicaId, userId, now },
        max,
        now - LIVE_SOCKETS_STALE_MS,
      );
      return admitted ? id : null;
    },
    release(id) {
      // After stop the replica's rows are gone already (and the database may be closing).
      if (stopped) return;
      void remove(id);
    },
    async stop() {
      stopped = true;
      clearInterval(heartbeat);
      await liveSocketsRepo.removeReplica(db, replicaId).catch(onError);
    },
  };
}
