import type { Db } from '../db/db.ts';

export const healthRepo = {
  /** The newest migration applied to the database (0 when none): the readiness probe's trivial query. */
  async schemaVersion(db: Db): Promise<number> {
    const row = await db.get<{ version: number | null }>('SELECT MAX(version) AS version FROM schema_migrations');
    return Number(row?.version ?? 0);
  },
};
