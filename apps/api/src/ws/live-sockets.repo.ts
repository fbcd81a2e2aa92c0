import type { Db } from '../db/db.ts';

/** The open WebSockets of every api replica on PostgreSQL, so a user's sockets are counted across replicas (ADR 0038). */
export const liveSocketsRepo = {
  /**
   * Records a socket of `userId` unless the user already holds `max` sockets seen since `aliveSince`; false at the
   * cap. A transaction-scoped advisory lock per user makes the count and the insert one decision across replicas.
   */
  admit(
    db: Db,
    row: { id: string; replicaId: string; userId: string; now: number },
    max: number,
    aliveSince: number,
  ): Promise<boolean> {
    return db.transaction(async (tx) => {
      await tx.run("SELECT pg_advisory_xact_lock(hashtext('canopy-sockets ' || ?))", [row.userId]);
      const held = await tx.get<{ n: number }>(
        'SELECT COUNT(*) AS n FROM live_sockets WHERE user_id = ? AND seen_at >= ?',
        [row.userId, aliveSince],
      );
      if (Number(held?.n ?? 0) >= max) return false;
      await tx.run('INSERT INTO live_sockets (id, replica_id, user_id, seen_at) VALUES (?, ?, ?, ?)', [
        row.id,
        row.replicaId,
        row.userId,
        row.now,
      ]);
      return true;
    });
  },
  /** A socket is gone. */
  remove(db: Db, id: string) {
    return db.run('DELETE FROM live_sockets WHERE id = ?', [id]);
  },
  /** The replica's heartbeat: its sockets are still open. */
  touch(db: Db, replicaId: string, now: number) {
    return db.run('UPDATE live_sockets SET seen_at = ? WHERE replica_id = ?', [now, replicaId]);
  },
  /** Every socket of a replica that is shutting down. */
  removeReplica(db: Db, replicaId: string) {
    return db.run('DELETE FROM live_sockets WHERE replica_id = ?', [replicaId]);
  },
  /** Rows no heartbeat refreshed since `before` (their replica died): they already stopped counting. */
  sweep(db: Db, before: number) {
    return db.run('DELETE FROM live_sockets WHERE seen_at < ?', [before]);
  },
};
