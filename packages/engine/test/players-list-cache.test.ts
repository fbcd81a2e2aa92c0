import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, it } from 'node:test';
import { migrate } from '../src/db/open.ts';
import { createPlayersRepo } from '../src/players/players.repo.ts';
import { newPlayerData } from '../src/players/register.ts';

const names = (bytes: Uint8Array) =>
  (JSON.parse(Buffer.from(bytes).toString()) as { players: { name: string; banned: boolean }[] }).players;

describe('the full player list kept as bytes', () => {
  it('is built again after any change, through the repo or through another connection', () => {
    const dir = mkdtempSync(join(tmpdir(), 'players-list-'));
    try {
      const file = join(dir, 'engine.db');
      const db = new DatabaseSync(file);
      db.exec('PRAGMA journal_mode = WAL');
      migrate(db);
      const players = createPlayersRepo(db);
      const data = newPlayerData({ ITEMS: [] } as never);
      players.create('alice', data, 'hash');
      const first = players.list({});
      assert.equal(players.list({}), first, 'unchanged: the same bytes are answered');
      assert.deepEqual(
        names(first).map((p) => p.name),
        ['alice'],
      );

      players.create('bob', data, 'hash');
      assert.deepEqual(
        names(players.list({})).map((p) => p.name),
        ['alice', 'bob'],
      );
      players.setBanned('bob', true);
      assert.equal(names(players.list({}))[1]?.banned, true);

      // A commit by another connection (a restore tool, a second process) is seen too.
      const other = new DatabaseSync(file);
      other.prepare('DELETE FROM players WHERE name_key = ?').run('alice');
      other.close();
      assert.deepEqual(
        names(players.list({})).map((p) => p.name),
        ['bob'],
      );
      // Filtered and paged lists are never answered from the kept bytes.
      assert.deepEqual(names(players.list({ search: 'zzz' })), []);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
