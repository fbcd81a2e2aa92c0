import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { describe, it } from 'node:test';
import { migrations } from '../src/db/migrations.ts';
import { migrate } from '../src/db/open.ts';

describe('engine migrations', () => {
  it('upgrade a version 1 database so that the player list reads only its index', () => {
    const db = new DatabaseSync(':memory:');
    assert.deepEqual(
      migrate(
        db,
        migrations.filter((m) => m.version === 1),
      ),
      [1],
    );
    assert.deepEqual(migrate(db), [2, 3, 4]);
    // The inner query of players.repo.ts's list: every column it reads, banned included, is in the index.
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT id, name, level, gems, roles, banned FROM players
         WHERE name_key LIKE ? ESCAPE '\\' ORDER BY name_key LIMIT ? OFFSET ?`,
      )
      .all('%%', -1, 0)
      .map((r) => String(r.detail));
    assert.ok(
      plan.some((d) => d.includes('USING COVERING INDEX players_list_v2')),
      plan.join('\n'),
    );
    db.close();
  });
});
