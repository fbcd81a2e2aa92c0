import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Db } from '../src/db/db.ts';
import { isCacheableRead } from '../src/db/read-cache.ts';
import { openSqlite } from '../src/db/sqlite.ts';

// The SQLite read cache (ADR 0025) must be invisible: every read answers what the database holds.
describe('SQLite read cache', () => {
  let dir: string;
  let file: string;
  let db: Db;
  const name = async (id: number) => (await db.get<{ name: string }>('SELECT name FROM t WHERE id = ?', [id]))?.name;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'read-cache-'));
    file = join(dir, 'db.sqlite');
    db = openSqlite(file);
    await db.run('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)');
    await db.run("INSERT INTO t VALUES (1, 'one')");
  });
  after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sees a write through the same connection at once', async () => {
    assert.equal(await name(1), 'one');
    await db.run("UPDATE t SET name = 'uno' WHERE id = 1");
    assert.equal(await name(1), 'uno');
    await db.get("INSERT INTO t VALUES (2, 'two') RETURNING id");
    assert.equal(await name(2), 'two');
  });

  it('sees a transaction once it committed, and nothing of one rolled back', async () => {
    assert.equal(await name(3), undefined);
    await db.transaction(async (tx) => {
      await tx.run("INSERT INTO t VALUES (3, 'three')");
    });
    assert.equal(await name(3), 'three');
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.run("UPDATE t SET name = 'gone' WHERE id = 3");
        throw new Error('undo');
      }),
    );
    assert.equal(await name(3), 'three');
  });

  it('sees a commit by another connection from the next event-loop turn on', async () => {
    assert.equal(await name(1), 'uno');
    const other = new DatabaseSync(file);
    other.exec("UPDATE t SET name = 'eins' WHERE id = 1");
    other.close();
    // Within one turn reads share one snapshot; the next turn reads the change.
    await nextTurn();
    assert.equal(await name(1), 'eins');
  });

  it('hands out copies: changing a row one caller got leaves the next caller’s answer alone', async () => {
    const row = await db.get<{ name: string }>('SELECT name FROM t WHERE id = ?', [1]);
    assert.ok(row);
    row.name = 'changed by a caller';
    const rows = await db.all<{ name: string }>('SELECT name FROM t ORDER BY id');
    if (rows[0]) rows[0].name = 'changed too';
    assert.equal(await name(1), 'eins');
    assert.equal((await db.all<{ name: string }>('SELECT name FROM t ORDER BY id'))[0]?.name, 'eins');
  });

  it('tells parameter lists apart exactly', async () => {
    await db.run('INSERT INTO t VALUES (10, ?), (11, ?)', ['a\u0000b', 'a']);
    const by = (a: string, b: string) =>
      db.all<{ id: number }>('SELECT id FROM t WHERE name = ? OR name = ? ORDER BY id', [a, b]);
    assert.deepEqual(
      (await by('a\u0000b', 'x')).map((r) => r.id),
      [10],
    );
    assert.deepEqual(
      (await by('a', 'b\u0000x')).map((r) => r.id),
      [11],
    );
    assert.equal(await name(1), 'eins');
    assert.equal((await db.get<{ id: number }>('SELECT id FROM t WHERE id = ?', ['1']))?.id, 1);
  });

  it('never keeps answers that depend on more than the data', () => {
    assert.equal(isCacheableRead('SELECT name FROM t WHERE id = ?'), true);
    assert.equal(isCacheableRead('WITH x AS (SELECT 1) SELECT * FROM x'), true);
    assert.equal(isCacheableRead('SELECT random()'), false);
    assert.equal(isCacheableRead("SELECT datetime('now')"), false);
    assert.equal(isCacheableRead('SELECT CURRENT_TIMESTAMP'), false);
    assert.equal(isCacheableRead('INSERT INTO t VALUES (1) RETURNING id'), false);
    assert.equal(isCacheableRead('PRAGMA data_version'), false);
  });
});
