import type { Db } from './db.ts';
import { migrations as all, type Migration } from './migrations.ts';

/**
 * A migration's statements, split at ';'. A trigger's body holds statements of its own, so a piece that
 * opened a BEGIN runs on to its END, and a PostgreSQL function's dollar-quoted body ($$ ... $$) to its
 * closing $$ (its own BEGIN ... END and END IF are inside the quotes).
 */
export function statements(sql: string): string[] {
  const out: string[] = [];
  let pending = '';
  for (const piece of sql.split(';')) {
    pending = pending ? `${pending};${piece}` : piece;
    if ((pending.match(/\$\$/g)?.length ?? 0) % 2 === 1) continue;
    const unquoted = pending.replace(/\$\$[\s\S]*?\$\$/g, '$$$$');
    if (/\bBEGIN\b/i.test(unquoted) && !/\bEND\s*$/i.test(unquoted.trim())) continue;
    if (pending.trim()) out.push(pending.trim());
    pending = '';
  }
  return out;
}

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
