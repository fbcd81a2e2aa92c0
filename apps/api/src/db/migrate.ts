import type { Db } from './db.ts';
import { migrations as all, type Migration } from './migrations.ts';

const statements = (sql: string) =>
  sql
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);

/** Applies every migration newer than the database's version, each in its own transaction. */
export async function migrate(db: Db, migrations: Migration[] = all): Promise<number[]> {
  await db.run(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)',
  );
  const applied: number[] = [];
  await db.transaction(async (tx) => {
    // Two api replicas starting together on PostgreSQL must not both migrate.
    if (tx.dialect === 'postgres') await tx.run('SELECT pg_advisory_xact_lock(7212026)');
    const done = new Set(
      (await tx.all<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => Number(r.version)),
    );
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(m.version)) continue;
      const sql = typeof m.sql === 'string' ? m.sql : m.sql[tx.dialect];
      for (const statement of statements(sql)) await tx.run(statement);
      await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
        m.version,
        m.name,
        Date.now(),
      ]);
      applied.push(m.version);
    }
  });
  return applied;
}
