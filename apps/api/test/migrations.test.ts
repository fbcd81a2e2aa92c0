import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Db } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';
import { migrations } from '../src/db/migrations.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { openSqlite } from '../src/db/sqlite.ts';
import { createPgDatabase, dialects } from './support/databases.ts';

for (const dialect of dialects) {
  describe(`migrations [${dialect}]`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    after(async () => {
      for (const c of cleanups) await c();
    });
    const open = async (): Promise<Db> => {
      if (dialect === 'sqlite') return openSqlite(':memory:');
      const pg = await createPgDatabase();
      const db = openPostgres(pg.url);
      cleanups.push(async () => {
        await db.close();
        await pg.drop();
      });
      return db;
    };

    it('applies every migration once and records it', async () => {
      const db = await open();
      assert.deepEqual(
        await migrate(db),
        migrations.map((m) => m.version),
      );
      assert.deepEqual(await migrate(db), [], 'a second run applies nothing');
      const rows = await db.all<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
      assert.deepEqual(
        rows.map((r) => Number(r.version)),
        migrations.map((m) => m.version),
      );
    });

    it('rolls a failing migration back whole', async () => {
      const db = await open();
      await migrate(db);
      const broken = [
        ...migrations,
        { version: 999, name: 'broken', sql: 'CREATE TABLE t999 (a INTEGER); SELECT nope FROM missing' },
      ];
      await assert.rejects(migrate(db, broken));
      const applied = await db.all<{ version: number }>('SELECT version FROM schema_migrations WHERE version = 999');
      assert.equal(applied.length, 0);
      await assert.rejects(db.all('SELECT * FROM t999'), 'the table of the failed migration is gone');
    });

    it('keeps a transaction to itself and rolls it back on a throw', async () => {
      const db = await open();
      await migrate(db);
      await assert.rejects(
        db.transaction(async (tx) => {
          await tx.run("INSERT INTO settings (key, value) VALUES ('maintenance', 'true')");
          throw new Error('boom');
        }),
      );
      assert.equal(await db.get("SELECT value FROM settings WHERE key = 'maintenance'"), undefined);
    });

    it('migration 4 keeps only the earliest invitation of each user, none of an owner, and refuses a second one', async () => {
      const db = await open();
      await migrate(
        db,
        migrations.filter((x) => x.version < 4),
      );
      for (const id of ['u1', 'u2', 'u3', 'u4'])
        await db.run('INSERT INTO users (id, username, created_at) VALUES (?, ?, 0)', [id, id]);
      for (const [id, owner, port] of [
        ['s1', 'u1', 1],
        ['s2', 'u2', 2],
        ['s4', 'u4', 4],
      ] as const)
        await db.run(
          'INSERT INTO servers (id, owner_id, name, name_key, game_port, control_secret, created_at) VALUES (?, ?, ?, ?, ?, ?, 0)',
          [id, owner, id, id, port, ''],
        );
      const add = (server: string, user: string, at: number) =>
        db.run("INSERT INTO collaborators (server_id, user_id, permissions, created_at) VALUES (?, ?, '[]', ?)", [
          server,
          user,
          at,
        ]);
      await add('s2', 'u3', 20);
      await add('s1', 'u3', 10);
      await add('s4', 'u3', 10);
      await add('s1', 'u4', 5);
      await migrate(db);
      const left = await db.all<{ server_id: string; user_id: string }>('SELECT server_id, user_id FROM collaborators');
      assert.deepEqual(
        left.map((r) => `${r.server_id}:${r.user_id}`),
        ['s1:u3'],
      );
      await assert.rejects(add('s2', 'u3', 30), /unique|duplicate/i);
    });
  });
}
